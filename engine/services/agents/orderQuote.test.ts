import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOrderBook } from '../../book/orderBook.js';
import { NO_FEE, feeScheduleFromBps } from '../../protocol/feeSchedule.js';
import { quoteOrder } from './orderQuote.js';

const S = 1_000_000;
/** Asks 0.40 × 100 and 0.42 × 50, bids 0.38 × 80 and 0.35 × 200 (outcome-0 terms). */
function book() {
  const b = createOrderBook();
  b.place({ side: 'ask', price: 400_000, size: 100 * S, tif: 'GTC' });
  b.place({ side: 'ask', price: 420_000, size: 50 * S, tif: 'GTC' });
  b.place({ side: 'bid', price: 380_000, size: 80 * S, tif: 'GTC' });
  b.place({ side: 'bid', price: 350_000, size: 200 * S, tif: 'GTC' });
  return b;
}

describe('quoteOrder: what an order would fill now', () => {
  it('a BUY of outcome 0 walks the asks: 100 × 0.40 + 20 × 0.42 = 48.4 for 120 shares, average 0.403333, slippage from the 0.39 mid, fees at rate 0.02 on p(1 − p)', () => {
    const q = quoteOrder(book(), { outcomeIndex: 0, side: 'BUY', size: 120n * 1_000_000n, feeSchedule: feeScheduleFromBps(200) });
    assert.equal(q.fillableSize, '120');
    assert.equal(q.fillsCompletely, true);
    assert.equal(q.notional, '48.4');
    assert.equal(q.averagePrice, '0.403333');
    assert.equal(q.worstPrice, '0.42');
    assert.equal(q.midpoint, '0.39');
    assert.equal(q.slippage, '0.013333');
    // 100 × 0.02 × (0.40 × 0.60) + 20 × 0.02 × (0.42 × 0.58) = 0.48 + 0.09744
    assert.equal(q.fees, '0.57744');
    assert.equal(q.maxLoss, '48.97744');
    assert.deepEqual(q.levels, [{ price: '0.4', size: '100' }, { price: '0.42', size: '20' }]);
  });

  it('a limit stops the walk, and more than the book holds fills partly', () => {
    const capped = quoteOrder(book(), { outcomeIndex: 0, side: 'BUY', size: 120n * 1_000_000n, limit: 400_000n, feeSchedule: NO_FEE });
    assert.equal(capped.fillableSize, '100');
    assert.equal(capped.fillsCompletely, false);
    const all = quoteOrder(book(), { outcomeIndex: 0, side: 'BUY', size: 1_000n * 1_000_000n, feeSchedule: NO_FEE });
    assert.equal(all.fillableSize, '150');
  });

  it('outcome 1 sees the book from the other side: a BUY of No takes the Yes bids at 1 − price, a SELL of No hits the Yes asks', () => {
    const buyNo = quoteOrder(book(), { outcomeIndex: 1, side: 'BUY', size: 100n * 1_000_000n, feeSchedule: NO_FEE });
    assert.deepEqual(buyNo.levels, [{ price: '0.62', size: '80' }, { price: '0.65', size: '20' }]);
    assert.equal(buyNo.midpoint, '0.61');
    const sellNo = quoteOrder(book(), { outcomeIndex: 1, side: 'SELL', size: 10n * 1_000_000n, feeSchedule: NO_FEE });
    assert.equal(sellNo.averagePrice, '0.6');
    // A sale's worst case is the outcome paying 1: (1 − 0.6) × 10.
    assert.equal(sellNo.maxLoss, '4');
  });

  it('an empty side quotes nothing fillable and no prices', () => {
    const q = quoteOrder(createOrderBook(), { outcomeIndex: 0, side: 'SELL', size: 5n * 1_000_000n, feeSchedule: NO_FEE });
    assert.equal(q.fillableSize, '0');
    assert.equal(q.averagePrice, null);
    assert.equal(q.worstPrice, null);
    assert.equal(q.midpoint, null);
    assert.equal(q.maxLoss, '0');
  });
});
