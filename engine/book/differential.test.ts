// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderBook } from './orderBook.js';
import { ReferenceMatcher } from './referenceMatcher.js';
import { checkBookInvariants } from './invariants.js';
import { createSeededRandom, type SeededRandom } from './seededRandom.js';
import { NEVER_ISSUED } from './namedBook.js';
import type { BookSide, MarketBook, OrderHandle, PlaceResult, TimeInForce } from './types.js';

/**
 * Differential test: one seeded stream of random operations is applied to the fast OrderBook and to the
 * naive ReferenceMatcher; every result and the whole visible book must agree after every operation.
 * Prices live on a narrow band of ticks so that orders cross, queue at the same price and sweep levels
 * all the time; cancels hit live orders, dead (filled/cancelled/killed) ones and ids never seen.
 *
 * Each side hands out its own handles, so the test names orders (o0, o1, …) and keeps, per side, the
 * name → handle and handle → name maps a caller such as the order service keeps. A name keeps its handle
 * after its order left the book, so cancels and reads of dead orders send the book STALE handles, whose
 * table entries have usually been reused by newer orders by then: the book must refuse them.
 */
class Side {
  readonly handles = new Map<string, OrderHandle>();
  readonly names = new Map<OrderHandle, string>();
  constructor(readonly book: MarketBook) {}

  handle(name: string): OrderHandle {
    return this.handles.get(name) ?? NEVER_ISSUED;
  }

  remember(name: string, handle: OrderHandle): void {
    assert.ok(!this.names.has(handle), `handle ${handle} handed out twice`);
    this.handles.set(name, handle);
    this.names.set(handle, name);
  }

  /** A place result in names: the fills' makers, the remainder and whether (and under a fresh handle) it rests. */
  named(name: string, r: PlaceResult): unknown {
    if (r.rested) this.remember(name, r.handle);
    assert.equal(r.handle >= 0, r.rested, `${name}: a handle exactly when rested`);
    const maker = (h: OrderHandle) => this.names.get(h) ?? assert.fail(`${name}: a fill names handle ${h}, which no order got`);
    return { fills: r.fills.map((f) => ({ ...f, makerHandle: maker(f.makerHandle) })), remaining: r.remaining, rested: r.rested };
  }
}
const OPERATIONS = 100_000;
const TICK = 10_000; // one cent
const MID_TICKS = 50;
const BAND_TICKS = 12;

interface Counters {
  fills: number;
  rested: number;
  fokKilled: number;
  cancelsLive: number;
  cancelsDead: number;
  restores: number;
  maxResting: number;
}

function runStream(seed: number, operations: number): Counters {
  const rnd = createSeededRandom(seed);
  const book = new OrderBook();
  const ref = new ReferenceMatcher();
  const ours = new Side(book);
  const theirs = new Side(ref);
  const ids: string[] = [];
  const restedIds: string[] = [];
  const counters: Counters = { fills: 0, rested: 0, fokKilled: 0, cancelsLive: 0, cancelsDead: 0, restores: 0, maxResting: 0 };
  let nextId = 0;

  // copyLevels reuses its arrays, as the market stream does.
  const copied = { prices: [] as number[], sizes: [] as number[] };
  for (let op = 0; op < operations; op++) {
    const at = `seed ${seed}, op ${op}`;
    const roll = rnd.next();
    // Like market makers pulling stale quotes: cancel more when the book is deep, so it stays realistic.
    const cancelShare = book.orderCount > 200 ? 0.35 : 0.1;
    if (roll < cancelShare && ids.length > 0) {
      // Mostly live resting orders, some ids of any kind (mostly dead by now), a few never seen.
      const pick = rnd.next();
      const id = pick < 0.7 ? pickLive(rnd, restedIds, ours) ?? ids[0]! : pick < 0.95 ? ids[rnd.int(0, ids.length - 1)]! : `never-${op}`;
      const got = book.cancel(ours.handle(id));
      assert.equal(got, ref.cancel(theirs.handle(id)), `${at}: cancel ${id}`);
      if (got === undefined) counters.cancelsDead++;
      else counters.cancelsLive++;
    } else if (roll < cancelShare + 0.03) {
      // Restore only behind the opposite touch, as a startup rebuild would (a stored book is never crossed).
      const side: BookSide = rnd.next() < 0.5 ? 'bid' : 'ask';
      const opposite = side === 'bid' ? book.bestAsk() : book.bestBid();
      const price = randomPrice(rnd);
      if (opposite !== undefined && (side === 'bid' ? price >= opposite : price <= opposite)) continue;
      const order = { side, price, remaining: randomSize(rnd) };
      const id = `o${nextId++}`;
      ours.remember(id, book.restore(order));
      theirs.remember(id, ref.restore(order));
      ids.push(id);
      restedIds.push(id);
      counters.restores++;
    } else {
      const tifRoll = rnd.next();
      const tif: TimeInForce = tifRoll < 0.7 ? 'GTC' : tifRoll < 0.85 ? 'FAK' : 'FOK';
      const order = { side: (rnd.next() < 0.5 ? 'bid' : 'ask') as BookSide, price: randomPrice(rnd), size: randomSize(rnd), tif };
      const id = `o${nextId++}`;
      const got = book.place(order);
      const want = ref.place(order);
      assert.deepEqual(ours.named(id, got), theirs.named(id, want), `${at}: place ${id} ${JSON.stringify(order)}`);
      ids.push(id);
      counters.fills += got.fills.length;
      if (got.rested) {
        counters.rested++;
        restedIds.push(id);
      }
      if (tif === 'FOK' && got.fills.length === 0) counters.fokKilled++;
    }

    checkBookInvariants(book);
    assert.deepEqual(book.levels('bid'), ref.levels('bid'), `${at}: bids`);
    assert.deepEqual(book.levels('ask'), ref.levels('ask'), `${at}: asks`);
    for (const side of ['bid', 'ask'] as const) {
      book.copyLevels(side, copied.prices, copied.sizes);
      assert.deepEqual(copied.prices.map((price, i) => ({ price, size: copied.sizes[i] })), ref.levels(side), `${at}: copyLevels ${side}`);
    }
    assert.equal(book.orderCount, ref.orderCount, `${at}: orderCount`);
    if (op % 16 === 0) {
      const side: BookSide = rnd.next() < 0.5 ? 'bid' : 'ask';
      const price = randomPrice(rnd);
      const size = randomSize(rnd) * 3;
      assert.equal(book.fillable(side, price, size), ref.fillable(side, price, size), `${at}: fillable ${side} ${price} ${size}`);
      const id = ids[rnd.int(0, ids.length - 1)];
      if (id !== undefined) assert.deepEqual(book.get(ours.handle(id)), ref.get(theirs.handle(id)), `${at}: get ${id}`);
    }
    // Keep the id list (and the reference's linear scans) bounded.
    if (ids.length > 4_000) ids.splice(0, 2_000);
    counters.maxResting = Math.max(counters.maxResting, book.orderCount);
  }
  return counters;
}

/** A random id still on the book; ids found dead are dropped from the list on the way. */
function pickLive(rnd: SeededRandom, restedIds: string[], ours: Side): string | undefined {
  while (restedIds.length > 0) {
    const k = rnd.int(0, restedIds.length - 1);
    const id = restedIds[k]!;
    if (ours.book.get(ours.handle(id)) !== undefined) return id;
    restedIds[k] = restedIds[restedIds.length - 1]!;
    restedIds.pop();
  }
  return undefined;
}

function randomPrice(rnd: SeededRandom): number {
  return (MID_TICKS + rnd.int(-BAND_TICKS, BAND_TICKS)) * TICK;
}

/** Mostly small sizes with an occasional large sweep, in whole and odd micro-units. */
function randomSize(rnd: SeededRandom): number {
  return rnd.next() < 0.9 ? rnd.int(1, 50) * 100_000 : rnd.int(1, 5_000_000);
}

test('OrderBook agrees with the reference matcher on 100,000 random operations (all TIFs, cancels, restores)', () => {
  const counters = runStream(20_240_611, OPERATIONS);
  // The stream must really exercise the interesting paths, or agreement proves little.
  assert.ok(counters.fills > 20_000, `fills ${counters.fills}`);
  assert.ok(counters.rested > 10_000, `rested ${counters.rested}`);
  assert.ok(counters.fokKilled > 1_000, `FOK kills ${counters.fokKilled}`);
  assert.ok(counters.cancelsLive > 5_000, `live cancels ${counters.cancelsLive}`);
  assert.ok(counters.cancelsDead > 2_000, `dead cancels ${counters.cancelsDead}`);
  assert.ok(counters.restores > 500, `restores ${counters.restores}`);
  assert.ok(counters.maxResting > 100, `deepest book ${counters.maxResting} orders`);
});

test('OrderBook agrees with the reference matcher on a second, differently seeded stream', () => {
  runStream(7, 20_000);
});
