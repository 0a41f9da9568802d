import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../engineContext.js';
import { resolveConfig } from '../../config.js';
import { rendererDistDir, rendererRoutes, terminalCsp } from './rendererRoutes.js';

function makeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'renderer-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  return dir;
}

async function appWith(distDir: string, serveRenderer = true): Promise<FastifyInstance> {
  const app = Fastify();
  // Same rendering as http/app.ts, so the assertions see the engine's real error bodies.
  app.setErrorHandler((err, _req, reply) => {
    if (isApiError(err)) return reply.code(err.status).send(err.toBody());
    return reply.code(500).send({ error: 'internal_error' });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'not_found', message: 'no route' }));
  const ctx = { config: resolveConfig({ serveRenderer, dataDir: distDir }) } as EngineContext;
  await rendererRoutes(app, ctx, { distDir });
  return app;
}

test('index.html is served at /app/ as html that always revalidates', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  const r = await app.inject({ method: 'GET', url: '/app/' });
  assert.equal(r.statusCode, 200);
  assert.match(String(r.headers['content-type']), /^text\/html/);
  assert.equal(r.headers['cache-control'], 'no-cache');
  assert.match(r.body, /id="root"/);
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('fingerprinted assets are served with their content type and cached forever', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  const js = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.js' });
  assert.equal(js.statusCode, 200);
  assert.match(String(js.headers['content-type']), /^text\/javascript/);
  assert.match(String(js.headers['cache-control']), /immutable/);
  assert.equal(js.body, 'console.log(1)');
  const css = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.css' });
  assert.match(String(css.headers['content-type']), /^text\/css/);
  const svg = await app.inject({ method: 'GET', url: '/app/favicon.svg' });
  assert.equal(svg.headers['content-type'], 'image/svg+xml');
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('client routes without an extension fall back to index.html', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  const r = await app.inject({ method: 'GET', url: '/app/markets/0xabc' });
  assert.equal(r.statusCode, 200);
  assert.match(r.body, /id="root"/);
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('a missing asset is a JSON 404 naming the path, not index.html', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  const r = await app.inject({ method: 'GET', url: '/app/assets/missing.js' });
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().error, 'not_found');
  assert.match(r.json().message, /assets\/missing\.js/);
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('path traversal out of the build directory is refused', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  for (const url of ['/app/..%2f..%2fetc%2fpasswd', '/app/%2e%2e/%2e%2e/etc/passwd.txt']) {
    const r = await app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 404, url);
    assert.equal(r.json().error, 'not_found');
  }
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('GET /app redirects to /app/ keeping the query string', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  const r = await app.inject({ method: 'GET', url: '/app?x=1' });
  assert.equal(r.statusCode, 302);
  assert.equal(r.headers.location, '/app/?x=1');
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('without a build the terminal answers a JSON 404 telling to run build:renderer', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'renderer-empty-'));
  const app = await appWith(empty);
  const r = await app.inject({ method: 'GET', url: '/app/' });
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().error, 'renderer_not_built');
  assert.match(r.json().message, /npm run build:renderer/);
  await app.close();
  rmSync(empty, { recursive: true, force: true });
});

test('paths outside /app are not served by the terminal routes', async () => {
  const dist = makeDist();
  const app = await appWith(dist);
  const r = await app.inject({ method: 'GET', url: '/index.html' });
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().error, 'not_found');
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('serveRenderer false registers nothing', async () => {
  const dist = makeDist();
  const app = await appWith(dist, false);
  const r = await app.inject({ method: 'GET', url: '/app/' });
  assert.equal(r.statusCode, 404);
  assert.equal(r.json().error, 'not_found');
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

test('the terminal page carries a strict CSP, cannot be framed and sends no referrer', async () => {
  const app = await appWith(makeDist());
  const r = await app.inject({ method: 'GET', url: '/app/' });
  const csp = String(r.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  assert.equal(r.headers['x-frame-options'], 'DENY');
  assert.equal(r.headers['referrer-policy'], 'no-referrer');
});

test('the build is found at the project root both from the sources and from the compiled engine in dist/', () => {
  const root = mkdtempSync(join(tmpdir(), 'renderer-root-'));
  try {
    mkdirSync(join(root, 'renderer'), { recursive: true });
    writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html>');
    const fromSource = join(root, 'engine', 'http', 'routes', 'rendererRoutes.ts');
    const fromDist = join(root, 'dist', 'engine', 'http', 'routes', 'rendererRoutes.js');
    assert.equal(rendererDistDir(fromSource), join(root, 'renderer', 'dist'));
    assert.equal(rendererDistDir(fromDist), join(root, 'renderer', 'dist'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the CSP names no chain node: connect-src is 'self' only, even when the engine runs a chain", async () => {
  const dist = makeDist();
  const app = Fastify();
  const ctx = { config: resolveConfig({ dataDir: dist }), chain: { enabled: true, rpcUrl: 'http://127.0.0.1:8545/' } } as unknown as EngineContext;
  await rendererRoutes(app, ctx, { distDir: dist });
  const r = await app.inject({ method: 'GET', url: '/app/' });
  assert.match(String(r.headers['content-security-policy']), /connect-src 'self';/);
  assert.match(terminalCsp(), /connect-src 'self';/);
});
