import {
  PRICE_ONE,
  type BookSide,
  type Fill,
  type Level,
  type MarketBook,
  type OrderIn,
  type PlaceResult,
  type RestingOrder,
} from './types.js';
import { IdIndex } from './idIndex.js';

/**
 * The matching core, modelled on exchange-core's order bucket design:
 *
 * - each side keeps its non-empty price levels in one array sorted worst → best, so the best level is the
 *   last element (O(1) to read and to pop when it empties, which is what matching does all day); a price is
 *   found by binary search over a parallel Int32Array of keys, and new levels land near the touch, i.e. near
 *   the end, so inserts move little (on the deep benchmark book a new level moves ~20 entries on average).
 *   Direct indexing by price was weighed and left out: it would cost memory per price rather than per level
 *   and still need a search for the next best level, while level lookups are not where a deep book's time
 *   goes — cache misses on orders and on the id index are;
 * - each level is a FIFO queue built as an intrusive doubly linked list of its orders (time priority, O(1)
 *   append, O(1) unlink on cancel);
 * - one id → order hash index (`IdIndex`) gives O(1) cancel and lookup; each order keeps its id's hash, so
 *   removing a filled maker never re-reads its (by then cold) id string.
 *
 * Memory grows with the number of resting orders and levels, never with the price range, so a process can
 * hold thousands of books. Emptied levels and departed orders are pooled (bounded) so the hot path allocates
 * little beyond the fills and results the interface returns.
 */

/** Read-only view of a resting order inside the book (for invariant checks; never handed to services). */
export interface BookOrderView {
  readonly id: string;
  readonly side: BookSide;
  readonly price: number;
  readonly remaining: number;
  readonly prev: BookOrderView | null;
  readonly next: BookOrderView | null;
  readonly level: PriceLevelView;
}

/** Read-only view of a price level: cached totals plus the head and tail of its FIFO queue. */
export interface PriceLevelView {
  readonly price: number;
  readonly size: number;
  readonly count: number;
  readonly head: BookOrderView | null;
  readonly tail: BookOrderView | null;
}

/** The part of the id index the invariant check reads (a Map fits it too). */
export interface BookIndexView {
  readonly size: number;
  get(id: string): BookOrderView | undefined;
}

/** The book's internal structures, read-only, for `checkBookInvariants`. Levels are sorted worst → best. */
export interface OrderBookInternals {
  readonly bids: readonly PriceLevelView[];
  readonly asks: readonly PriceLevelView[];
  readonly index: BookIndexView;
  readonly orderCount: number;
}

/** Fields are mutable because order objects are pooled and reused once they leave the book. */
class BookOrder implements BookOrderView {
  prev: BookOrder | null = null;
  next: BookOrder | null = null;
  constructor(
    public id: string,
    /** `IdIndex.hashOf(id)`, kept so the index entry can be found without reading the id again. */
    public hash: number,
    public side: BookSide,
    public price: number,
    public remaining: number,
    public level: PriceLevel,
  ) {}
}

class PriceLevel implements PriceLevelView {
  size = 0;
  count = 0;
  head: BookOrder | null = null;
  tail: BookOrder | null = null;
  constructor(public price: number) {}
}

const LEVEL_POOL_MAX = 4_096;

/**
 * Levels kept worst → best; `sign` turns "better" into "greater" (bids: higher price, asks: lower). The sort
 * keys (sign × price) also live in a parallel Int32Array, so a binary search probes one small contiguous
 * array instead of reading a level object (a likely cache miss in a deep book) at every step.
 */
class SideLevels {
  readonly levels: PriceLevel[] = [];
  private keys = new Int32Array(64);
  private readonly pool: PriceLevel[] = [];
  constructor(private readonly sign: 1 | -1) {}

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** The level at `price`, created (in sorted position) when absent. */
  levelFor(price: number): PriceLevel {
    const levels = this.levels;
    const key = this.sign * price;
    const n = levels.length;
    // Fast path: a new best price (the common case for a quote improving the touch) or the best itself.
    if (n === 0 || this.keys[n - 1]! < key) {
      const level = this.newLevel(price);
      if (n === this.keys.length) this.growKeys();
      this.keys[n] = key;
      levels.push(level);
      return level;
    }
    const i = this.lowerBound(key, n);
    if (this.keys[i] === key) return levels[i]!;
    const level = this.newLevel(price);
    if (n === this.keys.length) this.growKeys();
    this.keys.copyWithin(i + 1, i, n);
    this.keys[i] = key;
    levels.splice(i, 0, level);
    return level;
  }

  /** Removes an empty level; the best one (the usual case after matching) is a pop. */
  remove(level: PriceLevel): void {
    const levels = this.levels;
    const n = levels.length;
    if (levels[n - 1] === level) levels.pop();
    else {
      const i = this.lowerBound(this.sign * level.price, n);
      this.keys.copyWithin(i, i + 1, n);
      levels.splice(i, 1);
    }
    level.head = level.tail = null;
    if (this.pool.length < LEVEL_POOL_MAX) this.pool.push(level);
  }

  /** First index below `n` whose key is ≥ `key` (keys are sorted ascending). */
  private lowerBound(key: number, n: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private growKeys(): void {
    const keys = new Int32Array(this.keys.length * 2);
    keys.set(this.keys);
    this.keys = keys;
  }

  private newLevel(price: number): PriceLevel {
    const level = this.pool.pop();
    if (level === undefined) return new PriceLevel(price);
    level.price = price;
    level.size = 0;
    level.count = 0;
    return level;
  }
}

const ORDER_POOL_MAX = 65_536;

export class OrderBook implements MarketBook {
  private readonly bids = new SideLevels(1);
  private readonly asks = new SideLevels(-1);
  private readonly index = new IdIndex<BookOrder>();
  /** Orders that left the book, reused by `append` (nothing outside the book holds them: `get` copies). */
  private readonly orderPool: BookOrder[] = [];

  get orderCount(): number {
    return this.index.size;
  }

  place(order: OrderIn): PlaceResult {
    const { id, side, price, size, tif } = order;
    checkOrder(id, side, price, size);
    if (tif !== 'GTC' && tif !== 'FAK' && tif !== 'FOK') throw new RangeError(`invalid time in force ${String(tif)} for ${id}: use GTC (also for GTD), FAK or FOK`);
    const index = this.index;
    const hash = IdIndex.hashOf(id);
    const missed = index.find(id, hash);
    if (missed >= 0) throw new Error(`order id ${id} is already on the book; ids must be unique per book`);
    if (tif === 'FOK' && this.fillable(side, price, size) < size) {
      return { fills: [], remaining: size, rested: false };
    }
    const version = index.version;
    const fills: Fill[] = [];
    const remaining = this.match(id, side, price, size, fills);
    if (remaining > 0 && tif === 'GTC') {
      // No fill moved an index entry (the usual passive quote): the slot the duplicate check found is still free.
      this.append(id, hash, side, price, remaining, missed, version);
      return { fills, remaining, rested: true };
    }
    return { fills, remaining, rested: false };
  }

  restore(order: RestingOrder): void {
    const { id, side, price, remaining } = order;
    checkOrder(id, side, price, remaining);
    const hash = IdIndex.hashOf(id);
    const missed = this.index.find(id, hash);
    if (missed >= 0) throw new Error(`cannot restore order ${id}: an order with that id is already on the book`);
    const opposite = side === 'bid' ? this.asks.best() : this.bids.best();
    if (opposite !== undefined && (side === 'bid' ? price >= opposite.price : price <= opposite.price)) {
      // A resting order that crosses the book means the stored state is corrupt; refusing beats a crossed book.
      throw new Error(`cannot restore ${side} ${id} at ${price}: it crosses the opposite best ${opposite.price}`);
    }
    this.append(id, hash, side, price, remaining, missed, this.index.version);
  }

  cancel(id: string): number | undefined {
    if (typeof id !== 'string') return undefined;
    const index = this.index;
    const slot = index.find(id, IdIndex.hashOf(id));
    if (slot < 0) return undefined;
    const order = index.valueAt(slot);
    index.removeAt(slot);
    const level = order.level;
    const { prev, next } = order;
    if (prev === null) level.head = next;
    else prev.next = next;
    if (next === null) level.tail = prev;
    else next.prev = prev;
    level.size -= order.remaining;
    level.count -= 1;
    if (level.count === 0) (order.side === 'bid' ? this.bids : this.asks).remove(level);
    const remaining = order.remaining;
    this.release(order);
    return remaining;
  }

  get(id: string): RestingOrder | undefined {
    if (typeof id !== 'string') return undefined;
    const order = this.index.get(id);
    if (order === undefined) return undefined;
    return { id: order.id, side: order.side, price: order.price, remaining: order.remaining };
  }

  levels(side: BookSide, depth?: number): Level[] {
    const levels = (side === 'bid' ? this.bids : this.asks).levels;
    // Omitted, NaN or beyond the book: every level; negative: none; fractional: rounded down.
    const n = depth === undefined || !(depth < levels.length) ? levels.length : Math.max(0, Math.floor(depth));
    const out: Level[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const level = levels[levels.length - 1 - i]!;
      out[i] = { price: level.price, size: level.size };
    }
    return out;
  }

  bestBid(): number | undefined {
    return this.bids.best()?.price;
  }

  bestAsk(): number | undefined {
    return this.asks.best()?.price;
  }

  fillable(side: BookSide, price: number, size: number): number {
    const isBid = side === 'bid';
    const levels = (isBid ? this.asks : this.bids).levels;
    let available = 0;
    for (let i = levels.length - 1; i >= 0 && available < size; i--) {
      const level = levels[i]!;
      if (isBid ? level.price > price : level.price < price) break;
      available += level.size;
    }
    return available < size ? available : size;
  }

  /** Read-only access to the internal structures, for `checkBookInvariants`. */
  internals(): OrderBookInternals {
    return { bids: this.bids.levels, asks: this.asks.levels, index: this.index, orderCount: this.orderCount };
  }

  /** Takes liquidity from the opposite side at the makers' prices; returns the taker's unfilled size. */
  private match(takerId: string, side: BookSide, limit: number, size: number, fills: Fill[]): number {
    const isBid = side === 'bid';
    const book = isBid ? this.asks : this.bids;
    const levels = book.levels;
    const index = this.index;
    let remaining = size;
    while (remaining > 0 && levels.length > 0) {
      const level = levels[levels.length - 1]!;
      const levelPrice = level.price;
      if (isBid ? levelPrice > limit : levelPrice < limit) break;
      let maker = level.head;
      while (maker !== null && remaining > 0) {
        const qty = maker.remaining < remaining ? maker.remaining : remaining;
        const makerRemaining = maker.remaining - qty;
        maker.remaining = makerRemaining;
        remaining -= qty;
        level.size -= qty;
        fills.push({ makerId: maker.id, takerId, price: levelPrice, size: qty, makerRemaining });
        if (makerRemaining > 0) break; // the taker is done; the maker keeps its place at the head
        index.removeAt(index.find(maker.id, maker.hash));
        level.count -= 1;
        const next = maker.next;
        this.release(maker);
        maker = next;
      }
      level.head = maker;
      if (maker === null) {
        level.tail = null;
        book.remove(level);
      } else {
        maker.prev = null;
      }
    }
    return remaining;
  }

  private release(order: BookOrder): void {
    order.prev = order.next = null;
    // Bounded, so a one-off flood of orders does not stay pinned in memory after it drained.
    if (this.orderPool.length < ORDER_POOL_MAX) this.orderPool.push(order);
  }

  /** Rests an order; `missed` and `version` are the id's empty index slot from `find` and the index version then. */
  private append(id: string, hash: number, side: BookSide, price: number, size: number, missed: number, version: number): void {
    const level = (side === 'bid' ? this.bids : this.asks).levelFor(price);
    let order = this.orderPool.pop();
    if (order === undefined) order = new BookOrder(id, hash, side, price, size, level);
    else {
      order.id = id;
      order.hash = hash;
      order.side = side;
      order.price = price;
      order.remaining = size;
      order.level = level;
    }
    const tail = level.tail;
    if (tail === null) level.head = order;
    else {
      tail.next = order;
      order.prev = tail;
    }
    level.tail = order;
    level.size += size;
    level.count += 1;
    this.index.insertAt(missed, version, id, hash, order);
  }
}

/** The services validate every order; this guard only keeps a programming error from corrupting a book. */
function checkOrder(id: string, side: BookSide, price: number, size: number): void {
  if (
    !(price > 0 && price < PRICE_ONE && Number.isInteger(price)) ||
    !(size > 0 && Number.isSafeInteger(size)) ||
    (side !== 'bid' && side !== 'ask') ||
    typeof id !== 'string'
  ) {
    throw new RangeError(
      `invalid book order ${String(id)}: side must be bid|ask, price an integer in (0, ${PRICE_ONE}), size a positive safe integer (got ${side} ${price} × ${size})`,
    );
  }
}

export function createOrderBook(): MarketBook {
  return new OrderBook();
}
