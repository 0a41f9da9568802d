// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderBook, createOrderBook } from './orderBook.js';
import { checkBookInvariants } from './invariants.js';
import { NamedBook, NEVER_ISSUED, type NamedFill, type NamedOrder } from './namedBook.js';
import { ReferenceMatcher } from './referenceMatcher.js';
import { createSeededRandom } from './seededRandom.js';
import { PRICE_ONE, fromBookPrice, toBookTerms, type BookSide, type OrderIn, type TimeInForce } from './types.js';

/** Cents → micro-unit price (52 → 520_000). */
const c = (cents: number): number => cents * 10_000;
/** Shares → micro-unit size. */
const sh = (shares: number): number => shares * 1_000_000;

// Orders are named for readability; `NamedBook` maps the names to the handles the book hands out.
const bid = (name: string, cents: number, shares: number, tif: TimeInForce = 'GTC'): NamedOrder => ({ name, side: 'bid', price: c(cents), size: sh(shares), tif });
const ask = (name: string, cents: number, shares: number, tif: TimeInForce = 'GTC'): NamedOrder => ({ name, side: 'ask', price: c(cents), size: sh(shares), tif });
/** An expected fill against the named maker, in cents and shares. */
const fill = (maker: string, cents: number, shares: number, makerShares: number): NamedFill => ({
  maker, price: c(cents), size: sh(shares), makerRemaining: sh(makerShares),
});

type Step =
  | { place: NamedOrder; fills?: NamedFill[]; remaining?: number; rested?: boolean }
  | { cancel: string; returns: number | undefined }
  | { restore: { name: string; side: BookSide; cents: number; shares: number } };

interface Scenario {
  name: string;
  steps: Step[];
  /** Final levels, best first, as [cents, shares]. */
  bids: [number, number][];
  asks: [number, number][];
}

const scenarios: Scenario[] = [
  {
    name: 'an order with nothing to cross rests whole on its side',
    steps: [
      { place: bid('b1', 40, 10), fills: [], remaining: sh(10), rested: true },
      { place: ask('a1', 60, 5), fills: [], remaining: sh(5), rested: true },
    ],
    bids: [[40, 10]],
    asks: [[60, 5]],
  },
  {
    name: 'a taker fills fully across several levels, best price first, each at the maker price',
    steps: [
      { place: ask('a1', 52, 5) },
      { place: ask('a2', 51, 5) },
      { place: ask('a3', 53, 5) },
      { place: bid('t', 55, 12), fills: [fill('a2', 51, 5, 0), fill('a1', 52, 5, 0), fill('a3', 53, 2, 3)], remaining: 0, rested: false },
    ],
    bids: [],
    asks: [[53, 3]],
  },
  {
    name: 'a partially filled GTC rests its remainder at its own limit price',
    steps: [
      { place: bid('b1', 48, 4) },
      { place: bid('b2', 47, 4) },
      { place: ask('t', 47, 10), fills: [fill('b1', 48, 4, 0), fill('b2', 47, 4, 0)], remaining: sh(2), rested: true },
    ],
    bids: [],
    asks: [[47, 2]],
  },
  {
    name: 'orders at one price fill in arrival order (time priority)',
    steps: [
      { place: ask('a1', 50, 3) },
      { place: ask('a2', 50, 3) },
      { place: ask('a3', 50, 3) },
      { place: bid('t1', 50, 4), fills: [fill('a1', 50, 3, 0), fill('a2', 50, 1, 2)], remaining: 0 },
      { place: bid('t2', 50, 3), fills: [fill('a2', 50, 2, 0), fill('a3', 50, 1, 2)], remaining: 0 },
    ],
    bids: [],
    asks: [[50, 2]],
  },
  {
    name: 'a partially filled maker keeps its place at the head of its level',
    steps: [
      { place: bid('b1', 50, 5) },
      { place: bid('b2', 50, 5) },
      { place: ask('t1', 50, 2, 'FAK'), fills: [fill('b1', 50, 2, 3)] },
      { place: ask('t2', 50, 4, 'FAK'), fills: [fill('b1', 50, 3, 0), fill('b2', 50, 1, 4)] },
    ],
    bids: [[50, 4]],
    asks: [],
  },
  {
    name: 'execution is at the resting order price, never the taker limit',
    steps: [
      { place: ask('a1', 50, 1) },
      { place: bid('t1', 60, 1), fills: [fill('a1', 50, 1, 0)] },
      { place: bid('b1', 60, 1) },
      { place: ask('t2', 40, 1), fills: [fill('b1', 60, 1, 0)] },
    ],
    bids: [],
    asks: [],
  },
  {
    name: 'a FOK that cannot fill completely is killed and leaves the book untouched',
    steps: [
      { place: ask('a1', 50, 3) },
      { place: ask('a2', 55, 3) },
      { place: ask('a3', 60, 3) },
      { place: bid('fok', 55, 7, 'FOK'), fills: [], remaining: sh(7), rested: false },
      { place: bid('fok2', 40, 1, 'FOK'), fills: [], remaining: sh(1), rested: false },
    ],
    bids: [],
    asks: [[50, 3], [55, 3], [60, 3]],
  },
  {
    name: 'a FOK for exactly the crossing size fills completely across levels',
    steps: [
      { place: bid('b1', 50, 3) },
      { place: bid('b2', 49, 3) },
      { place: bid('b3', 45, 3) },
      { place: ask('fok', 49, 6, 'FOK'), fills: [fill('b1', 50, 3, 0), fill('b2', 49, 3, 0)], remaining: 0, rested: false },
    ],
    bids: [[45, 3]],
    asks: [],
  },
  {
    name: 'a FAK fills what it can and never rests the rest',
    steps: [
      { place: ask('a1', 50, 3) },
      { place: ask('a2', 70, 3) },
      { place: bid('fak', 60, 5, 'FAK'), fills: [fill('a1', 50, 3, 0)], remaining: sh(2), rested: false },
      { place: bid('fak2', 60, 5, 'FAK'), fills: [], remaining: sh(5), rested: false },
    ],
    bids: [],
    asks: [[70, 3]],
  },
  {
    name: 'cancel returns the remaining size, keeps the others queued in order, and knows no unknown ids',
    steps: [
      { place: ask('a1', 50, 5) },
      { place: ask('a2', 50, 5) },
      { place: ask('a3', 50, 5) },
      { place: bid('t', 50, 2, 'FAK'), fills: [fill('a1', 50, 2, 3)] },
      { cancel: 'a1', returns: sh(3) },
      { cancel: 'a1', returns: undefined },
      { cancel: 'nope', returns: undefined },
      { cancel: 'a2', returns: sh(5) },
      { place: bid('t2', 50, 1, 'FAK'), fills: [fill('a3', 50, 1, 4)] },
      { place: ask('a4', 51, 1) },
      { cancel: 'a4', returns: sh(1) },
      { cancel: 't2', returns: undefined },
    ],
    bids: [],
    asks: [[50, 4]],
  },
  {
    name: 'cancelling the middle and the tail of a queue keeps FIFO order for the rest',
    steps: [
      { place: bid('b1', 50, 1) },
      { place: bid('b2', 50, 1) },
      { place: bid('b3', 50, 1) },
      { place: bid('b4', 50, 1) },
      { cancel: 'b2', returns: sh(1) },
      { cancel: 'b4', returns: sh(1) },
      { place: bid('b5', 50, 1) },
      { place: ask('t', 50, 3), fills: [fill('b1', 50, 1, 0), fill('b3', 50, 1, 0), fill('b5', 50, 1, 0)], remaining: 0, rested: false },
    ],
    bids: [],
    asks: [],
  },
  {
    name: 'restore rebuilds the book without matching and keeps the restored time order',
    steps: [
      { restore: { name: 'r1', side: 'bid', cents: 45, shares: 2 } },
      { restore: { name: 'r2', side: 'bid', cents: 45, shares: 3 } },
      { restore: { name: 'r3', side: 'ask', cents: 46, shares: 1 } },
      { place: ask('t', 45, 4), fills: [fill('r1', 45, 2, 0), fill('r2', 45, 2, 1)], remaining: 0 },
    ],
    bids: [[45, 1]],
    asks: [[46, 1]],
  },
  {
    name: 'levels aggregate every order at a price, best first on both sides',
    steps: [
      { place: bid('b1', 40, 1) },
      { place: bid('b2', 42, 2) },
      { place: bid('b3', 40, 3) },
      { place: bid('b4', 41, 4) },
      { place: ask('a1', 60, 1) },
      { place: ask('a2', 58, 2) },
      { place: ask('a3', 60, 3) },
      { place: ask('a4', 59, 4) },
    ],
    bids: [[42, 2], [41, 4], [40, 4]],
    asks: [[58, 2], [59, 4], [60, 4]],
  },
  {
    name: 'a BUY of outcome 1 crosses a BUY of outcome 0 when the prices sum to at least 1 (mint)',
    steps: [
      { place: { name: 'yes', ...toBookTerms(0, 'BUY', c(60)), size: sh(10), tif: 'GTC' } },
      // 0.60 + 0.39 < 1: no mint, the NO bid rests as an ask at 0.61.
      { place: { name: 'no1', ...toBookTerms(1, 'BUY', c(39)), size: sh(5), tif: 'GTC' }, fills: [], rested: true },
      // 0.60 + 0.40 = 1: mints at the maker's 0.60 YES price.
      { place: { name: 'no2', ...toBookTerms(1, 'BUY', c(40)), size: sh(4), tif: 'GTC' }, fills: [fill('yes', 60, 4, 6)], remaining: 0 },
      // 0.60 + 0.45 > 1: still at the maker's price, so the NO buyer pays 0.40, not 0.45.
      { place: { name: 'no3', ...toBookTerms(1, 'BUY', c(45)), size: sh(1), tif: 'FAK' }, fills: [fill('yes', 60, 1, 5)], remaining: 0 },
    ],
    bids: [[60, 5]],
    asks: [[61, 5]],
  },
  {
    name: 'a SELL of outcome 1 crosses a SELL of outcome 0 when the prices sum to at most 1 (merge)',
    steps: [
      { place: { name: 'yes', ...toBookTerms(0, 'SELL', c(55)), size: sh(10), tif: 'GTC' } },
      // 0.55 + 0.46 > 1: no merge, the NO offer rests as a bid at 0.54.
      { place: { name: 'no1', ...toBookTerms(1, 'SELL', c(46)), size: sh(2), tif: 'GTC' }, fills: [], rested: true },
      // 0.55 + 0.45 = 1: merges at the maker's 0.55.
      { place: { name: 'no2', ...toBookTerms(1, 'SELL', c(45)), size: sh(3), tif: 'FOK' }, fills: [fill('yes', 55, 3, 7)], remaining: 0 },
    ],
    bids: [[54, 2]],
    asks: [[55, 7]],
  },
];

function runStep(book: NamedBook, step: Step, label: string): void {
  if ('place' in step) {
    const raw = book.placeRaw(step.place);
    assert.equal(raw.handle >= 0, raw.rested, `${label}: a handle exactly when rested`);
    const result = { fills: raw.fills.map((f) => ({ maker: book.nameOf(f.makerHandle), price: f.price, size: f.size, makerRemaining: f.makerRemaining })), remaining: raw.remaining, rested: raw.rested };
    if (step.fills !== undefined) assert.deepEqual(result.fills, step.fills, `${label}: fills`);
    if (step.remaining !== undefined) assert.equal(result.remaining, step.remaining, `${label}: remaining`);
    if (step.rested !== undefined) assert.equal(result.rested, step.rested, `${label}: rested`);
    const filled = result.fills.reduce((sum, f) => sum + f.size, 0);
    assert.equal(filled + result.remaining, step.place.size, `${label}: fills plus remaining make the order size`);
    if (raw.rested) {
      const { side, price } = step.place;
      assert.deepEqual(book.book.get(raw.handle), { side, price, remaining: raw.remaining }, `${label}: on the book under its handle`);
    }
  } else if ('cancel' in step) {
    assert.equal(book.cancel(step.cancel), step.returns, `${label}: cancel result`);
    assert.equal(book.get(step.cancel), undefined, `${label}: gone after cancel`);
  } else {
    const { name, side, cents, shares } = step.restore;
    book.restore(name, { side, price: c(cents), remaining: sh(shares) });
    assert.deepEqual(book.get(name), { side, price: c(cents), remaining: sh(shares) }, `${label}: restored`);
  }
  checkBookInvariants(book.book);
}

for (const scenario of scenarios) {
  test(scenario.name, () => {
    const book = new NamedBook();
    scenario.steps.forEach((step, i) => runStep(book, step, `step ${i + 1}`));
    const levels = (side: BookSide) => book.levels(side).map((l) => [l.price / 10_000, l.size / 1_000_000]);
    assert.deepEqual(levels('bid'), scenario.bids, 'final bids');
    assert.deepEqual(levels('ask'), scenario.asks, 'final asks');
  });
}

test('levels honours depth: the best n levels, none for 0 or less, all when the book is shallower or depth is not a number', () => {
  const book = new OrderBook();
  for (const [i, cents] of [30, 31, 32, 33].entries()) {
    book.place(bid(`b${i}`, cents, 1));
    checkBookInvariants(book);
  }
  assert.deepEqual(book.levels('bid', 2), [{ price: c(33), size: sh(1) }, { price: c(32), size: sh(1) }]);
  assert.deepEqual(book.levels('bid', 0), []);
  assert.equal(book.levels('bid', 10).length, 4);
  assert.deepEqual(book.levels('ask', 3), []);
  assert.equal(book.levels('bid', -1).length, 0);
  assert.equal(book.levels('bid', 2.7).length, 2);
  assert.equal(book.levels('bid', Number.NaN).length, 4);
  assert.equal(book.levels('bid', Infinity).length, 4);
});

test('copyLevels writes what levels gives into arrays it reuses, shortening them when levels go', () => {
  const book = new OrderBook();
  const prices = [7, 7, 7, 7, 7, 7];
  const sizes = [7, 7, 7, 7, 7, 7];
  book.place(bid('b1', 30, 1));
  book.place(bid('b2', 32, 2));
  book.place(bid('b3', 32, 1));
  book.place(ask('a1', 35, 4));
  const asPairs = (n: number) => prices.slice(0, n).map((price, i) => ({ price, size: sizes[i] }));
  assert.equal(book.copyLevels('bid', prices, sizes), 2);
  assert.deepEqual(asPairs(2), book.levels('bid'));
  assert.equal(prices.length, 2, 'old entries beyond the levels are gone');
  assert.equal(sizes.length, 2);
  assert.equal(book.copyLevels('ask', prices, sizes), 1);
  assert.deepEqual(asPairs(1), [{ price: c(35), size: sh(4) }]);
  const ref = new ReferenceMatcher();
  assert.equal(ref.copyLevels('bid', prices, sizes), 0);
  assert.deepEqual([prices, sizes], [[], []]);
});

test('best prices, get, orderCount and fillable describe the resting book', () => {
  const book = createOrderBook();
  assert.equal(book.bestBid(), undefined);
  assert.equal(book.bestAsk(), undefined);
  book.place(bid('b1', 40, 2));
  book.place(bid('b2', 41, 2));
  book.place(ask('a1', 60, 3));
  const a2 = book.place(ask('a2', 62, 3)).handle;
  checkBookInvariants(book as OrderBook);
  assert.equal(book.bestBid(), c(41));
  assert.equal(book.bestAsk(), c(60));
  assert.equal(book.orderCount, 4);
  assert.deepEqual(book.get(a2), { side: 'ask', price: c(62), remaining: sh(3) });
  assert.equal(book.get(NEVER_ISSUED), undefined);
  assert.equal(book.fillable('bid', c(59), sh(1)), 0);
  assert.equal(book.fillable('bid', c(60), sh(5)), sh(3));
  assert.equal(book.fillable('bid', c(62), sh(5)), sh(5));
  assert.equal(book.fillable('bid', c(99), sh(100)), sh(6));
  assert.equal(book.fillable('ask', c(41), sh(3)), sh(2));
  assert.equal(book.fillable('ask', c(1), sh(3)), sh(3));
});

test('get returns a snapshot that later fills do not change', () => {
  const book = new NamedBook();
  book.place(ask('a1', 50, 5));
  const before = book.get('a1');
  book.place(bid('t', 50, 2));
  checkBookInvariants(book.book);
  assert.equal(before?.remaining, sh(5));
  assert.equal(book.get('a1')?.remaining, sh(3));
});

test('every resting order gets its own handle, and restore hands out handles like place', () => {
  const book = new OrderBook();
  const handles = new Set<number>();
  for (let i = 0; i < 50; i++) {
    const h = i % 5 === 0 ? book.restore({ side: 'bid', price: c(10 + (i % 7)), remaining: sh(1) }) : book.place(bid(`b${i}`, 10 + (i % 7), 1)).handle;
    assert.ok(Number.isSafeInteger(h) && h >= 0, `handle ${h} is a non-negative safe integer`);
    assert.ok(!handles.has(h), `handle ${h} handed out twice`);
    handles.add(h);
  }
  checkBookInvariants(book);
  assert.equal(book.orderCount, 50);
  // Orders that do not rest get no handle.
  assert.equal(book.place(ask('fak', 50, 1, 'FAK')).handle, -1);
  assert.equal(book.place(ask('fok', 50, 1, 'FOK')).handle, -1);
  assert.equal(book.place(ask('filled', 16, 1)).handle, -1, 'filled completely');
});

test('a handle whose order left the book names nothing, even once the book reuses its storage for a new order', () => {
  const book = new NamedBook();
  book.place(bid('old', 40, 1));
  book.place(bid('filled', 41, 1));
  assert.equal(book.cancel('old'), sh(1));
  book.place(ask('taker', 41, 1)); // fills 'filled' completely
  // New orders take over the freed storage and handle-table entries (both are reused last-in first-out).
  book.place(bid('new1', 40, 2));
  book.place(bid('new2', 39, 3));
  checkBookInvariants(book.book);
  for (const dead of ['old', 'filled']) {
    assert.equal(book.get(dead), undefined, `get ${dead}`);
    assert.equal(book.cancel(dead), undefined, `cancel ${dead}`);
    assert.ok(book.handle(dead) !== book.handle('new1') && book.handle(dead) !== book.handle('new2'), `${dead}'s handle is not reused`);
  }
  checkBookInvariants(book.book);
  assert.deepEqual(book.levels('bid'), [{ price: c(40), size: sh(2) }, { price: c(39), size: sh(3) }], 'the new orders are untouched');
  assert.equal(book.cancel('new1'), sh(2));
  assert.equal(book.cancel('new1'), undefined, 'a second cancel finds nothing');
});

test('anything that is not a live handle is refused by cancel and get and leaves the book as it was', () => {
  const book = new OrderBook();
  const h = book.place(bid('b1', 40, 1)).handle;
  const notHandles: unknown[] = [-1, h + 0.5, Number.NaN, Infinity, -Infinity, 2 ** 53, NEVER_ISSUED, h + 1, String(h), null, undefined, {}, 1e300];
  for (const x of notHandles) {
    assert.equal(book.cancel(x as number), undefined, `cancel ${String(x)}`);
    assert.equal(book.get(x as number), undefined, `get ${String(x)}`);
  }
  checkBookInvariants(book);
  assert.deepEqual(book.get(h), { side: 'bid', price: c(40), remaining: sh(1) });
});

test('a restore that would cross the book is refused instead of crossing it', () => {
  const book = new OrderBook();
  book.restore({ side: 'ask', price: c(50), remaining: 1 });
  assert.throws(() => book.restore({ side: 'bid', price: c(50), remaining: 1 }), /crosses/);
  book.restore({ side: 'bid', price: c(49), remaining: 1 });
  checkBookInvariants(book);
  assert.equal(book.orderCount, 2);
});

test('non-integer, out-of-range or non-positive prices and sizes, unknown sides and TIFs are refused before touching the book', () => {
  const book = new OrderBook();
  const bad: OrderIn[] = [
    { side: 'bid', price: 0, size: 1, tif: 'GTC' },
    { side: 'bid', price: PRICE_ONE, size: 1, tif: 'GTC' },
    { side: 'bid', price: 0.5, size: 1, tif: 'GTC' },
    { side: 'ask', price: 1, size: 0, tif: 'GTC' },
    { side: 'ask', price: 1, size: -5, tif: 'GTC' },
    { side: 'ask', price: 1, size: 1.5, tif: 'GTC' },
    { side: 'ask', price: Number.NaN, size: 1, tif: 'GTC' },
  ];
  bad.push({ side: 'bid', price: 1, size: 1, tif: 'GTD' as TimeInForce });
  bad.push({ side: 'buy' as BookSide, price: 1, size: 1, tif: 'GTC' });
  for (const order of bad) assert.throws(() => book.place(order), RangeError, JSON.stringify(order));
  assert.throws(() => book.restore({ side: 'ask', price: 1, remaining: 0 }), RangeError);
  checkBookInvariants(book);
  assert.equal(book.orderCount, 0);
});

test('extreme prices 1 and PRICE_ONE − 1 rest and match like any other', () => {
  const book = new OrderBook();
  const lo = book.place({ side: 'bid', price: 1, size: 7, tif: 'GTC' }).handle;
  book.place({ side: 'ask', price: PRICE_ONE - 1, size: 7, tif: 'GTC' });
  checkBookInvariants(book);
  const r = book.place({ side: 'ask', price: 1, size: 10, tif: 'FAK' });
  assert.deepEqual(r, { fills: [{ makerHandle: lo, price: 1, size: 7, makerRemaining: 0 }], remaining: 3, rested: false, handle: -1 });
  checkBookInvariants(book);
});

test('fromBookPrice shows a book price from either outcome and undoes toBookTerms', () => {
  assert.equal(fromBookPrice(0, c(60)), c(60));
  assert.equal(fromBookPrice(1, c(60)), c(40));
  for (const outcome of [0, 1] as const) {
    for (const side of ['BUY', 'SELL'] as const) {
      const terms = toBookTerms(outcome, side, c(37));
      assert.equal(fromBookPrice(outcome, terms.price), c(37));
    }
  }
  assert.deepEqual(toBookTerms(1, 'BUY', c(37)), { side: 'ask', price: c(63) });
  assert.deepEqual(toBookTerms(1, 'SELL', c(37)), { side: 'bid', price: c(63) });
});

test('a book emptied by fills and cancels accepts new orders at the old prices', () => {
  const book = new NamedBook();
  for (let round = 0; round < 3; round++) {
    book.place(bid(`b${round}`, 50, 1));
    book.place(bid(`c${round}`, 49, 1));
    book.place(ask(`t${round}`, 50, 1));
    assert.equal(book.cancel(`c${round}`), sh(1));
    checkBookInvariants(book.book);
    assert.equal(book.book.orderCount, 0);
    assert.deepEqual(book.levels('bid'), []);
  }
});

test('a level whose cancelled orders outnumber its live ones is compacted, and the survivors keep their time priority', () => {
  const book = new NamedBook();
  for (let i = 0; i < 20; i++) book.place(bid(`b${i}`, 50, 1 + i));
  const level = () => book.book.internals().bids.at(-1)!;
  // Cancels are lazy: the slot stays queued, marked cancelled, until there are more of them than live orders.
  for (let i = 1; i < 20; i += 2) {
    assert.equal(book.cancel(`b${i}`), sh(1 + i));
    checkBookInvariants(book.book);
  }
  assert.deepEqual([level().count, level().dead], [10, 10]);
  assert.equal(book.cancel('b0'), sh(1));
  checkBookInvariants(book.book);
  assert.deepEqual([level().count, level().dead], [9, 0], 'compacted once cancelled orders outnumbered live ones');
  assert.equal(book.book.internals().freeSlots.length, 11);
  assert.deepEqual(book.levels('bid'), [{ price: c(50), size: sh([2, 4, 6, 8, 10, 12, 14, 16, 18].reduce((a, i) => a + 1 + i, 0)) }]);
  const result = book.place(ask('t', 50, 1_000, 'FAK'));
  assert.deepEqual(result.fills.map((f) => f.maker), ['b2', 'b4', 'b6', 'b8', 'b10', 'b12', 'b14', 'b16', 'b18']);
  checkBookInvariants(book.book);
  assert.equal(book.book.orderCount, 0);
  assert.equal(book.book.internals().freeSlots.length, book.book.internals().slotsUsed, 'every slot back on the free list');
});

test('matching skips orders cancelled while queued, and a level whose live orders are all cancelled disappears', () => {
  const book = new NamedBook();
  for (let i = 0; i < 5; i++) book.place(ask(`a${i}`, 60, 1));
  book.place(ask('far', 61, 1));
  book.cancel('a0');
  book.cancel('a2');
  checkBookInvariants(book.book);
  assert.deepEqual(book.place(bid('t', 60, 2, 'FAK')).fills.map((f) => f.maker), ['a1', 'a3']);
  checkBookInvariants(book.book);
  book.cancel('a4'); // the last live order at 60: the level goes with its cancelled slots
  checkBookInvariants(book.book);
  assert.deepEqual(book.levels('ask'), [{ price: c(61), size: sh(1) }]);
  assert.equal(book.book.bestAsk(), c(61));
  assert.deepEqual(book.place(bid('t2', 61, 1)).fills.map((f) => f.maker), ['far']);
  checkBookInvariants(book.book);
});

test('a book drained after a flood is repacked into storage sized for what is left, with handles, sizes and time priority intact', () => {
  const book = new NamedBook();
  const ref = new ReferenceMatcher();
  const refHandles = new Map<string, number>();
  const refNames = new Map<number, string>();
  const rnd = createSeededRandom(5);
  const names: string[] = [];
  for (let i = 0; i < 6_000; i++) {
    const order = i % 2 === 0 ? bid(`f${i}`, 30 + rnd.int(0, 15), rnd.int(1, 9)) : ask(`f${i}`, 55 + rnd.int(0, 15), rnd.int(1, 9));
    book.place(order);
    const h = ref.place(order).handle;
    refHandles.set(order.name, h);
    refNames.set(h, order.name);
    names.push(order.name);
  }
  const slotsAtPeak = book.book.internals().slotsUsed;
  assert.equal(slotsAtPeak, 6_000);
  const handlesBefore = new Map(names.map((n) => [n, book.handle(n)]));
  // Drain all but 300 in random order, as a mass cancel would.
  for (let i = names.length - 1; i > 0; i--) {
    const j = rnd.int(0, i);
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  for (const name of names.slice(300)) assert.equal(book.cancel(name), ref.cancel(refHandles.get(name)!), `cancel ${name}`);
  checkBookInvariants(book.book);
  assert.ok(book.book.internals().slotsUsed <= 1_024, `repacked to ${book.book.internals().slotsUsed} slots`);
  assert.equal(book.book.orderCount, 300);
  for (const name of names.slice(0, 300)) {
    assert.equal(book.handle(name), handlesBefore.get(name), `${name} keeps its handle`);
    assert.deepEqual(book.get(name), ref.get(refHandles.get(name)!), `get ${name}`);
  }
  assert.deepEqual(book.levels('bid'), ref.levels('bid'));
  assert.deepEqual(book.levels('ask'), ref.levels('ask'));
  // Sweeps fill the survivors in the same price-time order as the reference.
  for (const order of [bid('sweep-b', 99, 800, 'FAK'), ask('sweep-a', 1, 800, 'FAK')]) {
    const got = book.place(order);
    const want = ref.place(order);
    assert.deepEqual(got.fills, want.fills.map((f) => ({ maker: refNames.get(f.makerHandle)!, price: f.price, size: f.size, makerRemaining: f.makerRemaining })));
    assert.equal(got.remaining, want.remaining);
    checkBookInvariants(book.book);
  }
  assert.equal(book.book.orderCount, 0);
});

test('a crowded level grows its FIFO segment, slides its queue to the front, gives a long segment back when it empties', () => {
  const book = new NamedBook();
  for (let i = 0; i < 1_200; i++) book.place(ask(`a${i}`, 60, 1));
  book.place(ask('other', 61, 1));
  checkBookInvariants(book.book);
  assert.equal(book.book.internals().asks.at(-1)!.capacity, 2_048, 'grown by doubling');
  // Takers consume the front twice as fast as new quotes join the back: once the end of the segment is
  // reached with most of it consumed, the queue slides to the front instead of growing.
  for (let i = 0; i < 900; i++) {
    book.place(bid(`t${i}`, 60, 2, 'FAK'));
    book.place(ask(`n${i}`, 60, 1));
    if (i % 100 === 0) checkBookInvariants(book.book);
  }
  checkBookInvariants(book.book);
  const level = book.book.internals().asks.at(-1)!;
  assert.equal(level.capacity, 2_048, 'slid, not grown');
  assert.ok(level.head < 1_000, `queue slid to the front (head ${level.head})`);
  const fills = book.place(bid('sweep', 60, 10_000, 'FAK')).fills.map((f) => f.maker);
  assert.deepEqual([fills.length, fills[0], fills[1], fills.at(-1)], [300, 'n600', 'n601', 'n899']);
  checkBookInvariants(book.book);
  assert.equal(book.book.bestAsk(), c(61));
  // New levels take segments again (the long one went back to the arena's free lists): still consistent.
  for (let i = 0; i < 50; i++) book.place(ask(`z${i}`, 62 + (i % 5), 1));
  checkBookInvariants(book.book);
  assert.equal(book.book.orderCount, 51);
});
