// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamedBook, type NamedOrder } from './namedBook.js';
import { checkBookInvariants } from './invariants.js';
import { ReferenceMatcher } from './referenceMatcher.js';
import type { OrderHandle } from './types.js';

const c = (cents: number): number => cents * 10_000;
const sh = (shares: number): number => shares * 1_000_000;
const bid = (name: string, cents: number, shares: number): NamedOrder => ({ name, side: 'bid', price: c(cents), size: sh(shares), tif: 'GTC' });
const ask = (name: string, cents: number, shares: number): NamedOrder => ({ name, side: 'ask', price: c(cents), size: sh(shares), tif: 'GTC' });
const fak = (o: NamedOrder): NamedOrder => ({ ...o, tif: 'FAK' });

type Step = { place: NamedOrder } | { cancel: string } | { reduce: string; by: number } | { grow: string; by: number; grows: boolean };

interface Case {
  name: string;
  steps: Step[];
  /** Expected [ahead, level size] in shares per order name; null when the order is not on the book. */
  expect: Record<string, [number, number] | null>;
}

const cases: Case[] = [
  {
    name: 'the first order at a price has nothing ahead; later ones have the earlier ones ahead',
    steps: [{ place: bid('b1', 40, 10) }, { place: bid('b2', 40, 5) }, { place: bid('b3', 40, 7) }],
    expect: { b1: [0, 22], b2: [10, 22], b3: [15, 22] },
  },
  {
    name: 'orders at other prices and on the other side are not in the queue',
    steps: [{ place: bid('b1', 41, 10) }, { place: bid('b2', 40, 5) }, { place: ask('a1', 45, 8) }, { place: bid('b3', 40, 3) }],
    expect: { b1: [0, 10], b2: [0, 8], b3: [5, 8], a1: [0, 8] },
  },
  {
    name: 'a partial fill of the head shrinks what is ahead of everyone behind it',
    steps: [{ place: bid('b1', 40, 10) }, { place: bid('b2', 40, 5) }, { place: fak(ask('t', 40, 4)) }],
    expect: { b1: [0, 11], b2: [6, 11], t: null },
  },
  {
    name: 'a cancel ahead moves the orders behind it up; the cancelled order is no longer on the book',
    steps: [{ place: bid('b1', 40, 10) }, { place: bid('b2', 40, 5) }, { place: bid('b3', 40, 7) }, { cancel: 'b2' }],
    expect: { b1: [0, 17], b2: null, b3: [10, 17] },
  },
  {
    name: 'an order filled away is gone and the next one is at the head',
    steps: [{ place: ask('a1', 60, 3) }, { place: ask('a2', 60, 4) }, { place: fak(bid('t', 60, 3)) }],
    expect: { a1: null, a2: [0, 4] },
  },
  {
    name: 'a level compacted after many cancels keeps the queue order of its survivors',
    steps: [
      ...Array.from({ length: 10 }, (_, i): Step => ({ place: bid(`x${i}`, 30, 1) })),
      { place: bid('keep1', 30, 2) },
      { place: bid('keep2', 30, 3) },
      ...Array.from({ length: 10 }, (_, i): Step => ({ cancel: `x${i}` })),
    ],
    expect: { keep1: [0, 5], keep2: [2, 5], x0: null },
  },
  {
    name: 'a reduced order keeps its place and shrinks what is ahead of the orders behind it',
    steps: [{ place: bid('b1', 40, 10) }, { place: bid('b2', 40, 5) }, { place: bid('b3', 40, 7) }, { reduce: 'b2', by: sh(3) }],
    expect: { b1: [0, 19], b2: [10, 19], b3: [12, 19] },
  },
  {
    name: 'an order reduced by all it has leaves the book like a cancel',
    steps: [{ place: ask('a1', 60, 3) }, { place: ask('a2', 60, 4) }, { reduce: 'a1', by: sh(5) }],
    expect: { a1: null, a2: [0, 4] },
  },
  {
    name: 'orders cancelled behind an order leave it the back of its queue',
    steps: [{ place: bid('b1', 40, 10) }, { place: bid('b2', 40, 5) }, { place: bid('b3', 40, 7) }, { cancel: 'b3' }, { cancel: 'b2' }],
    expect: { b1: [0, 10], b2: null, b3: null },
  },
  {
    name: 'growing the back of a queue keeps every place; an order with another behind it does not grow',
    steps: [
      { place: bid('b1', 40, 10) },
      { place: bid('b2', 40, 5) },
      { grow: 'b1', by: sh(3), grows: false },
      { grow: 'b2', by: sh(3), grows: true },
      { place: bid('b3', 40, 1) },
      { cancel: 'b3' },
      { grow: 'b2', by: sh(2), grows: true },
    ],
    expect: { b1: [0, 20], b2: [10, 20], b3: null },
  },
];

for (const k of cases) {
  test(`queue position: ${k.name}`, () => {
    const book = new NamedBook();
    // The naive reference matcher must agree on every order (its handles differ: map them by name).
    const ref = new ReferenceMatcher();
    const refHandles = new Map<string, OrderHandle>();
    for (const s of k.steps) {
      if ('place' in s) {
        book.place(s.place);
        const r = ref.place(s.place);
        if (r.rested) refHandles.set(s.place.name, r.handle);
      } else if ('cancel' in s) {
        book.cancel(s.cancel);
        ref.cancel(refHandles.get(s.cancel) ?? -1);
      } else if ('grow' in s) {
        assert.equal(book.book.growBack(book.handle(s.grow), s.by), s.grows, `${s.grow} grows on the book`);
        assert.equal(ref.growBack(refHandles.get(s.grow) ?? -1, s.by), s.grows, `${s.grow} grows on the reference matcher`);
      } else {
        book.reduce(s.reduce, s.by);
        ref.reduce(refHandles.get(s.reduce) ?? -1, s.by);
      }
    }
    for (const [name, want] of Object.entries(k.expect)) {
      const got = book.queuePosition(name);
      const expected = want === null ? undefined : { ahead: sh(want[0]), levelSize: sh(want[1]) };
      assert.deepEqual(got, expected, `${name} on the book`);
      assert.deepEqual(ref.queuePosition(refHandles.get(name) ?? -1), expected, `${name} on the reference matcher`);
      // The cheap accessors agree with the queue: the back of it has nothing behind (ahead + own = level size).
      const last = expected !== undefined && expected.ahead + book.get(name)!.remaining === expected.levelSize;
      assert.equal(book.book.isLastInLevel(book.handle(name)), last, `${name} is the back of its queue on the book`);
      assert.equal(ref.isLastInLevel(refHandles.get(name) ?? -1), last, `${name} is the back of its queue on the reference matcher`);
      assert.equal(book.book.remainingOf(book.handle(name)), book.get(name)?.remaining, `${name}'s remaining size on the book`);
      assert.equal(ref.remainingOf(refHandles.get(name) ?? -1), book.get(name)?.remaining, `${name}'s remaining size on the reference matcher`);
    }
    checkBookInvariants(book.book);
  });
}

test('queue position of a handle never issued is undefined', () => {
  const book = new NamedBook();
  book.place(bid('b1', 40, 1));
  assert.equal(book.queuePosition('nobody'), undefined);
});
