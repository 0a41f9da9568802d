import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../engine.js';
import { ERRORS } from '../protocol/errors.js';
import { Wire } from './wireClient.js';

const HEAD_MS = 300;
const BODY_MS = 600;

/** A raw connection that records everything received and when it closed. */
function open(port: number): Promise<{ socket: Socket; text: () => string; closed: Promise<number> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, text: () => text, closed }));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => {});
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now())));
  });
}

/** The time a connection closed, or a failure if it is still open after `ms` (no deadline applied). */
const closedWithin = (c: { closed: Promise<number>; text: () => string }, ms = 3000) =>
  Promise.race([c.closed, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`still open after ${ms} ms; received: ${JSON.stringify(c.text())}`)), ms))]);

async function engineWith(dir: string, opts: Parameters<typeof createEngine>[1]): Promise<{ engine: Engine; port: number }> {
  const engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, simulation: false, port: 0 }, opts);
  return { engine, port: Number(new URL((await engine.listen()).trading).port) };
}

/**
 * The engine's one listener (fastify's server) against slow clients, on every request of a keep-alive
 * connection: the head within its deadline of the first byte, the whole request within head + body
 * deadline, else a 408 with the error registry's body and the connection closed. Real engine, real
 * sockets, deadlines shortened to run fast.
 */
describe('request deadlines and keep-alive on the listener', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-limits-'));
  let engine: Engine;
  let port: number;
  let tokens: string[];

  before(async () => {
    ({ engine, port } = await engineWith(dir, { requestDeadlines: { headTimeoutMs: HEAD_MS, bodyTimeoutMs: BODY_MS } }));
    tokens = (await engine.ctx.markets.create({ question: 'Slow?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false })).tokenIds;
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string) => `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`;
  const until = async (cond: () => boolean, ms = 3000, last?: () => string) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timed out waiting; received: ${JSON.stringify(last?.())}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const responses = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];
  /** Writes a request head's first lines, then a header line every 50 ms; milliseconds until the server closed. */
  const trickleHead = async (c: Awaited<ReturnType<typeof open>>, start: string): Promise<number> => {
    const t0 = Date.now();
    c.socket.write(start);
    const trickle = setInterval(() => !c.socket.destroyed && c.socket.write('x-slow: 1\r\n'), 50);
    const closedAt = await closedWithin(c).finally(() => {
      clearInterval(trickle);
      c.socket.destroy();
    });
    return closedAt - t0;
  };
  const timeoutBody = JSON.stringify({ error: 'request_timeout', message: ERRORS.request_timeout.message });

  it('a client trickling its first request head is answered 408 with the request_timeout body and cut off at the head deadline', async () => {
    const c = await open(port);
    const took = await trickleHead(c, `POST /order HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
    assert.match(c.text(), /^HTTP\/1\.1 408 /, c.text());
    assert.ok(c.text().endsWith(`\r\n\r\n${timeoutBody}`), c.text());
    assert.ok(took >= HEAD_MS - 20 && took < HEAD_MS + 700, `closed after ${took} ms`);
  });

  it('a connection that never sends a byte is closed at the head deadline', async () => {
    const c = await open(port);
    const t0 = Date.now();
    const closedAt = await closedWithin(c).finally(() => c.socket.destroy());
    const took = closedAt - t0;
    assert.ok(took >= HEAD_MS - 20 && took < HEAD_MS + 700, `closed after ${took} ms`);
  });

  it('a second request head trickled on a keep-alive connection is answered 408 and closed at the head deadline', async () => {
    const c = await open(port);
    c.socket.write(get('/time'));
    await until(() => responses(c.text()).length === 1, 3000, c.text);
    assert.match(c.text(), /^HTTP\/1\.1 200 /);
    assert.match(c.text(), /connection: keep-alive/i);
    const took = await trickleHead(c, `GET /time HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
    const second = c.text().slice(c.text().indexOf('HTTP/1.1', 10));
    assert.match(second, /^HTTP\/1\.1 408 /, c.text());
    assert.match(second, /"error":"request_timeout"/);
    assert.ok(took >= HEAD_MS - 20, `closed after ${took} ms, before the head deadline`);
    assert.ok(took < HEAD_MS + 700, `closed after ${took} ms`);
  });

  for (const path of ['/order', '/books']) {
    it(`a body that stops arriving (POST ${path}) is cut off at head + body deadline`, async () => {
      const c = await open(port);
      const t0 = Date.now();
      c.socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n[{"tok`);
      const closedAt = await closedWithin(c).finally(() => c.socket.destroy());
      assert.match(c.text(), /^HTTP\/1\.1 408 /, c.text());
      assert.ok(c.text().endsWith(timeoutBody), c.text());
      const took = closedAt - t0;
      assert.ok(took >= HEAD_MS + BODY_MS - 20 && took < HEAD_MS + BODY_MS + 700, `closed after ${took} ms`);
    });
  }

  it('a slow body within the deadline, after a first request, is still served on the same connection', async () => {
    const c = await open(port);
    c.socket.write(get('/ok'));
    await until(() => responses(c.text()).length === 1, 3000, c.text);
    const body = JSON.stringify(tokens.map((token_id) => ({ token_id })));
    c.socket.write(`POST /books HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    // Longer than the head deadline, shorter than head + body: a slow body is not a slow head.
    const pieces = 10;
    const step = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces; i++) {
      await new Promise((r) => setTimeout(r, (HEAD_MS + BODY_MS) / 2 / pieces));
      c.socket.write(body.slice(i * step, (i + 1) * step));
    }
    await until(() => responses(c.text()).length === 2, 3000, c.text);
    assert.deepEqual(responses(c.text()), ['HTTP/1.1 200', 'HTTP/1.1 200'], c.text());
    assert.equal(c.socket.destroyed, false, 'the connection stays open');
    c.socket.destroy();
  });

  it('a WebSocket stream outlives the request deadlines: they apply to HTTP requests, not upgraded connections', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/market`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    let closed = false;
    ws.once('close', () => (closed = true));
    await new Promise((r) => setTimeout(r, HEAD_MS + BODY_MS + 300));
    assert.equal(closed, false, 'the stream is still open past head + body deadline');
    const pong = new Promise<string>((r) => ws.once('message', (d: Buffer) => r(d.toString())));
    ws.send('PING');
    assert.equal(await pong, 'PONG');
    ws.close();
  });

  const lookup = (i: number, extra = '') => {
    const body = JSON.stringify([{ orderId: `id-${i}` }]);
    return `POST /data/orders/lookup HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  it('answers 150 pipelined requests in order, sent split across packets, on one kept-alive connection', async () => {
    const w = await Wire.open(port);
    const all = Array.from({ length: 150 }, (_, i) => lookup(i)).join('');
    w.write(all.slice(0, 37));
    await new Promise((r) => setTimeout(r, 20));
    w.write(all.slice(37));
    const rs = await w.responses(150);
    assert.deepEqual(
      rs.map((r) => (JSON.parse(r.body) as Array<{ order_id: string }>)[0]!.order_id),
      Array.from({ length: 150 }, (_, i) => `id-${i}`),
    );
    assert.ok(rs.every((r) => r.status === 207 && r.headers.connection === 'keep-alive'));
    w.close();
  });

  it('closes the connection after answering a request with Connection: close', async () => {
    const w = await Wire.open(port);
    w.write(lookup(1, 'connection: close\r\n'));
    const [r] = await w.responses(1);
    assert.equal(r!.status, 207);
    assert.equal(r!.headers.connection, 'close');
    await w.closed();
  });

  it('a body over the limit is a 413 with the error registry body, before the body is read whole', async () => {
    const w = await Wire.open(port);
    w.write(`POST /order HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${2 * 1024 * 1024}\r\n\r\n{"order":`);
    const [r] = await w.responses(1);
    assert.equal(r!.status, 413);
    assert.equal((JSON.parse(r!.body) as { error: string }).error, 'payload_too_large');
    w.close();
  });

  it('a 1 MiB body sent in 256-byte segments costs a few ms of server work, not a copy per segment', async () => {
    const body = 'x'.repeat(1024 * 1024);
    const w = await Wire.open(port);
    const cpu0 = process.cpuUsage();
    w.write(`POST /books HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    for (let i = 0; i < body.length; i += 256) w.write(body.slice(i, i + 256));
    const [r] = await w.responses(1);
    const cpu = process.cpuUsage(cpu0);
    w.close();
    assert.equal(r!.status, 400);
    assert.equal((JSON.parse(r!.body) as { error: string }).error, 'invalid_json');
    // Joining per segment copied ~2 GB (3.2 s of CPU measured on the old hand-written front).
    assert.ok((cpu.user + cpu.system) / 1000 < 1500, `${(cpu.user + cpu.system) / 1000} ms of CPU (client and server in this process)`);
  });
});

describe('connection cap on the listener', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-cap-'));
  let engine: Engine;
  let port: number;
  before(async () => {
    ({ engine, port } = await engineWith(dir, { maxConnections: 5 }));
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connections past the cap are closed at once without an answer; the ones inside it are served, WebSockets counted', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/market`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    await new Promise((r) => setTimeout(r, 50));
    const extra = await open(port);
    await closedWithin(extra, 2000);
    assert.equal(extra.text(), '', 'refused without an answer');
    held[0]!.socket.write(`GET /time HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 200));
    assert.match(held[0]!.text(), /^HTTP\/1\.1 200 /, 'a connection inside the cap is served');
    held.forEach((c) => c.socket.destroy());
    ws.close();
    await new Promise((r) => setTimeout(r, 100));
    const after = await open(port);
    after.socket.write(`GET /time HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 200));
    assert.match(after.text(), /^HTTP\/1\.1 200 /, 'once the held ones close, a new connection is served');
    after.socket.destroy();
  });
});
