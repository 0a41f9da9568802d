// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderBook, type BookOrderView, type PriceLevelView } from './orderBook.js';
import { checkBookInvariants } from './invariants.js';

/** A small healthy book: bids 40 (2 orders) and 39, asks 60. */
function healthyBook(): OrderBook {
  const book = new OrderBook();
  book.place({ id: 'b1', side: 'bid', price: 400_000, size: 5, tif: 'GTC' });
  book.place({ id: 'b2', side: 'bid', price: 400_000, size: 7, tif: 'GTC' });
  book.place({ id: 'b3', side: 'bid', price: 390_000, size: 1, tif: 'GTC' });
  book.place({ id: 'a1', side: 'ask', price: 600_000, size: 3, tif: 'GTC' });
  return book;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const bestBidLevel = (book: OrderBook) => book.internals().bids.at(-1) as Mutable<PriceLevelView>;
const order = (book: OrderBook, id: string) => book.internals().index.get(id) as Mutable<BookOrderView>;
/** Moves a whole level (and its orders) to another price without re-sorting, as a bug might. */
function reprice(level: PriceLevelView, price: number): void {
  (level as Mutable<PriceLevelView>).price = price;
  for (let o = level.head; o !== null; o = o.next) (o as Mutable<BookOrderView>).price = price;
}

test('a healthy book passes the invariant check', () => {
  assert.doesNotThrow(() => checkBookInvariants(healthyBook()));
  assert.doesNotThrow(() => checkBookInvariants(new OrderBook()));
});

// Each case corrupts the real structures through the read-only views, as a bug in the book would.
const corruptions: [string, (book: OrderBook) => void, RegExp][] = [
  ['a level size that is not the sum of its orders', (b) => void (bestBidLevel(b).size += 1), /cached size/],
  ['a level count that is not the number of its orders', (b) => void (bestBidLevel(b).count += 1), /cached count/],
  ['a zero-size order', (b) => void (order(b, 'b3').remaining = 0), /not a positive integer/],
  ['a crossed book', (b) => reprice(b.internals().asks.at(-1)!, 400_000), /crossed/],
  ['unsorted levels', (b) => reprice(b.internals().bids[0]!, 450_000), /not strictly sorted/],
  ['an order missing from the index', (b) => void (b.internals().index as Map<string, BookOrderView>).delete('b2'), /missing from the id index|index holds/],
  ['an index entry no level holds', (b) => void (b.internals().index as Map<string, BookOrderView>).set('ghost', order(b, 'b1')), /index holds/],
  ['a broken prev link', (b) => void (order(b, 'b2').prev = null), /prev link/],
  ['a tail that is not the last order', (b) => void (bestBidLevel(b).tail = order(b, 'b1')), /tail/],
  ['an order at another price than its level', (b) => void (order(b, 'b2').price = 410_000), /price/],
];

for (const [what, corrupt, message] of corruptions) {
  test(`the invariant check catches ${what}`, () => {
    const book = healthyBook();
    corrupt(book);
    assert.throws(() => checkBookInvariants(book), message);
  });
}
