import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bookHashText, type BookEvent, type PriceChangeEvent } from '../protocol/streamEvents.js';
import { LocalBook, sha1Hex } from './localBook.js';

const base: BookEvent = {
  event_type: 'book',
  asset_id: '1',
  market: '0xabc',
  bids: [{ price: '0.4', size: '10' }],
  asks: [{ price: '0.6', size: '5' }],
  timestamp: '1000',
  hash: '',
  min_order_size: '1',
  tick_size: '0.01',
  neg_risk: false,
  last_trade_price: '0.5',
  seq: 3,
};

async function change(book: LocalBook, over: Partial<PriceChangeEvent>, levels: { bids: BookEvent['bids']; asks: BookEvent['asks'] }): Promise<PriceChangeEvent> {
  const b = book.toBook()!;
  const hash = await sha1Hex(bookHashText({ ...b, ...levels, timestamp: '2000' }));
  return { event_type: 'price_change', market: '0xabc', timestamp: '2000', price_changes: [], hash, seq: book.seq + 1, ...over };
}

describe('LocalBook', () => {
  it('verifies a book and its changes against the server hash, and notices a tampered level', async () => {
    const book = new LocalBook('1');
    book.apply({ ...base, hash: await sha1Hex(bookHashText(base)) });
    assert.equal(await book.verify(), true);
    const levels = { bids: [{ price: '0.4', size: '10' }, { price: '0.45', size: '2' }], asks: base.asks };
    const e = await change(book, { price_changes: [{ asset_id: '1', price: '0.45', size: '2', side: 'BUY', hash: '', best_bid: '0.45', best_ask: '0.6' }] }, levels);
    assert.equal(book.apply(e), true);
    assert.deepEqual(book.bidLevels(), levels.bids);
    assert.equal(await book.verify(), true);
    // A change the server did not make: the hash no longer matches.
    const wrong = await change(book, { price_changes: [{ asset_id: '1', price: '0.6', size: '0', side: 'SELL', hash: '', best_bid: '0.45', best_ask: '1' }] }, levels);
    book.apply(wrong);
    assert.equal(await book.verify(), false);
  });

  it('refuses an event that skips a seq', () => {
    const book = new LocalBook('1');
    book.apply({ ...base });
    assert.equal(book.apply({ event_type: 'price_change', market: '0xabc', timestamp: '1', price_changes: [], hash: '', seq: 5 }), false);
    assert.equal(book.seq, 3);
  });

  it('takes the new tick, time and hash from tick_size_change and still verifies', async () => {
    const book = new LocalBook('1');
    book.apply({ ...base, hash: await sha1Hex(bookHashText(base)) });
    const hash = await sha1Hex(bookHashText({ ...base, tick_size: '0.001', timestamp: '3000' }));
    assert.equal(book.apply({ event_type: 'tick_size_change', asset_id: '1', market: '0xabc', old_tick_size: '0.01', new_tick_size: '0.001', timestamp: '3000', hash, seq: 4 }), true);
    assert.equal(book.toBook()!.tick_size, '0.001');
    assert.equal(await book.verify(), true);
  });
});
