import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currentRateUse, readRateHeaders } from './rateLimitUse.js';

const h = (o: Record<string, string>) => new Headers(o);

test('a limited answer becomes a reading of its tightest window, with the window length from the policy', () => {
  const r = readRateHeaders(h({ 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '150', 'x-ratelimit-policy': '200;w=10, 5000;w=10' }), 1000);
  assert.deepEqual(r, { limit: 200, remaining: 150, windowSec: 10, policy: '200;w=10, 5000;w=10', atMs: 1000 });
  const sustained = readRateHeaders(h({ 'x-ratelimit-limit': '24000', 'x-ratelimit-remaining': '5', 'x-ratelimit-policy': '2400;w=10, 24000;w=600, 5000;w=10' }), 0);
  assert.equal(sustained?.windowSec, 600);
});

test('an answer without rate-limit headers is no reading', () => {
  assert.equal(readRateHeaders(h({}), 0), undefined);
  assert.equal(readRateHeaders(h({ 'x-ratelimit-limit': 'x', 'x-ratelimit-remaining': '1' }), 0), undefined);
});

test('the shown use is the class closest to its limit, and warns above 80 %', () => {
  const book = readRateHeaders(h({ 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '30', 'x-ratelimit-policy': '200;w=10, 5000;w=10' }), 0)!;
  const general = readRateHeaders(h({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4990', 'x-ratelimit-policy': '5000;w=10' }), 0)!;
  assert.deepEqual(currentRateUse([general, book], 1000), { used: 170, limit: 200, share: 0.85, warn: true });
  const calm = readRateHeaders(h({ 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '40', 'x-ratelimit-policy': '200;w=10' }), 0)!;
  assert.equal(currentRateUse([calm], 0)?.warn, false, 'exactly 80 % is not yet a warning');
});

test('a reading older than its window no longer counts', () => {
  const book = readRateHeaders(h({ 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '0', 'x-ratelimit-policy': '200;w=10' }), 0)!;
  const general = readRateHeaders(h({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4000', 'x-ratelimit-policy': '5000;w=10' }), 9_000)!;
  assert.equal(currentRateUse([book, general], 10_000)?.limit, 200);
  assert.deepEqual(currentRateUse([book, general], 10_001), { used: 1000, limit: 5000, share: 0.2, warn: false });
  assert.equal(currentRateUse([book], 10_001), undefined);
});
