import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Market } from '../api/types.js';
import { bestFillableAsk, candidateMarkets, planFirstOrder } from './firstOrder.js';

const market = (id: string, over: Partial<Market> = {}) =>
  ({ condition_id: id, active: true, closed: false, accepting_orders: true, minimum_order_size: 5, tokens: [{ token_id: `${id}-yes`, outcome: 'Yes' }, { token_id: `${id}-no`, outcome: 'No' }], ...over }) as unknown as Market;

test('the cheapest ask that can fill the minimum size is chosen, whatever order the book lists asks in', () => {
  const asks = [
    { price: '0.7', size: '100' },
    { price: '0.55', size: '3' },
    { price: '0.6', size: '5' },
  ];
  assert.deepEqual(bestFillableAsk({ asks }, 5), { price: '0.6', size: '5' });
  assert.equal(bestFillableAsk({ asks: [] }, 5), undefined);
  assert.equal(bestFillableAsk({ asks: [{ price: '0.5', size: '4.99' }] }, 5), undefined);
});

test('closed, paused and inactive markets are never candidates; the selected market comes first', () => {
  const ms = [market('a'), market('b', { closed: true }), market('c', { accepting_orders: false }), market('d')];
  assert.deepEqual(candidateMarkets(ms, 'd').map((m) => m.condition_id), ['d', 'a']);
});

test('the plan walks both outcomes of each market until a book can fill the first order', async () => {
  const books: Record<string, Array<{ price: string; size: string }>> = { 'a-yes': [], 'a-no': [], 'd-yes': [], 'd-no': [{ price: '0.42', size: '50' }] };
  const plan = await planFirstOrder([market('a'), market('d')], undefined, async (t) => ({ asks: books[t] ?? [] }));
  assert.equal(plan?.tokenId, 'd-no');
  assert.equal(plan?.outcome, 'No');
  assert.equal(plan?.price, '0.42');
  assert.equal(plan?.size, '5');
  assert.equal(await planFirstOrder([market('a')], undefined, async () => ({ asks: [] })), undefined);
});
