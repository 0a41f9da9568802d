import type { BookSide, Fill, Level, MarketBook, OrderHandle, OrderIn, PlaceResult, QueuePosition, RestingOrder } from './types.js';

/**
 * A deliberately naive matcher with the same interface as OrderBook, used only by tests as the oracle of
 * the differential test. Everything is one flat array, scanned and re-sorted on every call, so each rule
 * is visible in a line or two: who can trade (price crosses), in which order (better price, then earlier
 * arrival), at what price (the maker's), and what happens to the rest (TIF).
 *
 * Its handles are simply 0, 1, 2, … in order of resting, never reused: they differ from the book's, so the
 * differential test compares the two through its own handle → order-name maps.
 */
interface ReferenceOrder {
  handle: OrderHandle;
  side: BookSide;
  price: number;
  remaining: number;
  /** Arrival number: time priority without a clock. */
  seq: number;
}

export class ReferenceMatcher implements MarketBook {
  private orders: ReferenceOrder[] = [];
  private nextSeq = 0;
  private nextHandle = 0;

  get orderCount(): number {
    return this.orders.length;
  }

  place(order: OrderIn): PlaceResult {
    const makers = this.crossing(order.side, order.price);
    const available = makers.reduce((sum, o) => sum + o.remaining, 0);
    if (order.tif === 'FOK' && available < order.size) return { fills: [], remaining: order.size, rested: false, handle: -1 };

    const fills: Fill[] = [];
    let remaining = order.size;
    for (const maker of makers) {
      if (remaining === 0) break;
      const size = Math.min(remaining, maker.remaining);
      maker.remaining -= size;
      remaining -= size;
      fills.push({ makerHandle: maker.handle, price: maker.price, size, makerRemaining: maker.remaining });
    }
    this.orders = this.orders.filter((o) => o.remaining > 0);

    if (remaining === 0 || order.tif !== 'GTC') return { fills, remaining, rested: false, handle: -1 };
    const handle = this.nextHandle++;
    this.orders.push({ handle, side: order.side, price: order.price, remaining, seq: this.nextSeq++ });
    return { fills, remaining, rested: true, handle };
  }

  restore(order: RestingOrder): OrderHandle {
    const handle = this.nextHandle++;
    this.orders.push({ handle, side: order.side, price: order.price, remaining: order.remaining, seq: this.nextSeq++ });
    return handle;
  }

  cancel(handle: OrderHandle): number | undefined {
    const found = this.orders.find((o) => o.handle === handle);
    if (found === undefined) return undefined;
    this.orders = this.orders.filter((o) => o !== found);
    return found.remaining;
  }

  reduce(handle: OrderHandle, size: number): number | undefined {
    const found = this.orders.find((o) => o.handle === handle);
    if (found === undefined) return undefined;
    if (size >= found.remaining) {
      this.cancel(handle);
      return 0;
    }
    found.remaining -= size;
    return found.remaining;
  }

  get(handle: OrderHandle): RestingOrder | undefined {
    const found = this.orders.find((o) => o.handle === handle);
    return found && { side: found.side, price: found.price, remaining: found.remaining };
  }

  queuePosition(handle: OrderHandle): QueuePosition | undefined {
    const found = this.orders.find((o) => o.handle === handle);
    if (found === undefined) return undefined;
    const level = this.orders.filter((o) => o.side === found.side && o.price === found.price);
    return {
      ahead: level.filter((o) => o.seq < found.seq).reduce((sum, o) => sum + o.remaining, 0),
      levelSize: level.reduce((sum, o) => sum + o.remaining, 0),
    };
  }

  remainingOf(handle: OrderHandle): number | undefined {
    return this.orders.find((o) => o.handle === handle)?.remaining;
  }

  isLastInLevel(handle: OrderHandle): boolean {
    const found = this.orders.find((o) => o.handle === handle);
    return found !== undefined && !this.orders.some((o) => o.side === found.side && o.price === found.price && o.seq > found.seq);
  }

  growBack(handle: OrderHandle, size: number): boolean {
    if (!this.isLastInLevel(handle)) return false;
    this.orders.find((o) => o.handle === handle)!.remaining += size;
    return true;
  }

  levels(side: BookSide, depth?: number): Level[] {
    const sizes = new Map<number, number>();
    for (const o of this.orders) if (o.side === side) sizes.set(o.price, (sizes.get(o.price) ?? 0) + o.remaining);
    const levels = [...sizes].map(([price, size]) => ({ price, size }));
    levels.sort((a, b) => (side === 'bid' ? b.price - a.price : a.price - b.price));
    return depth === undefined ? levels : levels.slice(0, Math.max(0, depth));
  }

  copyLevels(side: BookSide, prices: number[], sizes: number[]): number {
    const levels = this.levels(side);
    prices.length = levels.length;
    sizes.length = levels.length;
    levels.forEach((l, i) => {
      prices[i] = l.price;
      sizes[i] = l.size;
    });
    return levels.length;
  }

  bestBid(): number | undefined {
    return this.levels('bid', 1)[0]?.price;
  }

  bestAsk(): number | undefined {
    return this.levels('ask', 1)[0]?.price;
  }

  fillable(side: BookSide, price: number, size: number): number {
    return Math.min(size, this.crossing(side, price).reduce((sum, o) => sum + o.remaining, 0));
  }

  /** Resting orders a taker on `side` with limit `price` may trade with, in priority order. */
  private crossing(side: BookSide, price: number): ReferenceOrder[] {
    const makers = this.orders.filter((o) => o.side !== side && (side === 'bid' ? o.price <= price : o.price >= price));
    makers.sort((a, b) => (side === 'bid' ? a.price - b.price : b.price - a.price) || a.seq - b.seq);
    return makers;
  }
}
