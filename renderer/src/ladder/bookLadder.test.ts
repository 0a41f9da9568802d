import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bookLadder } from './bookLadder.js';

// Wire order: bids ascending, asks descending — the best price of each side is the last element.
const book = {
  bids: [
    { price: '0.48', size: '300' },
    { price: '0.49', size: '200' },
    { price: '0.5', size: '100' },
  ],
  asks: [
    { price: '0.55', size: '50' },
    { price: '0.53', size: '25' },
    { price: '0.52', size: '10' },
  ],
};

test('the best bid and best ask are read from the end of the wire arrays', () => {
  const l = bookLadder(book);
  assert.equal(l.bestBid, '0.5');
  assert.equal(l.bestAsk, '0.52');
  assert.equal(l.spread, '0.02');
  assert.equal(l.mid, '0.51');
});

test('asks show highest first with the best ask next to the spread; bids show best first', () => {
  const l = bookLadder(book);
  assert.deepEqual(l.asks.map((r) => r.price), ['0.55', '0.53', '0.52']);
  assert.deepEqual(l.bids.map((r) => r.price), ['0.5', '0.49', '0.48']);
});

test('depth accumulates outward from the spread and bars scale to the deeper side', () => {
  const l = bookLadder(book);
  assert.deepEqual(l.bids.map((r) => r.cumulative), ['100', '300', '600']);
  assert.deepEqual(l.asks.map((r) => r.cumulative), ['85', '35', '10']);
  assert.equal(l.bids[2]!.depthPct, 100);
  assert.equal(l.asks[0]!.depthPct, 14.16);
});

test('an empty or one-sided book has no spread or midpoint', () => {
  assert.deepEqual(bookLadder({ bids: [], asks: [] }), { asks: [], bids: [] });
  const oneSided = bookLadder({ bids: [{ price: '0.3', size: '5' }], asks: [] });
  assert.equal(oneSided.bestBid, '0.3');
  assert.equal(oneSided.spread, undefined);
});

test('only the levels nearest the spread are kept', () => {
  const l = bookLadder(book, 2);
  assert.deepEqual(l.asks.map((r) => r.price), ['0.53', '0.52']);
  assert.deepEqual(l.bids.map((r) => r.price), ['0.5', '0.49']);
});
