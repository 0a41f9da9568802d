import { PRICE_ONE, type BookSide } from './types.js';
import type { OrderBook, OrderBookInternals, PriceLevelView } from './orderBook.js';
import type { HandleTable } from './handleTable.js';

/** What the checker needs: the book's internals and its public best prices and count. */
export type InspectableBook = Pick<OrderBook, 'internals' | 'bestBid' | 'bestAsk' | 'orderCount'>;

/**
 * Checks every structural invariant of an OrderBook and throws an Error naming the first one broken.
 * Tests call it after every step; it walks the whole book, so it is not for production paths.
 *
 *  - the book is not crossed (best bid < best ask);
 *  - levels are strictly sorted (worst → best internally), hold at least one live order, sit at integer
 *    prices in (0, PRICE_ONE) on their own side, and their ladder sort keys agree with their prices;
 *  - each level's FIFO segment lies inside the arena and overlaps no other level's; its queue lies within
 *    the segment (0 ≤ head ≤ tail ≤ capacity) and holds slots inside the
 *    storage, none on the free list, none twice on the book; every queued slot points back at the level;
 *  - each level's cached size, live count and cancelled count equal the sum and numbers of its orders;
 *  - a live order has a positive integer remaining size, and its handle-table index is live and points
 *    back at its slot (so its handle finds it); a cancelled one (flagged, waiting to be skipped or
 *    compacted away) has no live handle pointing at it, and no slot off the queues is flagged cancelled;
 *  - the handle table holds exactly the live orders (live indices = orderCount), each index handed out is
 *    live, on the free list (once, no cycle) or retired, and every slot handed out is either queued or
 *    free (none leaked).
 */
export function checkBookInvariants(book: InspectableBook): void {
  const internals = book.internals();
  const { bids, asks, handles, orderCount, slotsUsed, freeSlots } = internals;
  const free = new Set<number>();
  for (const s of freeSlots) {
    if (!Number.isInteger(s) || s < 0 || s >= slotsUsed) fail(`free slot ${s} outside the storage (${slotsUsed} slots)`);
    if (free.has(s)) fail(`slot ${s} is on the free list twice`);
    free.add(s);
  }
  const seen: Seen = { slots: new Set<number>(), liveIndices: new Set<number>() };
  checkSide('bid', bids, internals, free, seen);
  checkSide('ask', asks, internals, free, seen);

  const bestBid = bids[bids.length - 1];
  const bestAsk = asks[asks.length - 1];
  if (bestBid !== undefined && bestAsk !== undefined && !(bestBid.price < bestAsk.price)) {
    fail(`book is crossed: best bid ${bestBid.price} ≥ best ask ${bestAsk.price}`);
  }
  if (book.bestBid() !== bestBid?.price) fail(`bestBid() ${book.bestBid()} disagrees with the levels (${bestBid?.price})`);
  if (book.bestAsk() !== bestAsk?.price) fail(`bestAsk() ${book.bestAsk()} disagrees with the levels (${bestAsk?.price})`);
  checkHandles(handles, seen.liveIndices.size);
  if (orderCount !== seen.liveIndices.size || book.orderCount !== seen.liveIndices.size) {
    fail(`orderCount ${book.orderCount} but the levels hold ${seen.liveIndices.size} orders`);
  }
  for (const s of free) if (internals.order(s).cancelled) fail(`free slot ${s} is still flagged cancelled`);
  if (seen.slots.size + free.size !== slotsUsed) {
    fail(`${slotsUsed} order slots handed out but ${seen.slots.size} queued and ${free.size} free: slots leaked`);
  }
  const segments = [...bids, ...asks].map((l) => [l.base, l.capacity, l.price] as const).sort((x, y) => x[0] - y[0]);
  for (let i = 0; i < segments.length; i++) {
    const [base, capacity, price] = segments[i]!;
    if (!(Number.isInteger(base) && base >= 0 && capacity > 0 && base + capacity <= internals.fifoArenaLength)) {
      fail(`level at ${price}: FIFO segment ${base}+${capacity} outside the arena of ${internals.fifoArenaLength}`);
    }
    const next = segments[i + 1];
    if (next !== undefined && base + capacity > next[0]) fail(`levels at ${price} and ${next[2]} share FIFO positions`);
  }
  // Last, so a level moved without re-sorting is reported as unsorted or crossed, the consequence that matters.
  for (const [sign, levels] of [[1, bids], [-1, asks]] as const) {
    for (const level of levels) {
      if (level.key !== sign * level.price) fail(`level at ${level.price}: ladder sort key ${level.key} disagrees with its price`);
    }
  }
}

interface Seen {
  slots: Set<number>;
  liveIndices: Set<number>;
}

/** Every index handed out is live, free (on the free list exactly once) or retired; live ones number `live`. */
function checkHandles(handles: HandleTable, live: number): void {
  let tableLive = 0;
  let retired = 0;
  for (let i = 0; i < handles.indexCount; i++) {
    if (handles.slotAt(i) >= 0) tableLive++;
    else if (handles.isRetired(i)) retired++;
  }
  if (handles.size !== tableLive) fail(`handle table counts ${handles.size} live handles but ${tableLive} entries are live`);
  if (tableLive !== live) fail(`handle table holds ${tableLive} live handles but the levels hold ${live} orders`);
  let free: number[] = [];
  try {
    free = handles.freeIndices();
  } catch (e) {
    fail(`handle free list: ${(e as Error).message}`);
  }
  const onList = new Set<number>();
  for (const i of free) {
    if (handles.slotAt(i) >= 0 || handles.isRetired(i)) fail(`handle index ${i} is on the free list but not free`);
    if (onList.has(i)) fail(`handle index ${i} is on the free list twice`);
    onList.add(i);
  }
  if (tableLive + retired + onList.size !== handles.indexCount) {
    fail(`${handles.indexCount} handle indices handed out but ${tableLive} live, ${onList.size} free and ${retired} retired: indices leaked`);
  }
}

function checkSide(side: BookSide, levels: readonly PriceLevelView[], book: OrderBookInternals, free: Set<number>, seen: Seen): void {
  const { handles, slotsUsed } = book;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    const where = `${side} level ${level.price}`;
    if (!Number.isInteger(level.price) || level.price <= 0 || level.price >= PRICE_ONE) fail(`${where}: price out of range`);
    if (level.side !== side) fail(`${where}: a ${level.side} level on the ${side} side`);
    if (i > 0) {
      const prev = levels[i - 1]!.price;
      const sorted = side === 'bid' ? prev < level.price : prev > level.price;
      if (!sorted) fail(`${side} levels not strictly sorted: ${prev} then ${level.price}`);
    }
    if (level.count <= 0) fail(`${where}: empty level left on the book`);
    if (!(Number.isInteger(level.head) && Number.isInteger(level.tail) && level.head >= 0 && level.head <= level.tail && level.tail <= level.capacity)) {
      fail(`${where}: queue positions ${level.head}…${level.tail} outside its FIFO of ${level.capacity}`);
    }

    let size = 0;
    let live = 0;
    let dead = 0;
    for (let at = level.head; at < level.tail; at++) {
      const s = level.entry(at);
      if (!Number.isInteger(s) || s < 0 || s >= slotsUsed) fail(`${where}: queue holds slot ${s}, outside the storage`);
      if (free.has(s)) fail(`${where}: queue holds slot ${s}, which is on the free list`);
      if (seen.slots.has(s)) fail(`${where}: slot ${s} appears twice on the book`);
      seen.slots.add(s);
      const o = book.order(s);
      const hi = o.handleIndex;
      const where2 = `${where}, order at slot ${s} (handle index ${hi})`;
      if (o.level !== level.slot) fail(`${where2}: points at another level`);
      const inTable = Number.isInteger(hi) && hi >= 0 && hi < handles.indexCount;
      if (o.cancelled) {
        if (inTable && handles.slotAt(hi) === s) fail(`${where2}: cancelled but its handle is still live`);
        dead += 1;
      } else {
        if (!(o.remaining > 0) || !Number.isSafeInteger(o.remaining)) fail(`${where2}: remaining ${o.remaining} is not a positive integer`);
        if (!inTable || handles.slotAt(hi) !== s) fail(`${where2}: its handle is not live or names another slot`);
        if (handles.slotOf(handles.handleAt(hi)) !== s) fail(`${where2}: its handle does not find it`);
        if (seen.liveIndices.has(hi)) fail(`${where2}: handle index appears twice on the book`);
        seen.liveIndices.add(hi);
        size += o.remaining;
        live += 1;
      }
    }
    if (level.size !== size) fail(`${where}: cached size ${level.size} but its orders sum to ${size}`);
    if (level.count !== live) fail(`${where}: cached count ${level.count} but it holds ${live} live orders`);
    if (level.dead !== dead) fail(`${where}: cached dead count ${level.dead} but it queues ${dead} cancelled orders`);
  }
}

function fail(message: string): never {
  throw new Error(`book invariant broken: ${message}`);
}
