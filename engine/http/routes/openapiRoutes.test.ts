import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../services/clock.js';
import { startTestEngine } from '../../testkit/engineKit.js';

describe('GET /openapi.json', () => {
  let close: () => Promise<void>;
  let app: FastifyInstance;

  before(async () => {
    ({ app, close } = await startTestEngine(new ManualClock(1_800_000_000_000), { rateLimits: true }));
  });
  after(() => close());

  test('documents every route, with and without schemas, under full paths', async () => {
    const r = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(r.statusCode, 200);
    const doc = r.json() as { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; requestBody?: unknown }>>; 'x-services': unknown };
    assert.match(doc.openapi, /^3\./);
    assert.deepEqual(doc.servers.map((s) => s.url), ['/']);
    assert.deepEqual(doc['x-services'], { trading: '/', relayer: '/relayer', data: '/data-api' });
    for (const p of ['/', '/time', '/book', '/books', '/price', '/markets', '/markets/{condition_id}', '/admin/markets', '/admin/markets/{conditionId}/resolve', '/admin/faucet', '/config']) {
      assert.ok(doc.paths[p], `missing ${p}`);
    }
    // Routes without a schema appear too; the two services' /trades do not collide.
    assert.ok(doc.paths['/relayer/nonce']?.get);
    assert.ok(doc.paths['/data-api/trades']?.get);
    assert.ok(doc.paths['/trades']?.get);
    assert.equal(doc.paths['/openapi.json'], undefined);
    assert.deepEqual(doc.paths['/book']!.get!.parameters!.map((p) => p.name), ['token_id']);
    assert.ok(doc.paths['/admin/markets']!.post!.requestBody);
  });

  test('answers carry the rate-limit headers when limits are on', async () => {
    const r = await app.inject({ method: 'GET', url: '/time' });
    assert.equal(r.headers['x-ratelimit-limit'], '5000');
    assert.equal(r.headers['x-ratelimit-queued-ms'], '0');
    const book = await app.inject({ method: 'GET', url: '/book?token_id=1' });
    assert.equal(book.headers['x-ratelimit-limit'], '200');
    assert.equal(book.headers['x-ratelimit-policy'], '200;w=10, 5000;w=10');
  });
});
