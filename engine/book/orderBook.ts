import {
  PRICE_ONE,
  type BookSide,
  type Fill,
  type Level,
  type MarketBook,
  type OrderHandle,
  type OrderIn,
  type PlaceResult,
  type QueuePosition,
  type RestingOrder,
} from './types.js';
import { HandleTable } from './handleTable.js';
import { PriceLadder } from './priceLadder.js';

/**
 * The matching core. A deep book (tens of thousands of resting orders) spends its time on cache misses, not
 * on arithmetic, so the layout is built around touching as few cache lines per message as possible, and
 * around giving the garbage collector nothing to trace or copy (a fresh book built up object by object in
 * the young generation pays for promoting every one of them):
 *
 * - orders live in slots of one ArrayBuffer, 16 bytes each (remaining size, level, handle index): reading
 *   or updating an order is one cache line, and sizes are raw doubles (a JS object boxes any size above the
 *   small-integer range in a separate heap number). Freed slots are reused last-in first-out, so a new order
 *   usually lands in a line that is still cached;
 * - each price level is a 64-byte record in another buffer (cached size, live and cancelled counts, price,
 *   side, FIFO head and tail) plus a flat FIFO of order slots: a segment of one arena Int32Array shared by
 *   all levels (power-of-two segments, recycled through free lists). Time priority is the array order,
 *   appending is a store, and walking a queue reads consecutive slots;
 * - each side's levels sit in a `PriceLadder` sorted worst → best, so the best level is the last entry;
 * - a cancel is LAZY: it releases the order's handle, sets the slot's bit in a cancelled-slot bitset and
 *   adjusts the level's cached size and counts, without touching the queue. Matching skips and frees
 *   cancelled slots when it reaches them (a bit test, no order read); a level is compacted when cancelled
 *   slots outnumber its live orders (a pass over its FIFO and the bitset, so memory stays within about twice
 *   the live orders), and freed whole when its last live order goes;
 * - orders are named by book-assigned integer handles (`HandleTable`: handle → slot in one Int32Array,
 *   generation-checked so a stale handle names nothing): cancel and lookup are an array read, a new order
 *   needs no duplicate check (the book hands out the handles), and no id string is ever hashed or compared.
 *
 * Memory grows with resting orders and levels, never with the price range, so a process can hold thousands
 * of books; after a flood drains, the order storage is repacked to fit (see `maybeRepack`).
 */

// Order slot s, 16 bytes: f64[2s] remaining, i32[4s + O_*].
const O_LEVEL = 2;
/** The order's index in the handle table. */
const O_HANDLE = 3;
const ORDER_MIN_SLOTS = 64;
/** Order storage at least this large is repacked when fewer than an eighth of its slots are in use. */
const REPACK_MIN_SLOTS = 4_096;

// Level slot l, 64 bytes (one cache line): f64[8l] total remaining of its live orders, i32[16l + L_*]. Its FIFO
// is the segment fifo[base … base + cap) of one arena shared by all levels (a typed array per level would cost
// a cache miss on that array's own header at every access).
const L_PRICE = 2;
const L_LIVE = 3;
const L_DEAD = 4;
/** Position of the queue's first entry in the level's FIFO array. */
const L_HEAD = 5;
/** Position after the queue's last entry. */
const L_TAIL = 6;
const L_SIDE = 7; // 0 bid, 1 ask
const L_BASE = 8;
const L_CAP = 9;
const LEVEL_SHIFT = 4; // i32 per level = 1 << LEVEL_SHIFT
const LEVEL_MIN_SLOTS = 16;
/** FIFO segments come in power-of-two sizes from this one up. */
const FIFO_MIN = 8;
/** A segment this long is returned to the arena when its level empties (a one-off crowd should not pin it). */
const FIFO_KEEP_MAX = 1_024;
/** A level is compacted when its cancelled slots reach this many and outnumber its live orders. */
const COMPACT_MIN_DEAD = 8;

/** A view of one order slot, for `checkBookInvariants` and the tests that corrupt a book on purpose. */
export interface OrderSlotView {
  readonly slot: number;
  /** Its index in the handle table (the handle's index part). */
  handleIndex: number;
  remaining: number;
  level: number;
  /** Set while the order is cancelled but still queued (waiting to be skipped or compacted away). */
  cancelled: boolean;
}

/** A view of one price level (its record, its FIFO and its entry in the side's ladder). */
export interface PriceLevelView {
  /** The level's slot in the level storage. */
  readonly slot: number;
  /** Its sort key in the ladder: sign × price. */
  key: number;
  price: number;
  side: BookSide;
  /** Cached total remaining of its live orders. */
  size: number;
  /** Cached number of live orders. */
  count: number;
  /** Cached number of cancelled orders still queued. */
  dead: number;
  /** The queue lies in FIFO positions head … tail − 1. */
  head: number;
  tail: number;
  /** Start and length of its FIFO segment in the arena. */
  base: number;
  capacity: number;
  /** The order slot at a FIFO position. */
  entry(position: number): number;
  setEntry(position: number, slot: number): void;
}

/** The book's internal structures, for `checkBookInvariants`. Levels are listed worst → best. */
export interface OrderBookInternals {
  readonly bids: readonly PriceLevelView[];
  readonly asks: readonly PriceLevelView[];
  readonly handles: HandleTable;
  order(slot: number): OrderSlotView;
  /** Order slots handed out since the last repack: slots 0 … slotsUsed − 1 exist. */
  readonly slotsUsed: number;
  /** Order slots free for reuse. */
  readonly freeSlots: readonly number[];
  /** Length of the FIFO arena: segments lie within it. */
  readonly fifoArenaLength: number;
  readonly orderCount: number;
}

export class OrderBook implements MarketBook {
  private readonly bids = new PriceLadder(1);
  private readonly asks = new PriceLadder(-1);

  private ordF = new Float64Array(ORDER_MIN_SLOTS * 2);
  private ordI = new Int32Array(this.ordF.buffer);
  /** Bit s set: slot s holds a cancelled order still queued on its level. */
  private cancelled = new Int32Array(ORDER_MIN_SLOTS >> 5);
  /** Slots handed out so far (the high-water mark); freed ones wait in `ordFree`. */
  private ordTop = 0;
  private ordFree = new Int32Array(ORDER_MIN_SLOTS);
  private ordFreeN = 0;
  private readonly handles = new HandleTable();

  private lvF = new Float64Array(LEVEL_MIN_SLOTS << (LEVEL_SHIFT - 1));
  private lvI = new Int32Array(this.lvF.buffer);
  private fifo = new Int32Array(LEVEL_MIN_SLOTS * FIFO_MIN);
  private fifoTop = 0;
  /** Free FIFO segments by size class (FIFO_MIN << class): starts. */
  private readonly fifoFree: number[][] = [];
  private lvTop = 0;
  private lvFree = new Int32Array(LEVEL_MIN_SLOTS);
  private lvFreeN = 0;

  get orderCount(): number {
    return this.handles.size;
  }

  place(order: OrderIn): PlaceResult {
    const { side, price, size, tif } = order;
    checkOrder(side, price, size);
    if (tif !== 'GTC' && tif !== 'FAK' && tif !== 'FOK') throw new RangeError(`invalid time in force ${String(tif)}: use GTC (also for GTD), FAK or FOK`);
    const isBid = side === 'bid';
    // Before any fill: an order that could not rest its remainder must not have traded either.
    if (tif === 'GTC') this.handles.assertRoom();
    if (tif === 'FOK' && this.fillable(side, price, size) < size) {
      return { fills: [], remaining: size, rested: false, handle: -1 };
    }
    const fills: Fill[] = [];
    const remaining = this.match(isBid, price, size, fills);
    if (fills.length > 0) this.maybeRepack();
    if (remaining > 0 && tif === 'GTC') {
      return { fills, remaining, rested: true, handle: this.append(isBid, price, remaining) };
    }
    return { fills, remaining, rested: false, handle: -1 };
  }

  restore(order: RestingOrder): OrderHandle {
    const { side, price, remaining } = order;
    checkOrder(side, price, remaining);
    const opposite = side === 'bid' ? this.bestAsk() : this.bestBid();
    if (opposite !== undefined && (side === 'bid' ? price >= opposite : price <= opposite)) {
      // A resting order that crosses the book means the stored state is corrupt; refusing beats a crossed book.
      throw new Error(`cannot restore ${side} at ${price}: it crosses the opposite best ${opposite}`);
    }
    this.handles.assertRoom();
    return this.append(side === 'bid', price, remaining);
  }

  cancel(handle: OrderHandle): number | undefined {
    const handles = this.handles;
    const i = handles.indexOf(handle);
    if (i < 0) return undefined;
    const s = handles.slotAt(i);
    handles.releaseIndex(i);
    const remaining = this.ordF[s << 1]!;
    const lv = this.ordI[(s << 2) + O_LEVEL]!;
    this.cancelled[s >> 5] = this.cancelled[s >> 5]! | (1 << (s & 31));
    const lvI = this.lvI;
    const b = lv << LEVEL_SHIFT;
    const live = lvI[b + L_LIVE]! - 1;
    if (live === 0) {
      this.dropLevel(lv);
    } else {
      lvI[b + L_LIVE] = live;
      this.lvF[lv << (LEVEL_SHIFT - 1)] = this.lvF[lv << (LEVEL_SHIFT - 1)]! - remaining;
      const dead = lvI[b + L_DEAD]! + 1;
      lvI[b + L_DEAD] = dead;
      if (dead >= COMPACT_MIN_DEAD && dead > live) this.compact(lv);
    }
    this.maybeRepack();
    return remaining;
  }

  reduce(handle: OrderHandle, size: number): number | undefined {
    if (!(size > 0 && Number.isSafeInteger(size))) throw new RangeError(`invalid reduction: size must be a positive safe integer (got ${size})`);
    const s = this.handles.slotOf(handle);
    if (s < 0) return undefined;
    const remaining = this.ordF[s << 1]!;
    if (size >= remaining) {
      this.cancel(handle);
      return 0;
    }
    this.ordF[s << 1] = remaining - size;
    const lv = this.ordI[(s << 2) + O_LEVEL]!;
    this.lvF[lv << (LEVEL_SHIFT - 1)] = this.lvF[lv << (LEVEL_SHIFT - 1)]! - size;
    return remaining - size;
  }

  get(handle: OrderHandle): RestingOrder | undefined {
    const s = this.handles.slotOf(handle);
    if (s < 0) return undefined;
    const b = this.ordI[(s << 2) + O_LEVEL]! << LEVEL_SHIFT;
    return {
      side: this.lvI[b + L_SIDE] === 0 ? 'bid' : 'ask',
      price: this.lvI[b + L_PRICE]!,
      remaining: this.ordF[s << 1]!,
    };
  }

  queuePosition(handle: OrderHandle): QueuePosition | undefined {
    const s = this.handles.slotOf(handle);
    if (s < 0) return undefined;
    const lv = this.ordI[(s << 2) + O_LEVEL]!;
    const b = lv << LEVEL_SHIFT;
    const base = this.lvI[b + L_BASE]!;
    const end = base + this.lvI[b + L_TAIL]!;
    const fifo = this.fifo;
    const cancelled = this.cancelled;
    // Walk the queue from its head: live orders before this one count, lazily cancelled slots do not.
    let ahead = 0;
    for (let r = base + this.lvI[b + L_HEAD]!; r < end; r++) {
      const q = fifo[r]!;
      if (q === s) return { ahead, levelSize: this.lvF[lv << (LEVEL_SHIFT - 1)]! };
      if ((cancelled[q >> 5]! & (1 << (q & 31))) === 0) ahead += this.ordF[q << 1]!;
    }
    throw new Error(`order slot ${s} is missing from its level's queue`);
  }

  remainingOf(handle: OrderHandle): number | undefined {
    const s = this.handles.slotOf(handle);
    return s < 0 ? undefined : this.ordF[s << 1]!;
  }

  isLastInLevel(handle: OrderHandle): boolean {
    const s = this.handles.slotOf(handle);
    return s >= 0 && this.isBackOfQueue(s);
  }

  growBack(handle: OrderHandle, size: number): boolean {
    if (!(size > 0 && Number.isSafeInteger(size))) throw new RangeError(`invalid growth: size must be a positive safe integer (got ${size})`);
    const s = this.handles.slotOf(handle);
    if (s < 0 || !this.isBackOfQueue(s)) return false;
    const grown = this.ordF[s << 1]! + size;
    if (!Number.isSafeInteger(grown)) throw new RangeError(`invalid growth: the order would hold ${grown}, beyond a safe integer`);
    this.ordF[s << 1] = grown;
    const lv = this.ordI[(s << 2) + O_LEVEL]!;
    this.lvF[lv << (LEVEL_SHIFT - 1)] = this.lvF[lv << (LEVEL_SHIFT - 1)]! + size;
    return true;
  }

  /** True when no live order queues behind the order in slot `s` at its price. */
  private isBackOfQueue(s: number): boolean {
    const b = this.ordI[(s << 2) + O_LEVEL]! << LEVEL_SHIFT;
    const base = this.lvI[b + L_BASE]!;
    const fifo = this.fifo;
    const cancelled = this.cancelled;
    // From the back: lazily cancelled slots behind it do not count (usually the first slot read is the order).
    for (let r = base + this.lvI[b + L_TAIL]! - 1; r >= base + this.lvI[b + L_HEAD]!; r--) {
      const q = fifo[r]!;
      if (q === s) return true;
      if ((cancelled[q >> 5]! & (1 << (q & 31))) === 0) return false;
    }
    throw new Error(`order slot ${s} is missing from its level's queue`);
  }

  levels(side: BookSide, depth?: number): Level[] {
    const ladder = side === 'bid' ? this.bids : this.asks;
    const total = ladder.n;
    // Omitted, NaN or beyond the book: every level; negative: none; fractional: rounded down.
    const n = depth === undefined || !(depth < total) ? total : Math.max(0, Math.floor(depth));
    const out: Level[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const lv = ladder.levels[total - 1 - i]!;
      out[i] = { price: this.lvI[(lv << LEVEL_SHIFT) + L_PRICE]!, size: this.lvF[lv << (LEVEL_SHIFT - 1)]! };
    }
    return out;
  }

  copyLevels(side: BookSide, prices: number[], sizes: number[]): number {
    const ladder = side === 'bid' ? this.bids : this.asks;
    const n = ladder.n;
    prices.length = n;
    sizes.length = n;
    for (let i = 0; i < n; i++) {
      const lv = ladder.levels[n - 1 - i]!;
      prices[i] = this.lvI[(lv << LEVEL_SHIFT) + L_PRICE]!;
      sizes[i] = this.lvF[lv << (LEVEL_SHIFT - 1)]!;
    }
    return n;
  }

  bestBid(): number | undefined {
    return this.bestPrice(this.bids);
  }

  bestAsk(): number | undefined {
    return this.bestPrice(this.asks);
  }

  fillable(side: BookSide, price: number, size: number): number {
    const isBid = side === 'bid';
    const ladder = isBid ? this.asks : this.bids;
    const levels = ladder.levels;
    const lvI = this.lvI;
    const lvF = this.lvF;
    let available = 0;
    for (let i = ladder.n - 1; i >= 0 && available < size; i--) {
      const lv = levels[i]!;
      const levelPrice = lvI[(lv << LEVEL_SHIFT) + L_PRICE]!;
      if (isBid ? levelPrice > price : levelPrice < price) break;
      available += lvF[lv << (LEVEL_SHIFT - 1)]!;
    }
    return available < size ? available : size;
  }

  /** Views of the internal structures, for `checkBookInvariants` (setters write through, for corruption tests). */
  internals(): OrderBookInternals {
    const sideViews = (ladder: PriceLadder) => {
      const views: PriceLevelView[] = [];
      for (let i = 0; i < ladder.n; i++) views.push(new OrderBook.LevelView(this, ladder, i, ladder.levels[i]!));
      return views;
    };
    return {
      bids: sideViews(this.bids),
      asks: sideViews(this.asks),
      handles: this.handles,
      order: (slot) => new OrderBook.OrderView(this, slot),
      slotsUsed: this.ordTop,
      freeSlots: Array.from(this.ordFree.subarray(0, this.ordFreeN)),
      fifoArenaLength: this.fifo.length,
      orderCount: this.orderCount,
    };
  }

  /** Takes liquidity from the opposite side at the makers' prices; returns the taker's unfilled size. */
  private match(isBid: boolean, limit: number, size: number, fills: Fill[]): number {
    const ladder = isBid ? this.asks : this.bids;
    const handles = this.handles;
    const ordF = this.ordF;
    const ordI = this.ordI;
    const cancelled = this.cancelled;
    const lvI = this.lvI;
    let remaining = size;
    while (remaining > 0 && ladder.n > 0) {
      const lv = ladder.levels[ladder.n - 1]!;
      const b = lv << LEVEL_SHIFT;
      const levelPrice = lvI[b + L_PRICE]!;
      if (isBid ? levelPrice > limit : levelPrice < limit) break;
      const fifo = this.fifo;
      const base = lvI[b + L_BASE]!;
      let live = lvI[b + L_LIVE]!;
      let dead = lvI[b + L_DEAD]!;
      let levelSize = this.lvF[lv << (LEVEL_SHIFT - 1)]!;
      let at = lvI[b + L_HEAD]!;
      for (;;) {
        const s = fifo[base + at]!;
        const bit = 1 << (s & 31);
        if ((cancelled[s >> 5]! & bit) !== 0) {
          // Cancelled while queued: free it now that matching reached it.
          cancelled[s >> 5]! &= ~bit;
          this.freeSlot(s);
          dead--;
          at++;
          continue;
        }
        const makerRemaining = ordF[s << 1]!;
        const qty = makerRemaining < remaining ? makerRemaining : remaining;
        const left = makerRemaining - qty;
        remaining -= qty;
        levelSize -= qty;
        const hi = ordI[(s << 2) + O_HANDLE]!;
        fills.push({ makerHandle: handles.handleAt(hi), price: levelPrice, size: qty, makerRemaining: left });
        if (left > 0) {
          ordF[s << 1] = left; // the taker is done; the maker keeps its place at the head
          break;
        }
        handles.releaseIndex(hi);
        this.freeSlot(s);
        at++;
        if (--live === 0 || remaining === 0) break;
      }
      if (live === 0) {
        // Whatever is still queued was cancelled: free it with the level.
        this.freeQueue(base + at, base + lvI[b + L_TAIL]!);
        this.releaseLevel(lv);
        ladder.n--;
      } else {
        lvI[b + L_HEAD] = at;
        lvI[b + L_LIVE] = live;
        lvI[b + L_DEAD] = dead;
        this.lvF[lv << (LEVEL_SHIFT - 1)] = levelSize;
      }
    }
    return remaining;
  }

  /** Rests an order at the back of its level's queue; returns its new handle. */
  private append(isBid: boolean, price: number, size: number): OrderHandle {
    const lv = this.levelFor(isBid, price);
    const s = this.allocSlot();
    const hi = this.handles.issue(s);
    this.ordF[s << 1] = size;
    this.ordI[(s << 2) + O_LEVEL] = lv;
    this.ordI[(s << 2) + O_HANDLE] = hi;
    const lvI = this.lvI;
    const b = lv << LEVEL_SHIFT;
    let tail = lvI[b + L_TAIL]!;
    if (tail === lvI[b + L_CAP]) {
      this.makeRoom(lv);
      tail = lvI[b + L_TAIL]!;
    }
    this.fifo[lvI[b + L_BASE]! + tail] = s;
    lvI[b + L_TAIL] = tail + 1;
    lvI[b + L_LIVE] = lvI[b + L_LIVE]! + 1;
    this.lvF[lv << (LEVEL_SHIFT - 1)] = this.lvF[lv << (LEVEL_SHIFT - 1)]! + size;
    return this.handles.handleAt(hi);
  }

  /** A level's FIFO segment is full at its end: slide the queue to the front when that frees half, else move it to a segment twice as long. */
  private makeRoom(lv: number): void {
    const b = lv << LEVEL_SHIFT;
    const lvI = this.lvI;
    const head = lvI[b + L_HEAD]!;
    const tail = lvI[b + L_TAIL]!;
    const base = lvI[b + L_BASE]!;
    const cap = lvI[b + L_CAP]!;
    if ((tail - head) * 2 <= cap) this.fifo.copyWithin(base, base + head, base + tail);
    else {
      const bigger = this.allocSegment(cap * 2); // may replace the arena
      this.fifo.copyWithin(bigger, base + head, base + tail);
      this.freeSegment(base, cap);
      lvI[b + L_BASE] = bigger;
      lvI[b + L_CAP] = cap * 2;
    }
    lvI[b + L_HEAD] = 0;
    lvI[b + L_TAIL] = tail - head;
  }

  /** Start of a free FIFO segment of `cap` entries (a power-of-two multiple of FIFO_MIN), growing the arena if needed. */
  private allocSegment(cap: number): number {
    const free = this.fifoFree[sizeClass(cap)];
    if (free !== undefined && free.length > 0) return free.pop()!;
    const start = this.fifoTop;
    if (start + cap > this.fifo.length) {
      let length = this.fifo.length * 2;
      while (start + cap > length) length *= 2;
      const arena = new Int32Array(length);
      arena.set(this.fifo);
      this.fifo = arena;
    }
    this.fifoTop = start + cap;
    return start;
  }

  private freeSegment(start: number, cap: number): void {
    const k = sizeClass(cap);
    while (this.fifoFree.length <= k) this.fifoFree.push([]);
    this.fifoFree[k]!.push(start);
  }

  /** The level at `price` on one side, created (in sorted position) when absent. */
  private levelFor(isBid: boolean, price: number): number {
    const ladder = isBid ? this.bids : this.asks;
    const key = isBid ? price : -price;
    const at = ladder.find(key);
    if (at >= 0) return ladder.levels[at]!;
    const lv = this.allocLevel();
    const b = lv << LEVEL_SHIFT;
    const lvI = this.lvI;
    this.lvF[lv << (LEVEL_SHIFT - 1)] = 0;
    lvI[b + L_PRICE] = price;
    lvI[b + L_LIVE] = 0;
    lvI[b + L_DEAD] = 0;
    lvI[b + L_HEAD] = 0;
    lvI[b + L_TAIL] = 0;
    lvI[b + L_SIDE] = isBid ? 0 : 1;
    ladder.insertAt(-1 - at, key, lv);
    return lv;
  }

  /** Removes a level whose last live order was cancelled: frees its queue and takes it off its ladder. */
  private dropLevel(lv: number): void {
    const lvI = this.lvI;
    const b = lv << LEVEL_SHIFT;
    const base = lvI[b + L_BASE]!;
    this.freeQueue(base + lvI[b + L_HEAD]!, base + lvI[b + L_TAIL]!);
    const isBid = lvI[b + L_SIDE] === 0;
    const ladder = isBid ? this.bids : this.asks;
    const price = lvI[b + L_PRICE]!;
    ladder.removeAt(ladder.find(isBid ? price : -price));
    this.releaseLevel(lv);
  }

  /** Drops a level's cancelled slots from its FIFO (and frees them), keeping the live ones in order. */
  private compact(lv: number): void {
    const cancelled = this.cancelled;
    const fifo = this.fifo;
    const b = lv << LEVEL_SHIFT;
    const base = this.lvI[b + L_BASE]!;
    const end = base + this.lvI[b + L_TAIL]!;
    let w = base;
    for (let r = base + this.lvI[b + L_HEAD]!; r < end; r++) {
      const s = fifo[r]!;
      const bit = 1 << (s & 31);
      if ((cancelled[s >> 5]! & bit) !== 0) {
        cancelled[s >> 5]! &= ~bit;
        this.freeSlot(s);
      } else fifo[w++] = s;
    }
    this.lvI[b + L_HEAD] = 0;
    this.lvI[b + L_TAIL] = w - base;
    this.lvI[b + L_DEAD] = 0;
  }

  /** Frees the slots at arena positions from … to − 1 (all of them cancelled, or their level is going). */
  private freeQueue(from: number, to: number): void {
    const cancelled = this.cancelled;
    const fifo = this.fifo;
    for (let r = from; r < to; r++) {
      const s = fifo[r]!;
      cancelled[s >> 5]! &= ~(1 << (s & 31));
      this.freeSlot(s);
    }
  }

  private bestPrice(ladder: PriceLadder): number | undefined {
    return ladder.n === 0 ? undefined : this.lvI[(ladder.levels[ladder.n - 1]! << LEVEL_SHIFT) + L_PRICE];
  }

  private allocSlot(): number {
    if (this.ordFreeN > 0) return this.ordFree[--this.ordFreeN]!;
    if (this.ordTop === this.ordFree.length) this.resizeOrders(this.ordFree.length * 2);
    return this.ordTop++;
  }

  private freeSlot(s: number): void {
    this.ordFree[this.ordFreeN++] = s;
  }

  private resizeOrders(slots: number): void {
    const ordF = new Float64Array(slots * 2);
    ordF.set(this.ordF);
    this.ordF = ordF;
    this.ordI = new Int32Array(ordF.buffer);
    const cancelled = new Int32Array(slots >> 5);
    cancelled.set(this.cancelled);
    this.cancelled = cancelled;
    const free = new Int32Array(slots);
    free.set(this.ordFree.subarray(0, this.ordFreeN));
    this.ordFree = free;
  }

  /**
   * After a flood drained (fewer than an eighth of a large storage's slots in use), moves the live orders to
   * the front of a storage sized for them, level by level in FIFO order, and drops cancelled ones, so a book
   * does not keep memory sized for its busiest moment. Amortised: the storage was used 4× more since it grew.
   */
  private maybeRepack(): void {
    const capacity = this.ordFree.length;
    if (capacity < REPACK_MIN_SLOTS || (this.ordTop - this.ordFreeN) * 8 >= capacity) return;
    let slots = ORDER_MIN_SLOTS;
    while (slots < this.handles.size * 2) slots *= 2;
    const oldF = this.ordF;
    const oldI = this.ordI;
    const oldCancelled = this.cancelled;
    const ordF = new Float64Array(slots * 2);
    const ordI = new Int32Array(ordF.buffer);
    const handles = this.handles;
    let t = 0;
    for (const ladder of [this.bids, this.asks]) {
      for (let i = 0; i < ladder.n; i++) {
        const lv = ladder.levels[i]!;
        const b = lv << LEVEL_SHIFT;
        const fifo = this.fifo;
        const base = this.lvI[b + L_BASE]!;
        const end = base + this.lvI[b + L_TAIL]!;
        let w = base;
        for (let r = base + this.lvI[b + L_HEAD]!; r < end; r++) {
          const s = fifo[r]!;
          if ((oldCancelled[s >> 5]! & (1 << (s & 31))) !== 0) continue;
          const hi = oldI[(s << 2) + O_HANDLE]!;
          ordF[t << 1] = oldF[s << 1]!;
          ordI[(t << 2) + O_LEVEL] = lv;
          ordI[(t << 2) + O_HANDLE] = hi;
          handles.moveIndex(hi, t);
          fifo[w++] = t++;
        }
        this.lvI[b + L_HEAD] = 0;
        this.lvI[b + L_TAIL] = w - base;
        this.lvI[b + L_DEAD] = 0;
      }
    }
    this.ordF = ordF;
    this.ordI = ordI;
    this.cancelled = new Int32Array(slots >> 5);
    this.ordTop = t;
    this.ordFree = new Int32Array(slots);
    this.ordFreeN = 0;
  }

  private allocLevel(): number {
    if (this.lvFreeN > 0) return this.lvFree[--this.lvFreeN]!;
    if (this.lvTop === this.lvFree.length) {
      const slots = this.lvFree.length * 2;
      const lvF = new Float64Array(slots << (LEVEL_SHIFT - 1));
      lvF.set(this.lvF);
      this.lvF = lvF;
      this.lvI = new Int32Array(lvF.buffer);
      const free = new Int32Array(slots);
      free.set(this.lvFree.subarray(0, this.lvFreeN));
      this.lvFree = free;
    }
    // A new level slot gets its FIFO segment for good; a reused slot keeps the one it had.
    const lv = this.lvTop++;
    this.lvI[(lv << LEVEL_SHIFT) + L_BASE] = this.allocSegment(FIFO_MIN);
    this.lvI[(lv << LEVEL_SHIFT) + L_CAP] = FIFO_MIN;
    return lv;
  }

  private releaseLevel(lv: number): void {
    const b = lv << LEVEL_SHIFT;
    const cap = this.lvI[b + L_CAP]!;
    if (cap > FIFO_KEEP_MAX) {
      this.freeSegment(this.lvI[b + L_BASE]!, cap);
      this.lvI[b + L_BASE] = this.allocSegment(FIFO_MIN);
      this.lvI[b + L_CAP] = FIFO_MIN;
    }
    this.lvFree[this.lvFreeN++] = lv;
  }

  // Views read the book's current arrays on every access (growth replaces them) and write through.
  private static readonly LevelView = class implements PriceLevelView {
    private readonly b: number;
    constructor(
      private readonly book: OrderBook,
      private readonly ladder: PriceLadder,
      private readonly i: number,
      readonly slot: number,
    ) {
      this.b = slot << LEVEL_SHIFT;
    }
    get key(): number {
      return this.ladder.keys[this.i]!;
    }
    set key(v: number) {
      this.ladder.keys[this.i] = v;
    }
    get price(): number {
      return this.book.lvI[this.b + L_PRICE]!;
    }
    set price(v: number) {
      this.book.lvI[this.b + L_PRICE] = v;
    }
    get side(): BookSide {
      return this.book.lvI[this.b + L_SIDE] === 0 ? 'bid' : 'ask';
    }
    set side(v: BookSide) {
      this.book.lvI[this.b + L_SIDE] = v === 'bid' ? 0 : 1;
    }
    get size(): number {
      return this.book.lvF[this.slot << (LEVEL_SHIFT - 1)]!;
    }
    set size(v: number) {
      this.book.lvF[this.slot << (LEVEL_SHIFT - 1)] = v;
    }
    get count(): number {
      return this.book.lvI[this.b + L_LIVE]!;
    }
    set count(v: number) {
      this.book.lvI[this.b + L_LIVE] = v;
    }
    get dead(): number {
      return this.book.lvI[this.b + L_DEAD]!;
    }
    set dead(v: number) {
      this.book.lvI[this.b + L_DEAD] = v;
    }
    get head(): number {
      return this.book.lvI[this.b + L_HEAD]!;
    }
    set head(v: number) {
      this.book.lvI[this.b + L_HEAD] = v;
    }
    get tail(): number {
      return this.book.lvI[this.b + L_TAIL]!;
    }
    set tail(v: number) {
      this.book.lvI[this.b + L_TAIL] = v;
    }
    get base(): number {
      return this.book.lvI[this.b + L_BASE]!;
    }
    set base(v: number) {
      this.book.lvI[this.b + L_BASE] = v;
    }
    get capacity(): number {
      return this.book.lvI[this.b + L_CAP]!;
    }
    set capacity(v: number) {
      this.book.lvI[this.b + L_CAP] = v;
    }
    entry(position: number): number {
      return this.book.fifo[this.base + position]!;
    }
    setEntry(position: number, slot: number): void {
      this.book.fifo[this.base + position] = slot;
    }
  };

  private static readonly OrderView = class implements OrderSlotView {
    constructor(
      private readonly book: OrderBook,
      readonly slot: number,
    ) {}
    get handleIndex(): number {
      return this.book.ordI[(this.slot << 2) + O_HANDLE]!;
    }
    set handleIndex(v: number) {
      this.book.ordI[(this.slot << 2) + O_HANDLE] = v;
    }
    get remaining(): number {
      return this.book.ordF[this.slot << 1]!;
    }
    set remaining(v: number) {
      this.book.ordF[this.slot << 1] = v;
    }
    get level(): number {
      return this.book.ordI[(this.slot << 2) + O_LEVEL]!;
    }
    set level(v: number) {
      this.book.ordI[(this.slot << 2) + O_LEVEL] = v;
    }
    get cancelled(): boolean {
      return (this.book.cancelled[this.slot >> 5]! & (1 << (this.slot & 31))) !== 0;
    }
    set cancelled(v: boolean) {
      const bit = 1 << (this.slot & 31);
      this.book.cancelled[this.slot >> 5] = v ? this.book.cancelled[this.slot >> 5]! | bit : this.book.cancelled[this.slot >> 5]! & ~bit;
    }
  };
}

/** FIFO_MIN << sizeClass(cap) === cap for the power-of-two segment sizes. */
function sizeClass(cap: number): number {
  return 31 - Math.clz32(cap / FIFO_MIN);
}

/** The services validate every order; this guard only keeps a programming error from corrupting a book. */
function checkOrder(side: BookSide, price: number, size: number): void {
  if (
    !(price > 0 && price < PRICE_ONE && Number.isInteger(price)) ||
    !(size > 0 && Number.isSafeInteger(size)) ||
    (side !== 'bid' && side !== 'ask')
  ) {
    throw new RangeError(
      `invalid book order: side must be bid|ask, price an integer in (0, ${PRICE_ONE}), size a positive safe integer (got ${side} ${price} × ${size})`,
    );
  }
}

export function createOrderBook(): MarketBook {
  return new OrderBook();
}
