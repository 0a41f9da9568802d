import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUnits } from '../../protocol/amounts.js';
import { formatMicros } from './formatMicros.js';

test('formatMicros writes micro-units as decimals without trailing zeros', () => {
  assert.equal(formatMicros(0), '0');
  assert.equal(formatMicros(520_000), '0.52');
  assert.equal(formatMicros(1), '0.000001');
  assert.equal(formatMicros(10_000_000), '10');
  assert.equal(formatMicros(12_345_600), '12.3456');
  assert.equal(formatMicros(Number.MAX_SAFE_INTEGER), formatUnits(BigInt(Number.MAX_SAFE_INTEGER)));
});

test('formatMicros agrees with the bigint formatter on many values', () => {
  for (let n = 0; n < 3_000_000; n += 997) assert.equal(formatMicros(n), formatUnits(BigInt(n)));
});
