import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { netnsPrefix, startAnvil } from './anvilProcess.js';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('the local chain process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'anvil-port-'));
  const chainDir = join(dataDir, 'chain');
  const opts = { chainId: 31337, stateFile: join(chainDir, 'state.json'), portFile: join(chainDir, 'port'), stateIntervalSeconds: 1 };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps its port across restarts of the same data directory, so the rpcUrl a wallet stored stays valid', async () => {
    const first = await startAnvil(opts);
    await first.stop();
    assert.equal(readFileSync(opts.portFile, 'utf8').trim(), String(first.port));
    const second = await startAnvil(opts);
    try {
      assert.equal(second.port, first.port);
      assert.equal(second.rpcUrl, first.rpcUrl);
    } finally {
      await second.stop();
    }
  });

  it('moves to a new port only when the stored one is taken, stores it and says so', async () => {
    const stored = Number(readFileSync(opts.portFile, 'utf8'));
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(stored, '127.0.0.1', r));
    const moves: [number, number][] = [];
    try {
      const moved = await startAnvil({ ...opts, onPortMoved: (from, to) => moves.push([from, to]) });
      await moved.stop();
      assert.notEqual(moved.port, stored);
      assert.deepEqual(moves, [[stored, moved.port]]);
      assert.equal(readFileSync(opts.portFile, 'utf8').trim(), String(moved.port));
    } finally {
      squatter.close();
    }
  });

  it('keeps its directory private (0700) and its state dumps 0600, also after a loosened mode', async () => {
    chmodSync(chainDir, 0o755);
    if (existsSync(opts.stateFile)) chmodSync(opts.stateFile, 0o644);
    const a = await startAnvil(opts);
    await a.stop();
    assert.equal(mode(chainDir), 0o700);
    assert.ok(existsSync(opts.stateFile), 'anvil dumped its state on stop');
    assert.equal(mode(opts.stateFile), 0o600);
  });

  it('accepts a chain call from the engine only: no listening socket of anvil in this network namespace, and the way in refuses a rebinding Host, a browser Origin and any other path', async () => {
    assert.ok(netnsPrefix(), 'this machine can make a private network namespace (root, or unprivileged user namespaces)');
    const a = await startAnvil(opts);
    try {
      assert.equal(a.isolation, 'netns');
      // Every TCP socket listening in our namespace, by inode, against the sockets anvil holds open.
      const listening = new Set<string>();
      for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
        for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
          const f = line.trim().split(/\s+/);
          if (f[3] === '0A') listening.add(f[9]!);
        }
      }
      const anvilSockets = readdirSync(`/proc/${a.pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${a.pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((x): x is string => x !== undefined);
      assert.ok(anvilSockets.length > 0, 'anvil holds its sockets');
      assert.deepEqual(anvilSockets.filter((i) => listening.has(i)), [], 'none of them listens where this machine can reach it');

      const url = new URL(a.rpcUrl);
      const setBalance = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: ['0x1111111111111111111111111111111111111111', '0xffff'] });
      // node:http, not fetch: fetch drops a Host header it is given.
      const post = (target: string, headers: Record<string, string>) =>
        new Promise<{ status: number }>((resolve, reject) => {
          const req = request(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0 });
          });
          req.on('error', reject);
          req.end(setBalance);
        });
      assert.equal((await post(a.rpcUrl, { host: `rebind.example:${url.port}` })).status, 421);
      assert.equal((await post(a.rpcUrl, { origin: `http://rebind.example:${url.port}` })).status, 403);
      assert.equal((await post(`${url.origin}/`, {})).status, 404, 'the path is a secret');
      const balance = await (await fetch(a.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0x1111111111111111111111111111111111111111', 'latest'] }) })).json();
      assert.deepEqual(balance, { jsonrpc: '2.0', id: 2, result: '0x0' }, 'no refused call changed anything; the engine itself is answered');
    } finally {
      await a.stop();
    }
  });

  it('without a namespace (SANDBOX_CHAIN_ISOLATION=off) listens on a random loopback address, not 127.0.0.1', async () => {
    process.env.SANDBOX_CHAIN_ISOLATION = 'off';
    try {
      const a = await startAnvil(opts);
      try {
        assert.equal(a.isolation, 'loopback');
        assert.match(a.rpcUrl, /^http:\/\/127\.\d+\.\d+\.\d+:\d+$/);
        assert.doesNotMatch(a.rpcUrl, /^http:\/\/127\.0\.0\.1:/);
      } finally {
        await a.stop();
      }
    } finally {
      delete process.env.SANDBOX_CHAIN_ISOLATION;
    }
  });

  it('ignores a stored port that is not a port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anvil-badport-'));
    try {
      mkdirSync(join(dir, 'chain'));
      writeFileSync(join(dir, 'chain', 'port'), 'banana');
      const a = await startAnvil({ chainId: 31337, stateFile: join(dir, 'chain', 'state.json'), portFile: join(dir, 'chain', 'port') });
      await a.stop();
      assert.equal(readFileSync(join(dir, 'chain', 'port'), 'utf8').trim(), String(a.port));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
