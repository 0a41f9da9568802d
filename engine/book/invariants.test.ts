// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderBook, type PriceLevelView } from './orderBook.js';
import { handleIndex } from './handleTable.js';
import { checkBookInvariants } from './invariants.js';
import { NamedBook } from './namedBook.js';

/** A small healthy book: bids 40 (b1, b2) and 39 (b3), asks 60 (a1). */
function healthyBook(): NamedBook {
  const book = new NamedBook();
  book.place({ name: 'b1', side: 'bid', price: 400_000, size: 5, tif: 'GTC' });
  book.place({ name: 'b2', side: 'bid', price: 400_000, size: 7, tif: 'GTC' });
  book.place({ name: 'b3', side: 'bid', price: 390_000, size: 1, tif: 'GTC' });
  book.place({ name: 'a1', side: 'ask', price: 600_000, size: 3, tif: 'GTC' });
  return book;
}

// The views write through to the book's real storage, so each corruption below is one a bug could make.
const bestBidLevel = (b: NamedBook) => b.book.internals().bids.at(-1)!;
const slotOf = (b: NamedBook, name: string) => b.book.internals().handles.slotOf(b.handle(name));
const order = (b: NamedBook, name: string) => b.book.internals().order(slotOf(b, name));
const indexOf = (b: NamedBook, name: string) => handleIndex(b.handle(name));
/** Moves a level to another price without re-sorting its ladder, as a bug might. */
function reprice(level: PriceLevelView, price: number): void {
  level.price = price;
}

test('a healthy book passes the invariant check', () => {
  assert.doesNotThrow(() => checkBookInvariants(healthyBook().book));
  assert.doesNotThrow(() => checkBookInvariants(new OrderBook()));
});

// Each case corrupts the real structures through the read-only views, as a bug in the book would.
const corruptions: [string, (book: NamedBook) => void, RegExp][] = [
  ['a level size that is not the sum of its orders', (b) => void (bestBidLevel(b).size += 1), /cached size/],
  ['a level count that is not the number of its orders', (b) => void (bestBidLevel(b).count += 1), /cached count/],
  ['a cancelled-order count that is not the number of cancelled orders queued', (b) => void (bestBidLevel(b).dead += 1), /cached dead count/],
  ['a zero-size order', (b) => void (order(b, 'b3').remaining = 0), /not a positive integer/],
  ['a negative remaining size', (b) => void (order(b, 'b1').remaining = -5), /not a positive integer/],
  ['an order flagged cancelled whose handle is still live', (b) => void (order(b, 'b3').cancelled = true), /cancelled but its handle is still live/],
  ['a crossed book', (b) => reprice(b.book.internals().asks.at(-1)!, 400_000), /crossed/],
  ['unsorted levels', (b) => reprice(b.book.internals().bids[0]!, 450_000), /not strictly sorted/],
  ['a ladder sort key that disagrees with its level price', (b) => void (bestBidLevel(b).key += 1), /sort key/],
  ['a level on the wrong side', (b) => void (bestBidLevel(b).side = 'ask'), /ask level on the bid side/],
  ['an order whose handle is no longer live', (b) => b.book.internals().handles.setSlotAt(indexOf(b, 'b2'), -1), /handle is not live/],
  ['a handle pointing at another order', (b) => b.book.internals().handles.setSlotAt(indexOf(b, 'b2'), slotOf(b, 'b1')), /names another slot/],
  ['an order pointing at another order\'s handle', (b) => void (order(b, 'b2').handleIndex = indexOf(b, 'b1')), /names another slot|appears twice/],
  ['a live handle no level holds', (b) => {
    b.cancel('b3'); // its level goes; its handle index is free
    b.book.internals().handles.setSlotAt(indexOf(b, 'b3'), slotOf(b, 'b1'));
  }, /live handles but/],
  ['a free handle index lost from the free list', (b) => {
    b.cancel('b3');
    b.cancel('a1'); // the free list: a1's index, then b3's
    b.book.internals().handles.setSlotAt(indexOf(b, 'a1'), -1); // ends the list at a1: b3's index is lost
  }, /indices leaked/],
  ['a slot queued twice', (b) => {
    const level = bestBidLevel(b);
    level.setEntry(level.head + 1, slotOf(b, 'b1'));
  }, /appears twice/],
  ['a queue that ends before its last order', (b) => void (bestBidLevel(b).tail -= 1), /cached size/],
  ['two levels sharing a FIFO segment', (b) => {
    const [worst, best] = b.book.internals().bids;
    worst!.base = best!.base;
  }, /share FIFO positions|appears twice|points at another level/],
  ['queue positions beyond the FIFO segment', (b) => void (bestBidLevel(b).tail = bestBidLevel(b).capacity + 1), /outside its FIFO/],
  ['a queued slot that is on the free list', (b) => {
    b.cancel('a1'); // its level goes, and its slot is freed
    const level = bestBidLevel(b);
    level.setEntry(level.head + 1, b.book.internals().freeSlots[0]!);
  }, /free list/],
  ['a free slot still flagged cancelled', (b) => {
    b.cancel('a1');
    b.book.internals().order(b.book.internals().freeSlots[0]!).cancelled = true;
  }, /still flagged cancelled/],
  ['an order that points at another level', (b) => void (order(b, 'b2').level = b.book.internals().bids[0]!.slot), /points at another level/],
  ['a slot that is neither queued nor free', (b) => {
    b.cancel('b2'); // lazily: b2's slot stays queued behind b1, flagged cancelled
    const level = bestBidLevel(b);
    level.tail -= 1; // drop it from the queue with every cached figure kept consistent: only the slot is lost
    level.dead = 0;
  }, /slots leaked/],
];

for (const [what, corrupt, message] of corruptions) {
  test(`the invariant check catches ${what}`, () => {
    const book = healthyBook();
    corrupt(book);
    assert.throws(() => checkBookInvariants(book.book), message);
  });
}
