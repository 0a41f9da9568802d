import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../services/clock.js';
import { startTestEngine } from '../../testkit/engineKit.js';

// The terminal's status bar shows "rate limit: used/limit" from these headers, so every limited answer,
// errors included, must carry them and they must count this client's use.
describe('rate-limit headers on the real engine', () => {
  let close: () => Promise<void>;
  let app: FastifyInstance;

  before(async () => {
    ({ app, close } = await startTestEngine(new ManualClock(1_800_000_000_000), { rateLimits: true }));
  });
  after(() => close());

  const usage = (h: Record<string, unknown>) => ({
    limit: h['x-ratelimit-limit'],
    remaining: h['x-ratelimit-remaining'],
    reset: h['x-ratelimit-reset'],
    policy: h['x-ratelimit-policy'],
  });

  test('each GET /book answer counts one more request of the 200 / 10 s window', async () => {
    const first = await app.inject({ method: 'GET', url: '/book?token_id=1', remoteAddress: '10.0.0.1' });
    const second = await app.inject({ method: 'GET', url: '/book?token_id=1', remoteAddress: '10.0.0.1' });
    assert.deepEqual(usage(first.headers), { limit: '200', remaining: '199', reset: '10', policy: '200;w=10, 5000;w=10' });
    assert.equal(usage(second.headers).remaining, '198');
  });

  test('refused answers (400 bad query, 401 no credentials, 404 unknown route) carry the headers too', async () => {
    const answers = [
      await app.inject({ method: 'GET', url: '/book', remoteAddress: '10.0.0.2' }),
      await app.inject({ method: 'POST', url: '/order', payload: {}, remoteAddress: '10.0.0.2' }),
      await app.inject({ method: 'GET', url: '/no-such-route', remoteAddress: '10.0.0.2' }),
    ];
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      [400, 401, 404],
    );
    for (const r of answers) {
      assert.match(String(r.headers['x-ratelimit-limit']), /^\d+$/, `${r.statusCode} has X-RateLimit-Limit`);
      assert.match(String(r.headers['x-ratelimit-remaining']), /^\d+$/, `${r.statusCode} has X-RateLimit-Remaining`);
      assert.match(String(r.headers['x-ratelimit-reset']), /^\d+$/, `${r.statusCode} has X-RateLimit-Reset`);
    }
    // All three count in this client's general window: 5000 minus the three requests.
    assert.equal(answers[2]!.headers['x-ratelimit-remaining'], '4997');
  });

  test('clients are counted apart: another address starts with a full window', async () => {
    const r = await app.inject({ method: 'GET', url: '/book?token_id=1', remoteAddress: '10.0.0.3' });
    assert.equal(r.headers['x-ratelimit-remaining'], '199');
  });

  test('the data service is not limited and sends no rate-limit headers', async () => {
    const r = await app.inject({ method: 'GET', url: '/data-api/activity?user=0x0000000000000000000000000000000000000001', remoteAddress: '10.0.0.4' });
    assert.equal(r.headers['x-ratelimit-limit'], undefined);
  });
});
