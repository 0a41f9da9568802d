import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { ManualClock } from '../clock.js';
import { classify, RateLimiter, type RateLimiterDeps } from './rateLimiter.js';

function limiter(clock = new ManualClock(1_000_000), rateLimits = true, sleep?: (ms: number) => Promise<void>) {
  // Keys named k… are the exchange's own; anything else is made up by the client.
  const ctx = { clock, config: { rateLimits }, auth: { isLiveKey: (k: string) => /^k\d*$/.test(k) } } as unknown as RateLimiterDeps;
  return { rl: new RateLimiter(ctx, sleep), clock };
}

test('requests within a window run at once, the next ones are queued until the window slides', () => {
  const { rl, clock } = limiter();
  for (let i = 0; i < 50; i++) {
    const a = rl.admit('ip:a', 'health');
    assert.ok(a.ok && a.delayMs === 0);
  }
  const first = rl.admit('ip:a', 'health');
  assert.ok(first.ok);
  assert.equal(first.delayMs, 10_000);
  assert.equal(first.remaining, 0);
  clock.advance(4_000);
  const second = rl.admit('ip:a', 'health');
  assert.ok(second.ok);
  assert.equal(second.delayMs, 6_000, 'the second queued request starts when the second oldest slot leaves the window');
});

test('the window slides: slots free up one by one as their time leaves the window', () => {
  const { rl, clock } = limiter();
  for (let i = 0; i < 50; i++) {
    rl.admit('ip:a', 'health');
    clock.advance(100); // 50 requests spread over 5 s
  }
  clock.set(1_000_000 + 10_000); // the first slot (t=0) has left, the second (t=100) is about to
  const a = rl.admit('ip:a', 'health');
  assert.ok(a.ok);
  assert.equal(a.delayMs, 0);
  const b = rl.admit('ip:a', 'health');
  assert.ok(b.ok);
  assert.equal(b.delayMs, 100);
});

test('past one window of queued requests the answer is 429 with a Retry-After', () => {
  const { rl } = limiter();
  for (let i = 0; i < 100; i++) assert.ok(rl.admit('ip:a', 'health').ok); // 50 run, 50 queued
  const r = rl.admit('ip:a', 'health');
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.retryAfterSec === 10);
});

test('API keys and IPs have separate windows', () => {
  const { rl } = limiter();
  for (let i = 0; i < 50; i++) rl.admit('key:one', 'health');
  const other = rl.admit('key:two', 'health');
  assert.ok(other.ok && other.delayMs === 0);
  const same = rl.admit('key:one', 'health');
  assert.ok(same.ok && same.delayMs > 0);
});

test('POST /order has a burst window and a sustained window', () => {
  const { rl, clock } = limiter();
  // 2400 per 10 s is fine; the 2401st waits for the burst window.
  for (let i = 0; i < 2400; i++) assert.equal((rl.admit('key:k', 'postOrder') as { delayMs: number }).delayMs, 0);
  const burst = rl.admit('key:k', 'postOrder');
  assert.ok(burst.ok && burst.delayMs === 10_000);
  // Keep sending 2400 per 10 s: after 24 000 in 10 minutes the sustained window holds the rest.
  const { rl: rl2, clock: c2 } = limiter();
  for (let s = 0; s < 10; s++) {
    for (let i = 0; i < 2400; i++) rl2.admit('key:k', 'postOrder');
    c2.advance(10_000);
  }
  const sustained = rl2.admit('key:k', 'postOrder');
  assert.ok(sustained.ok);
  assert.equal(sustained.delayMs, 600_000 - 100_000, 'waits until the first slot leaves the 10-minute window');
  assert.match(sustained.policy, /24000;w=600/);
  void clock;
});

test('every class also counts against the general limit of 5000 per 10 s', () => {
  const { rl } = limiter();
  for (let i = 0; i < 5000; i++) rl.admit('ip:x', 'general');
  const book = rl.admit('ip:x', 'book');
  assert.ok(book.ok && book.delayMs === 10_000);
});

test('classify maps the §8 table and leaves the data service and terminal files unlimited', () => {
  assert.equal(classify('GET', '/'), 'health');
  assert.equal(classify('GET', '/book'), 'book');
  assert.equal(classify('POST', '/order'), 'postOrder');
  assert.equal(classify('DELETE', '/order'), 'deleteOrder');
  assert.equal(classify('GET', '/markets'), 'general');
  assert.equal(classify('POST', '/relayer/submit'), 'general');
  assert.equal(classify('GET', '/data-api/trades'), null);
  assert.equal(classify('GET', '/app/index.html'), null);
});

test('the hook queues a request, sets the rate-limit headers and answers 429 past the queue bound', async () => {
  const slept: number[] = [];
  const { rl } = limiter(new ManualClock(5_000_000), true, async (ms) => void slept.push(ms));
  const app = Fastify();
  app.addHook('onRequest', rl.hook);
  app.setErrorHandler((err, _req, reply) => {
    const e = err as { status?: number; toBody?: () => unknown; headers?: Record<string, string> };
    if (e.headers) void reply.headers(e.headers);
    void reply.code(e.status ?? 500).send(e.toBody ? e.toBody() : { error: 'x' });
  });
  app.get('/', async () => 'OK');
  const codes: number[] = [];
  let last;
  for (let i = 0; i < 101; i++) {
    last = await app.inject({ method: 'GET', url: '/', headers: { SERVICE_API_KEY: 'k1' } });
    codes.push(last.statusCode);
  }
  assert.equal(codes.filter((c) => c === 200).length, 100);
  assert.equal(codes[100], 429);
  assert.equal(last!.headers['retry-after'], '10');
  assert.equal(last!.headers['x-ratelimit-remaining'], '0');
  assert.equal(last!.headers['x-ratelimit-reset'], '10', 'a 429 says when a slot frees, like an admitted answer');
  assert.equal((last!.json() as { error: string }).error, 'rate_limited');
  assert.equal(slept.length, 50);
  const first = await app.inject({ method: 'GET', url: '/', headers: { service_api_key: 'k2' } });
  assert.equal(first.headers['x-ratelimit-limit'], '50');
  assert.equal(first.headers['x-ratelimit-remaining'], '49');
  assert.equal(first.headers['x-ratelimit-queued-ms'], '0');
  assert.equal(first.headers['x-ratelimit-reset'], '10');
  await app.close();
});

test('a disabled limiter sets no headers and never queues', async () => {
  const { rl } = limiter(new ManualClock(0), false);
  const app = Fastify();
  app.addHook('onRequest', rl.hook);
  app.get('/', async () => 'OK');
  for (let i = 0; i < 60; i++) {
    const r = await app.inject({ method: 'GET', url: '/' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['x-ratelimit-limit'], undefined);
  }
  await app.close();
});

test('stop releases queued requests at once', async () => {
  const { rl } = limiter(new ManualClock(0));
  for (let i = 0; i < 50; i++) rl.admit('ip:127.0.0.1', 'health');
  const app = Fastify();
  app.addHook('onRequest', rl.hook);
  app.get('/', async () => 'OK');
  const pending = app.inject({ method: 'GET', url: '/' });
  await new Promise((r) => setTimeout(r, 20));
  rl.stop();
  const r = await pending;
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['x-ratelimit-queued-ms'], '10000');
  await app.close();
});

test('a made-up API key per request does not escape throttling: unknown keys share the client address bucket', async () => {
  const { rl } = limiter(new ManualClock(5_000_000), true, async () => undefined);
  const app = Fastify();
  app.addHook('onRequest', rl.hook);
  app.setErrorHandler((err, _req, reply) => {
    const e = err as { status?: number; toBody?: () => unknown };
    void reply.code(e.status ?? 500).send(e.toBody ? e.toBody() : { error: 'x' });
  });
  app.get('/', async () => 'OK');
  const codes: number[] = [];
  for (let i = 0; i < 101; i++) codes.push((await app.inject({ method: 'GET', url: '/', headers: { SERVICE_API_KEY: `random-${i}` } })).statusCode);
  assert.equal(codes[100], 429, 'the 101st request with a fresh random key is refused like any other from this address');
  const real = await app.inject({ method: 'GET', url: '/', headers: { SERVICE_API_KEY: 'k9' } });
  assert.equal(real.statusCode, 200, "an issued key still has its own bucket");
  await app.close();
});
