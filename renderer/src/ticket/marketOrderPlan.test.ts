import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getOrderRawAmounts, toTickSize } from '../../../engine/client/orderAmounts.js';
import { formatUnits, ONE } from '../../../engine/protocol/amounts.js';
import { toMicros } from '../format.js';
import { previewAgainstBook, type Level } from './bookPreview.js';
import { marketOrderPlan } from './marketOrderPlan.js';

const m = (s: string) => toMicros(s)!;

test('a $20 market buy with 80 shares at 0.36 signs 55.55 @ 0.36, not the deepest ask (issue 23, item 1)', () => {
  const asks = [
    { price: '0.51', size: '500' },
    { price: '0.43', size: '200' },
    { price: '0.37', size: '100' },
    { price: '0.36', size: '80' },
  ];
  const plan = marketOrderPlan({ side: 'BUY', asks, bids: [], amount: '20', tickSize: '0.01' })!;
  assert.deepEqual(plan, { price: '0.36', size: '55.55', reached: '0.36', maxSpend: '19.998' });
});

test('a market buy that needs two levels signs the second level and a size the amount pays for at it', () => {
  const asks = [
    { price: '0.5', size: '100' },
    { price: '0.3', size: '10' },
  ];
  // 10 @ 0.30 leaves 17 dollars; at a 0.50 limit the amount bounds the size to 40 shares.
  const plan = marketOrderPlan({ side: 'BUY', asks, bids: [], amount: '20', tickSize: '0.01' })!;
  assert.equal(plan.price, '0.5');
  assert.equal(plan.size, '40');
  assert.equal(plan.maxSpend, '20');
});

test('slippage moves the limit by whole ticks and shrinks the size so the amount still bounds the spend', () => {
  const asks = [{ price: '0.36', size: '80' }];
  const plan = marketOrderPlan({ side: 'BUY', asks, bids: [], amount: '20', tickSize: '0.01', slippageTicks: 2 })!;
  assert.equal(plan.price, '0.38');
  assert.equal(plan.reached, '0.36');
  assert.equal(plan.size, '52.63');
});

test('a market sell signs the bid level its size reaches, minus the slippage', () => {
  const bids = [
    { price: '0.3', size: '100' },
    { price: '0.35', size: '20' },
  ];
  assert.equal(marketOrderPlan({ side: 'SELL', bids, asks: [], size: '15', tickSize: '0.01' })!.price, '0.35');
  assert.equal(marketOrderPlan({ side: 'SELL', bids, asks: [], size: '50', tickSize: '0.01' })!.price, '0.3');
  assert.equal(marketOrderPlan({ side: 'SELL', bids, asks: [], size: '50', tickSize: '0.01', slippageTicks: 3 })!.price, '0.27');
});

test('nothing to take or nothing to spend plans no order', () => {
  assert.equal(marketOrderPlan({ side: 'BUY', asks: [], bids: [], amount: '20', tickSize: '0.01' }), undefined);
  assert.equal(marketOrderPlan({ side: 'BUY', asks: [{ price: '0.5', size: '10' }], bids: [], amount: '0.004', tickSize: '0.01' }), undefined);
});

/** Deterministic PRNG (mulberry32) so a failing book can be reproduced from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBook(r: () => number, tick: string): { asks: Level[]; amount: string } {
  const t = m(tick);
  const steps = Number(ONE / t) - 1;
  const prices = new Set<bigint>();
  const n = 1 + Math.floor(r() * 7);
  while (prices.size < n) prices.add(BigInt(1 + Math.floor(r() * steps)) * t);
  // Sizes: whole, 2-decimal and 6-decimal (what market buys leave behind), tiny to large.
  const size = () => {
    const whole = Math.floor(r() ** 3 * 2000);
    const kind = r();
    const frac = kind < 0.4 ? 0 : kind < 0.7 ? Math.floor(r() * 100) * 10_000 : Math.floor(r() * 1_000_000);
    const v = BigInt(whole) * ONE + BigInt(frac);
    return formatUnits(v > 0n ? v : 10_000n);
  };
  const asks = [...prices].sort((a, b) => (a > b ? -1 : 1)).map((p) => ({ price: formatUnits(p), size: size() }));
  const amount = formatUnits(BigInt(Math.floor(r() ** 2 * 800 * 1_000_000)) + 1n);
  return { asks, amount };
}

test('over 3,000 random books a market buy never signs more than its amount, and its limit is the worst level it reaches', () => {
  for (let seed = 1; seed <= 3000; seed++) {
    const r = rng(seed);
    const tick = (['0.1', '0.01', '0.001', '0.0001'] as const)[seed % 4]!;
    const { asks, amount } = randomBook(r, tick);
    const where = `seed ${seed}: $${amount} against ${JSON.stringify(asks)} (tick ${tick})`;
    const plan = marketOrderPlan({ side: 'BUY', asks, bids: [], amount, tickSize: tick });
    // Brute force: the most shares any single limit level can buy within the amount.
    let cum = 0n;
    let most = 0n;
    for (const l of [...asks].reverse()) {
      cum += m(l.size);
      const fits = (m(amount) * ONE) / m(l.price);
      const s = (cum < fits ? cum : fits) / 10_000n * 10_000n;
      if (s > most) most = s;
    }
    if (most === 0n) {
      assert.equal(plan, undefined, where);
      continue;
    }
    assert.ok(plan, where);
    const raw = getOrderRawAmounts('BUY', plan.size, plan.price, toTickSize(tick));
    assert.ok(raw.makerAmount <= m(amount), `signs ${formatUnits(raw.makerAmount)} > amount: ${where}`);
    assert.equal(m(plan.size), most, `buys the most the amount allows: ${where}`);
    const fill = previewAgainstBook({ side: 'BUY', asks, bids: [], limit: plan.price, size: plan.size, immediateOnly: true })!;
    assert.equal(fill.worstPrice, plan.price, `the limit is the worst level reached: ${where}`);
    assert.equal(fill.filled, plan.size, `the whole size fills now: ${where}`);
    assert.ok(m(fill.matchedNotional) <= m(amount), where);

    const slipped = marketOrderPlan({ side: 'BUY', asks, bids: [], amount, tickSize: tick, slippageTicks: 3 });
    if (slipped) {
      const rawSlipped = getOrderRawAmounts('BUY', slipped.size, slipped.price, toTickSize(tick));
      assert.ok(rawSlipped.makerAmount <= m(amount), `with slippage signs ${formatUnits(rawSlipped.makerAmount)} > amount: ${where}`);
      const cap = ONE - m(tick);
      const expected = m(slipped.reached) + 3n * m(tick);
      assert.equal(m(slipped.price), expected > cap ? cap : expected, where);
    }
  }
});
