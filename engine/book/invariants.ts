import { PRICE_ONE, type BookSide } from './types.js';
import type { BookIndexView, BookOrderView, OrderBook, PriceLevelView } from './orderBook.js';

/** What the checker needs: the book's read-only internals and its public best prices and count. */
export type InspectableBook = Pick<OrderBook, 'internals' | 'bestBid' | 'bestAsk' | 'orderCount'>;

/**
 * Checks every structural invariant of an OrderBook and throws an Error naming the first one broken.
 * Tests call it after every step; it walks the whole book, so it is not for production paths.
 *
 *  - the book is not crossed (best bid < best ask);
 *  - levels are strictly sorted (worst → best internally), non-empty, at integer prices in (0, PRICE_ONE);
 *  - each level's cached size and count equal the sum and number of its orders, and its FIFO list is
 *    consistent forwards and backwards (head/tail, prev/next);
 *  - every order has a positive remaining size and the side and price of its level;
 *  - the id index holds exactly the orders on the levels, and orderCount equals their number.
 */
export function checkBookInvariants(book: InspectableBook): void {
  const { bids, asks, index, orderCount } = book.internals();
  const seen = new Set<string>();
  checkSide('bid', bids, index, seen);
  checkSide('ask', asks, index, seen);

  const bestBid = bids[bids.length - 1];
  const bestAsk = asks[asks.length - 1];
  if (bestBid !== undefined && bestAsk !== undefined && !(bestBid.price < bestAsk.price)) {
    fail(`book is crossed: best bid ${bestBid.price} ≥ best ask ${bestAsk.price}`);
  }
  if (book.bestBid() !== bestBid?.price) fail(`bestBid() ${book.bestBid()} disagrees with the levels (${bestBid?.price})`);
  if (book.bestAsk() !== bestAsk?.price) fail(`bestAsk() ${book.bestAsk()} disagrees with the levels (${bestAsk?.price})`);
  if (index.size !== seen.size) fail(`index holds ${index.size} orders but the levels hold ${seen.size}`);
  if (orderCount !== seen.size || book.orderCount !== seen.size) {
    fail(`orderCount ${book.orderCount} but the levels hold ${seen.size} orders`);
  }
}

function checkSide(
  side: BookSide,
  levels: readonly PriceLevelView[],
  index: BookIndexView,
  seen: Set<string>,
): void {
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    const where = `${side} level ${level.price}`;
    if (!Number.isInteger(level.price) || level.price <= 0 || level.price >= PRICE_ONE) fail(`${where}: price out of range`);
    if (i > 0) {
      const prev = levels[i - 1]!.price;
      const sorted = side === 'bid' ? prev < level.price : prev > level.price;
      if (!sorted) fail(`${side} levels not strictly sorted: ${prev} then ${level.price}`);
    }
    if (level.count === 0 || level.head === null) fail(`${where}: empty level left on the book`);

    let size = 0;
    let count = 0;
    let prev: BookOrderView | null = null;
    for (let o: BookOrderView | null = level.head; o !== null; o = o.next) {
      const at = `${where}, order ${o.id}`;
      if (o.prev !== prev) fail(`${at}: prev link broken`);
      if (o.level !== level) fail(`${at}: points at another level`);
      if (o.side !== side || o.price !== level.price) fail(`${at}: has side ${o.side} price ${o.price}`);
      if (!(o.remaining > 0) || !Number.isSafeInteger(o.remaining)) fail(`${at}: remaining ${o.remaining} is not a positive integer`);
      if (index.get(o.id) !== o) fail(`${at}: missing from the id index or indexed to another order`);
      if (seen.has(o.id)) fail(`${at}: appears twice on the book`);
      seen.add(o.id);
      size += o.remaining;
      count += 1;
      if (count > index.size) fail(`${where}: queue longer than the index (a cycle?)`);
      prev = o;
    }
    if (level.tail !== prev) fail(`${where}: tail is not the last order of its queue`);
    if (level.size !== size) fail(`${where}: cached size ${level.size} but its orders sum to ${size}`);
    if (level.count !== count) fail(`${where}: cached count ${level.count} but it holds ${count} orders`);
  }
}

function fail(message: string): never {
  throw new Error(`book invariant broken: ${message}`);
}
