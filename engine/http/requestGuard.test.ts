import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../engine.js';

/** A raw request with exactly the headers given (fetch would not let a test set Host). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; json: { error?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('only this machine and the terminal served by this engine may talk to it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'request-guard-'));
  let engine: Engine;
  let port: number;
  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, simulation: false, port: 0, allowedOrigins: ['http://localhost:5173'] });
    port = Number(new URL((await engine.listen()).trading).port);
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a request naming another host (DNS rebinding) is 421, on GET routes and on POST /order', async () => {
    const get = await send(port, 'GET', '/markets', { host: `evil.example:${port}` });
    assert.equal(get.status, 421);
    assert.equal(get.json.error, 'misdirected_host');
    const post = await send(port, 'POST', '/order', { host: `rebind.evil.example:${port}`, 'content-type': 'application/json' }, '{}');
    assert.equal(post.status, 421);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) assert.equal((await send(port, 'GET', '/markets', { host })).status, 200, host);
  });

  it("a cross-site page's request is 403 before its body is parsed; the engine's own origin and no origin pass", async () => {
    const evil = await send(port, 'POST', '/order', { host: `127.0.0.1:${port}`, origin: 'http://evil.example', 'content-type': 'text/plain' }, '{not json');
    assert.equal(evil.status, 403);
    assert.equal(evil.json.error, 'cross_origin_refused');
    const evilFastify = await send(port, 'POST', '/books', { host: `127.0.0.1:${port}`, origin: 'https://evil.example', 'content-type': 'application/json' }, '{not json');
    assert.equal(evilFastify.status, 403, 'refused before the JSON parser would answer 400');
    for (const origin of ['null', `http://127.0.0.1:${port + 1}`, `http://localhost:${port}.evil.example`]) {
      assert.equal((await send(port, 'GET', '/markets', { host: `127.0.0.1:${port}`, origin })).status, 403, origin);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'http://localhost:5173']) {
      assert.equal((await send(port, 'GET', '/markets', { host: `127.0.0.1:${port}`, origin })).status, 200, origin);
    }
    assert.equal((await send(port, 'GET', '/markets', { host: `127.0.0.1:${port}` })).status, 200, 'no Origin: a bot or a script');
  });

  it('a WebSocket upgrade from a cross-site page is refused; from the terminal it opens', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/market`, { origin: 'http://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    assert.equal(refused, 403);
    const opened = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/market`, { origin: `http://127.0.0.1:${port}` });
      ws.on('open', () => {
        ws.close();
        resolve(true);
      });
      ws.on('error', () => resolve(false));
    });
    assert.equal(opened, true);
  });
});
