import type { BookSide, Fill, Level, MarketBook, OrderIn, PlaceResult, RestingOrder } from './types.js';

/**
 * A deliberately naive matcher with the same interface as OrderBook, used only by tests as the oracle of
 * the differential test. Everything is one flat array, scanned and re-sorted on every call, so each rule
 * is visible in a line or two: who can trade (price crosses), in which order (better price, then earlier
 * arrival), at what price (the maker's), and what happens to the rest (TIF).
 */
interface ReferenceOrder {
  id: string;
  side: BookSide;
  price: number;
  remaining: number;
  /** Arrival number: time priority without a clock. */
  seq: number;
}

export class ReferenceMatcher implements MarketBook {
  private orders: ReferenceOrder[] = [];
  private nextSeq = 0;

  get orderCount(): number {
    return this.orders.length;
  }

  place(order: OrderIn): PlaceResult {
    if (this.orders.some((o) => o.id === order.id)) throw new Error(`order id ${order.id} is already on the book`);
    const makers = this.crossing(order.side, order.price);
    const available = makers.reduce((sum, o) => sum + o.remaining, 0);
    if (order.tif === 'FOK' && available < order.size) return { fills: [], remaining: order.size, rested: false };

    const fills: Fill[] = [];
    let remaining = order.size;
    for (const maker of makers) {
      if (remaining === 0) break;
      const size = Math.min(remaining, maker.remaining);
      maker.remaining -= size;
      remaining -= size;
      fills.push({ makerId: maker.id, takerId: order.id, price: maker.price, size, makerRemaining: maker.remaining });
    }
    this.orders = this.orders.filter((o) => o.remaining > 0);

    const rested = remaining > 0 && order.tif === 'GTC';
    if (rested) this.orders.push({ id: order.id, side: order.side, price: order.price, remaining, seq: this.nextSeq++ });
    return { fills, remaining, rested };
  }

  restore(order: RestingOrder): void {
    if (this.orders.some((o) => o.id === order.id)) throw new Error(`order id ${order.id} is already on the book`);
    this.orders.push({ ...order, seq: this.nextSeq++ });
  }

  cancel(id: string): number | undefined {
    const found = this.orders.find((o) => o.id === id);
    if (found === undefined) return undefined;
    this.orders = this.orders.filter((o) => o !== found);
    return found.remaining;
  }

  get(id: string): RestingOrder | undefined {
    const found = this.orders.find((o) => o.id === id);
    return found && { id: found.id, side: found.side, price: found.price, remaining: found.remaining };
  }

  levels(side: BookSide, depth?: number): Level[] {
    const sizes = new Map<number, number>();
    for (const o of this.orders) if (o.side === side) sizes.set(o.price, (sizes.get(o.price) ?? 0) + o.remaining);
    const levels = [...sizes].map(([price, size]) => ({ price, size }));
    levels.sort((a, b) => (side === 'bid' ? b.price - a.price : a.price - b.price));
    return depth === undefined ? levels : levels.slice(0, Math.max(0, depth));
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
