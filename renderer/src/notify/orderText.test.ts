import { test } from 'node:test';
import assert from 'node:assert/strict';
import { averageFill, fillsOfOrder, fillText, orderText } from './orderText.js';

test('a cancelled order is named by side, size, outcome, price at the tick and market', () => {
  assert.equal(orderText({ side: 'BUY', size: '5', outcome: 'Yes', price: '0.3', question: 'Will it rain?', tick: '0.01' }), 'BUY 5.00 Yes @ 0.30 · Will it rain?');
  assert.equal(orderText({ side: 'SELL', size: '12.5', outcome: 'No', price: '0.123', tick: '0.001' }), 'SELL 12.50 No @ 0.123');
});

test('a fill reads its size and average price', () => {
  assert.equal(fillText({ side: 'BUY', size: '10', outcome: 'No', price: '0.6', question: 'Q' }), 'BUY 10.00 No @ avg 0.60 · Q');
});

test('the average of several fills is weighted by their sizes, and no fill has none', () => {
  assert.deepEqual(
    averageFill([
      { size: '10', price: '0.5' },
      { size: '30', price: '0.6' },
    ]),
    { size: '40', price: '0.575' },
  );
  assert.equal(averageFill([]), undefined);
});

test('an order’s fills are found as the taker and as a resting maker', () => {
  const trades = [
    { taker_order_id: 'mine', size: '4', price: '0.6', maker_orders: [{ order_id: 'x', matched_amount: '4', price: '0.4' }] },
    { taker_order_id: 'other', size: '6', price: '0.3', maker_orders: [{ order_id: 'mine', matched_amount: '6', price: '0.7' }] },
    { taker_order_id: 'other', size: '1', price: '0.3', maker_orders: [{ order_id: 'y', matched_amount: '1', price: '0.7' }] },
  ];
  assert.deepEqual(fillsOfOrder(trades, 'mine'), [
    { size: '4', price: '0.6' },
    { size: '6', price: '0.7' },
  ]);
});
