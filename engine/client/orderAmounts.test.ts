import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OrderBuildError } from './clientHttpError.js';
import { fit, formatRational, roundDown, roundNormal, roundUp, toRational } from './exactDecimal.js';
import { calculateMarketPrice, getMarketOrderRawAmounts, getOrderRawAmounts, toTickSize, type TickSize } from './orderAmounts.js';

const units = (x: bigint) => formatRational({ n: x, d: 1_000_000n });

test('the known outputs of trading-api §8 are reproduced exactly', () => {
  const rows: Array<[TickSize, 'limit' | 'market', 'BUY' | 'SELL', string, string, string, string]> = [
    ['0.01', 'limit', 'BUY', '0.52', '10', '5.2', '10'],
    ['0.01', 'limit', 'BUY', '0.56', '21.3333', '11.9448', '21.33'],
    ['0.01', 'limit', 'SELL', '0.57', '12.345', '12.34', '7.0338'],
    ['0.1', 'limit', 'BUY', '0.56', '21.3333', '12.798', '21.33'],
    ['0.01', 'market', 'BUY', '0.53', '25', '25', '47.1698'],
    ['0.01', 'market', 'SELL', '0.56', '25.5', '25.5', '14.28'],
    ['0.001', 'market', 'BUY', '0.56', '25', '25', '44.64285'],
    ['0.0001', 'market', 'BUY', '0.56', '25', '25', '44.642857'],
  ];
  for (const [tick, kind, side, price, size, maker, taker] of rows) {
    const r = kind === 'limit' ? getOrderRawAmounts(side, size, price, tick) : getMarketOrderRawAmounts(side, size, price, tick);
    assert.deepEqual([units(r.makerAmount), units(r.takerAmount)], [maker, taker], `${tick} ${kind} ${side} ${price} ${size}`);
  }
});

test('JS numbers are read through their decimal form, so floats give the same amounts as strings', () => {
  assert.deepEqual(getOrderRawAmounts('BUY', 21.3333, 0.56, '0.01'), getOrderRawAmounts('BUY', '21.3333', '0.56', '0.01'));
  assert.deepEqual(getMarketOrderRawAmounts('BUY', 25, 0.53, '0.01'), getMarketOrderRawAmounts('BUY', '25', '0.53', '0.01'));
  const r = getOrderRawAmounts('BUY', 10, 0.52, '0.01');
  assert.equal(r.makerAmount, 5_200_000n);
  assert.equal(r.takerAmount, 10_000_000n);
});

test('the rounding helpers are half-up, floor and ceiling, and fit rounds up at amount+4 then down', () => {
  const q = (s: string) => toRational(s);
  assert.equal(formatRational(roundNormal(q('0.565'), 2)), '0.57');
  assert.equal(formatRational(roundNormal(q('0.564999'), 2)), '0.56');
  assert.equal(formatRational(roundDown(q('12.349'), 2)), '12.34');
  assert.equal(formatRational(roundUp(q('12.341'), 2)), '12.35');
  assert.equal(formatRational(roundUp(q('12.34'), 2)), '12.34');
  // 1.000099999 → up at 8 dp = 1.0001 → fits 4 dp; 1.00009999 stays → down to 1.0000.
  assert.equal(formatRational(fit(q('1.000099999'), 4)), '1.0001');
  assert.equal(formatRational(fit(q('1.00009999'), 4)), '1');
  assert.equal(formatRational(toRational(1e-7)), '0.0000001');
});

test('prices outside [tick, 1 − tick] and sizes that round to zero are refused before signing', () => {
  assert.throws(() => getOrderRawAmounts('BUY', 10, '0.995', '0.01'), OrderBuildError);
  assert.throws(() => getOrderRawAmounts('BUY', 10, '0.001', '0.01'), /invalid price \(0.001\), min: 0.01 - max: 0.99/);
  assert.throws(() => getOrderRawAmounts('SELL', '0.004', '0.5', '0.01'), OrderBuildError);
  assert.throws(() => getOrderRawAmounts('SELL', 'ten', '0.5', '0.01'), OrderBuildError);
  assert.throws(() => toTickSize('0.05'), OrderBuildError);
  assert.equal(toTickSize(0.01), '0.01');
  assert.equal(toTickSize('0.0010'), '0.001');
});

test('the market price walks the book from its end (best level) and FOK refuses short depth', () => {
  const asks = [
    { price: '0.6', size: '100' },
    { price: '0.55', size: '10' },
    { price: '0.52', size: '10' },
  ];
  assert.equal(calculateMarketPrice(asks, 'BUY', '5'), '0.52');
  assert.equal(calculateMarketPrice(asks, 'BUY', '10'), '0.55');
  assert.equal(calculateMarketPrice(asks, 'BUY', '70'), '0.6');
  assert.throws(() => calculateMarketPrice(asks, 'BUY', '1000'), /no match/);
  assert.equal(calculateMarketPrice(asks, 'BUY', '1000', 'FAK'), '0.6');
  const bids = [
    { price: '0.4', size: '100' },
    { price: '0.45', size: '10' },
  ];
  assert.equal(calculateMarketPrice(bids, 'SELL', '10'), '0.45');
  assert.equal(calculateMarketPrice(bids, 'SELL', '11'), '0.4');
});
