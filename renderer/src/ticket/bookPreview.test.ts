import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fatFingerWarnings, previewAgainstBook, startingPrice } from './bookPreview.js';

// Wire order: asks descending (best last), bids ascending (best last).
const asks = [
  { price: '0.45', size: '1000' },
  { price: '0.4', size: '300' },
  { price: '0.38', size: '150' },
];
const bids = [
  { price: '0.3', size: '500' },
  { price: '0.35', size: '200' },
];

test('a marketable FAK previews what the book would fill, not limit × size', () => {
  const p = previewAgainstBook({ side: 'BUY', asks, bids, limit: '0.40', size: '1000' })!;
  assert.equal(p.filled, '450');
  assert.equal(p.matchedNotional, '177');
  assert.equal(p.rest, '550');
  assert.equal(p.worstPrice, '0.4');
  assert.equal(p.averagePrice, '0.393333');
  assert.equal(p.priceImpact, '0.02');
  assert.equal(p.payoutIfRight, '1000');
});

test('a FAK costs only what fills at once: the rest is killed', () => {
  const p = previewAgainstBook({ side: 'BUY', asks, bids, limit: '0.40', size: '1000', immediateOnly: true })!;
  assert.equal(p.cost, '177');
  assert.equal(p.rest, '550');
  assert.equal(p.payoutIfRight, '450');
});

test('a market buy by dollars stops when the budget is spent', () => {
  const p = previewAgainstBook({ side: 'BUY', asks, bids, amount: '97' })!;
  // 150 @0.38 = 57, then 100 @0.40 = 40.
  assert.equal(p.filled, '250');
  assert.equal(p.matchedNotional, '97');
  assert.equal(p.maxLoss, '97');
});

test('a market buy by dollars buys whole cents of a share and no dust at deeper levels', () => {
  const book = [
    { price: '0.51', size: '500' },
    { price: '0.36', size: '80' },
  ];
  const p = previewAgainstBook({ side: 'BUY', asks: book, bids: [], amount: '20' })!;
  assert.equal(p.filled, '55.55');
  assert.equal(p.worstPrice, '0.36');
});

test('a sell walks the bids from the best down and its max loss is 1 − price per share', () => {
  const p = previewAgainstBook({ side: 'SELL', asks, bids, size: '300' })!;
  assert.equal(p.filled, '300');
  assert.equal(p.matchedNotional, '100');
  assert.equal(p.maxLoss, '200');
  assert.equal(p.payoutIfRight, undefined);
});

test('a resting limit away from the book fills nothing and costs limit × size', () => {
  const p = previewAgainstBook({ side: 'BUY', asks, bids, limit: '0.2', size: '10' })!;
  assert.equal(p.filled, '0');
  assert.equal(p.cost, '2');
  assert.equal(p.averagePrice, undefined);
});

test('the taker fee follows the market’s schedule per level: shares × rate × p(1 − p), half-up to 5 decimals', () => {
  const schedule = (rate: string) => ({ rate, exponent: 1, takerOnly: true, rebateRate: '0' });
  // 100 × 0.01 × (0.38 × 0.62)
  assert.equal(previewAgainstBook({ side: 'BUY', asks, bids, size: '100', feeSchedule: schedule('0.01') })!.fee, '0.2356');
  // 150 × 0.072 × 0.2356 + 50 × 0.072 × 0.24 = 2.54448 + 0.864
  assert.equal(previewAgainstBook({ side: 'BUY', asks, bids, size: '200', feeSchedule: schedule('0.072') })!.fee, '3.40848');
  // 1 × 0.03 × 0.2356 = 0.007068 → 0.00707
  assert.equal(previewAgainstBook({ side: 'BUY', asks, bids, size: '1', feeSchedule: schedule('0.03') })!.fee, '0.00707');
  assert.equal(previewAgainstBook({ side: 'BUY', asks, bids, size: '100' })!.fee, '0');
});

test('↑ in an empty price starts at the best price the order would take, else the mid', () => {
  assert.equal(startingPrice('BUY', '0.35', '0.38'), '0.38');
  assert.equal(startingPrice('SELL', '0.35', '0.38'), '0.35');
  assert.equal(startingPrice('BUY', '0.35', undefined), '0.35');
  assert.equal(startingPrice('BUY', undefined, undefined), '0.5');
});

test('fat-finger warnings fire for a price far from the mid and for a large share of the balance', () => {
  assert.equal(fatFingerWarnings({ price: '0.9', mid: '0.5' }).length, 1);
  assert.equal(fatFingerWarnings({ price: '0.55', mid: '0.5' }).length, 0);
  assert.match(fatFingerWarnings({ cost: '6000', balance: '10000' })[0]!, /60%/);
  assert.equal(fatFingerWarnings({ cost: '100', balance: '10000' }).length, 0);
});
