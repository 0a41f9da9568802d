import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { checkListenHost, isLoopbackHost, resolveConfig } from './config.js';

test('loopback names and addresses are recognised, other addresses are not', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'LOCALHOST']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '128.0.0.1']) assert.equal(isLoopbackHost(h), false, h);
});

test('a non-loopback --host is refused without --allow-remote and warned about with it', () => {
  assert.equal(checkListenHost('127.0.0.1', false), undefined);
  assert.throws(() => checkListenHost('0.0.0.0', false), /not a loopback address.*--allow-remote/);
  assert.match(checkListenHost('0.0.0.0', true) ?? '', /^warning: listening on 0\.0\.0\.0: the operator routes/);
});

test('npm run exchange -- --host 0.0.0.0 exits 1 with the reason before starting anything', () => {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, '--host', '0.0.0.0', '--chain', 'none'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '', 'no ready line');
  assert.match(r.stderr, /--host 0\.0\.0\.0 is not a loopback address/);
});

test('orderVersion (what GET /version reports) defaults to 2 in the polymarket profile and 1 in the default one, and can be set', () => {
  assert.equal(resolveConfig({ profile: 'polymarket' }).orderVersion, 2);
  assert.equal(resolveConfig({}).orderVersion, 1);
  assert.equal(resolveConfig({ profile: 'polymarket', orderVersion: 1 }).orderVersion, 1);
  assert.equal(resolveConfig({ orderVersion: 2 }).orderVersion, 2);
});

test('npm run exchange -- --order-version 3 exits 1 naming the flag before starting anything', () => {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', cli, '--order-version', '3', '--chain', 'none'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '', 'no ready line');
  assert.match(r.stderr, /--order-version must be 1 or 2, not '3'/);
});

test('the mirror upstreams default to the public services, and a base URL of the wrong kind is refused naming its flag', () => {
  const c = resolveConfig({});
  assert.equal(c.upstreamClob, 'https://clob.polymarket.com');
  assert.equal(c.upstreamGamma, 'https://gamma-api.polymarket.com');
  assert.equal(c.upstreamWs, 'wss://ws-subscriptions-clob.polymarket.com/ws/market');
  assert.deepEqual(c.mirrors, []);
  assert.equal(c.latencyMs, 0);
  assert.equal(resolveConfig({ upstreamClob: 'http://127.0.0.1:9/' }).upstreamClob, 'http://127.0.0.1:9');
  assert.throws(() => resolveConfig({ upstreamWs: 'http://127.0.0.1:9/ws/market' }), /--upstream-ws must be a ws or wss URL/);
  assert.throws(() => resolveConfig({ upstreamGamma: 'gamma' }), /--upstream-gamma must be an http or https URL/);
  assert.equal(resolveConfig({ latencyMs: 150 }).latencyMs, 150);
  assert.throws(() => resolveConfig({ latencyMs: 60_001 }), /--latency-ms must be a whole number of milliseconds 0\.\.60000/);
  assert.throws(() => resolveConfig({ latencyMs: 1.5 }), /--latency-ms/);
});

test('npm run exchange -- --latency-ms fast and --mirror with an empty entry exit 1 naming the flag', () => {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  for (const [args, reason] of [
    [['--latency-ms', 'fast'], /--latency-ms must be a whole number of milliseconds such as 150, not 'fast'/],
    [['--mirror', 'a,,b'], /--mirror takes public markets separated by commas/],
  ] as const) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args, '--chain', 'none'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '', 'no ready line');
    assert.match(r.stderr, reason);
  }
});
