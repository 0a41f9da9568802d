import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../engine.js';

const HEAD_MS = 300;
const BODY_MS = 600;

/**
 * Connections the lean front hands to fastify (every route but POST /order) keep the head and body
 * deadlines for their later requests: fastify's server never listens, so Node's own checks only apply
 * because requestDeadlines.ts starts them. Real engine, real sockets, deadlines shortened to run fast.
 */
describe('deadlines on keep-alive connections served by fastify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'request-deadlines-'));
  let engine: Engine;
  let port: number;
  let tokens: string[];

  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, simulation: false, port: 0 }, { requestDeadlines: { headTimeoutMs: HEAD_MS, bodyTimeoutMs: BODY_MS } });
    port = Number(new URL((await engine.listen()).trading).port);
    tokens = (await engine.ctx.markets.create({ question: 'Slow?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false })).tokenIds;
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A raw connection that records everything received and when it closed. */
  function open(): Promise<{ socket: Socket; text: () => string; closed: Promise<number> }> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve({ socket, text: () => text, closed }));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (text += d));
      socket.on('error', () => {});
      const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now())));
    });
  }
  const get = (path: string) => `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`;
  const until = async (cond: () => boolean, ms = 3000, last?: () => string) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timed out waiting; received: ${JSON.stringify(last?.())}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  /** The time a connection closed, or a failure if it is still open after `ms` (no deadline applied). */
  const closedWithin = (c: { closed: Promise<number>; text: () => string }, ms = 3000) =>
    Promise.race([c.closed, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`still open after ${ms} ms; received: ${JSON.stringify(c.text())}`)), ms))]);
  const responses = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

  it('a second request head trickled on a keep-alive connection is answered 408 and closed at the head deadline', async () => {
    const c = await open();
    c.socket.write(get('/time'));
    await until(() => responses(c.text()).length === 1, 3000, c.text);
    assert.match(c.text(), /^HTTP\/1\.1 200 /, 'the first request is served by fastify');
    assert.match(c.text(), /connection: keep-alive/i);
    const t0 = Date.now();
    c.socket.write(`GET /time HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
    const trickle = setInterval(() => !c.socket.destroyed && c.socket.write('x-slow: 1\r\n'), 50);
    const closedAt = await closedWithin(c).finally(() => {
      clearInterval(trickle);
      c.socket.destroy();
    });
    const second = c.text().slice(c.text().indexOf('HTTP/1.1', 10));
    assert.match(second, /^HTTP\/1\.1 408 /, c.text());
    assert.match(second, /"error":"request_timeout"/);
    const took = closedAt - t0;
    assert.ok(took >= HEAD_MS - 20, `closed after ${took} ms, before the head deadline`);
    assert.ok(took < HEAD_MS + 700, `closed after ${took} ms`);
  });

  it('a body that stops arriving on a connection handed to fastify is cut off at head + body deadline', async () => {
    const c = await open();
    const t0 = Date.now();
    c.socket.write(`POST /books HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n[{"tok`);
    const closedAt = await closedWithin(c).finally(() => c.socket.destroy());
    assert.match(c.text(), /^HTTP\/1\.1 408 /, c.text());
    const took = closedAt - t0;
    assert.ok(took >= HEAD_MS + BODY_MS - 20 && took < HEAD_MS + BODY_MS + 700, `closed after ${took} ms`);
  });

  it('a slow body within the deadline, after a first request, is still served on the same connection', async () => {
    const c = await open();
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
});
