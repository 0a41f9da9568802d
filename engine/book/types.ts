/**
 * The matching core's vocabulary. The core is pure: no clock, no I/O, deterministic.
 *
 * A binary market has ONE book, kept in the terms of outcome 0 ("YES"):
 *   BUY  outcome 0 at p  → bid at p          SELL outcome 0 at p → ask at p
 *   BUY  outcome 1 at q  → ask at 1 − q      SELL outcome 1 at q → bid at 1 − q
 * so a BUY of outcome 1 crossing a BUY of outcome 0 is a mint, two SELLs crossing a merge (decisions §3).
 *
 * Orders on a book are named by HANDLES, not by the services' string ids: `place` (when the order rests) and
 * `restore` return one, fills name the maker by it, `cancel` and `get` take it. A handle is a safe integer
 * the book assigns (see handleTable.ts); once its order left the book it names nothing, ever, so a stale
 * handle is refused like an unknown one. Handles live in memory only: a restart restores the orders and
 * gets new ones. The core thus never hashes or compares an id string.
 *
 * Prices and sizes are integer micro-units (6 decimals: 0.52 → 520_000; 10 shares → 10_000_000) held in JS
 * numbers for speed. The services layer guarantees every value is a safe integer (protocol MAX_BOOK_UNITS)
 * before it reaches the core; money arithmetic on them (notional) happens in bigint in the services.
 */

export const PRICE_ONE = 1_000_000;

export type BookSide = 'bid' | 'ask';
export type TimeInForce = 'GTC' | 'FOK' | 'FAK';

/** A book-assigned order handle: a safe integer, unique among the book's resting orders and never reused for another order. */
export type OrderHandle = number;

export interface OrderIn {
  /** Side in outcome-0 terms. */
  readonly side: BookSide;
  /** Limit price in outcome-0 terms, integer micro-units, 0 < price < PRICE_ONE. */
  readonly price: number;
  /** Size in share micro-units, > 0. */
  readonly size: number;
  /** GTD orders rest like GTC; their expiry is the services' business. */
  readonly tif: TimeInForce;
}

/** One execution of the incoming (taker) order against a resting (maker) order. */
export interface Fill {
  readonly makerHandle: OrderHandle;
  /** Execution price in outcome-0 terms: always the resting (maker) order's price. */
  readonly price: number;
  readonly size: number;
  /** Maker's remaining size after this fill (0 → the maker left the book). */
  readonly makerRemaining: number;
}

export interface PlaceResult {
  readonly fills: Fill[];
  /** Taker size left unfilled. */
  readonly remaining: number;
  /** True when the remainder now rests on the book (GTC/GTD with remaining > 0). */
  readonly rested: boolean;
  /** The resting remainder's handle; −1 when nothing rests. */
  readonly handle: OrderHandle;
}

export interface Level {
  readonly price: number;
  readonly size: number;
}

/** An order on the book, as `restore` takes it and `get` reports it. */
export interface RestingOrder {
  readonly side: BookSide;
  readonly price: number;
  readonly remaining: number;
}

/** Where a resting order stands in its level's time-priority queue. */
export interface QueuePosition {
  /** Remaining size of the live orders before it at its price (what must fill or cancel before it trades). */
  readonly ahead: number;
  /** Total remaining size of its level, its own included. */
  readonly levelSize: number;
}

export interface MarketBook {
  /** Matches at price-time priority at the maker's price; FOK fills completely or not at all (no fills, nothing rests). */
  place(order: OrderIn): PlaceResult;
  /** Puts an order on the book without matching (startup rebuild, in original time order); returns its handle. */
  restore(order: RestingOrder): OrderHandle;
  /** Removes an order; returns its remaining size, or undefined if the handle names no order on the book. */
  cancel(handle: OrderHandle): number | undefined;
  /**
   * Shrinks a resting order by `size` where it stands (it keeps its queue position; at `size` ≥ its
   * remaining it leaves the book); returns what remains, or undefined if the handle names no order.
   */
  reduce(handle: OrderHandle, size: number): number | undefined;
  get(handle: OrderHandle): RestingOrder | undefined;
  /** The order's place in its level's queue, or undefined if the handle names no order on the book. */
  queuePosition(handle: OrderHandle): QueuePosition | undefined;
  /** The order's remaining size (`get` without building an object, for hot paths), or undefined if the handle names no order. */
  remainingOf(handle: OrderHandle): number | undefined;
  /**
   * True when no live order queues behind this one at its price (it is the back of its level's queue;
   * `queuePosition` would say ahead + remaining = levelSize without walking the queue); false for a
   * handle that names no order.
   */
  isLastInLevel(handle: OrderHandle): boolean;
  /**
   * Adds `size` to an order that is the back of its level's queue: no order queues behind it, so nobody's
   * place changes (the same book as cancelling it and resting its new size at the back). Returns false
   * and changes nothing when another order queues behind it or the handle names no order.
   */
  growBack(handle: OrderHandle, size: number): boolean;
  /** Aggregated levels, best price first, at most `depth` of them (all when omitted). */
  levels(side: BookSide, depth?: number): Level[];
  /**
   * The side's aggregated levels, best price first, written into `prices` and `sizes` (their lengths set
   * to the level count, which it returns): what `levels` gives, without an object per level, for a
   * caller that reads the book often into arrays it keeps (the market stream).
   */
  copyLevels(side: BookSide, prices: number[], sizes: number[]): number;
  bestBid(): number | undefined;
  bestAsk(): number | undefined;
  /** How much of `size` an order on `side` at `price` could fill right now (for checks and previews). */
  fillable(side: BookSide, price: number, size: number): number;
  /** Number of resting orders. */
  readonly orderCount: number;
}

/** Maps an order on outcome `outcomeIndex` (0 or 1) to the book's outcome-0 terms. */
export function toBookTerms(outcomeIndex: 0 | 1, side: 'BUY' | 'SELL', price: number): { side: BookSide; price: number } {
  if (outcomeIndex === 0) return { side: side === 'BUY' ? 'bid' : 'ask', price };
  return { side: side === 'BUY' ? 'ask' : 'bid', price: PRICE_ONE - price };
}

/** The inverse of toBookTerms for a price: an outcome-0 price seen from outcome `outcomeIndex`. */
export function fromBookPrice(outcomeIndex: 0 | 1, price: number): number {
  return outcomeIndex === 0 ? price : PRICE_ONE - price;
}
