import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gtdExpiration, previewTicket } from './ticketMath.js';

const base = { side: 'BUY' as const, tickSize: '0.01', minOrderSize: '5' };

test('a valid limit BUY previews its exact cost and payout', () => {
  const p = previewTicket({ ...base, price: '0.52', size: '10' });
  assert.equal(p.ok, true);
  assert.equal(p.notional, '5.2');
  assert.equal(p.maxPayout, '10');
});

test('a price off the tick is refused with the tick named', () => {
  const p = previewTicket({ ...base, price: '0.525', size: '10' });
  assert.equal(p.ok, false);
  assert.match(p.priceError!, /multiple of the tick 0\.01/);
});

test('prices outside [tick, 1-tick] are refused', () => {
  assert.match(previewTicket({ ...base, price: '1', size: '10' }).priceError!, /between 0\.01 and 0\.99/);
  assert.match(previewTicket({ ...base, price: '0', size: '10' }).priceError!, /between/);
});

test('sizes below the minimum or with more than 2 decimals are refused', () => {
  assert.match(previewTicket({ ...base, price: '0.5', size: '4' }).sizeError!, /minimum size of this market is 5/);
  assert.match(previewTicket({ ...base, price: '0.5', size: '10.123' }).sizeError!, /at most 2 decimals/);
  assert.match(previewTicket({ ...base, price: '0.5', size: '-1' }).sizeError!, /positive/);
});

test('a SELL previews proceeds and no payout', () => {
  const p = previewTicket({ ...base, side: 'SELL', price: '0.57', size: '12.34' });
  assert.equal(p.notional, '7.0338');
  assert.equal(p.maxPayout, undefined);
});

test('GTD expiration adds the one-minute buffer', () => {
  assert.equal(gtdExpiration(1_000_000_000, 300), 1_000_000 + 300 + 60);
});
