import { OrderBook } from './orderBook.js';
import type { BookSide, Level, OrderHandle, OrderIn, PlaceResult, QueuePosition, RestingOrder } from './types.js';

/** An order with a readable name, as the tests write it ('b1', 'a2'). */
export type NamedOrder = OrderIn & { readonly name: string };

/** A fill with the maker named as the test named it. */
export interface NamedFill {
  readonly maker: string;
  readonly price: number;
  readonly size: number;
  readonly makerRemaining: number;
}

export interface NamedPlaceResult {
  readonly fills: NamedFill[];
  readonly remaining: number;
  readonly rested: boolean;
}

/** A handle no book ever issues (generation far above any a test reaches): what an unknown name cancels. */
export const NEVER_ISSUED: OrderHandle = 2 ** 52 + 12_345;

/**
 * For tests: an OrderBook whose orders are named, the way the order service maps its order ids to the
 * book's handles. A name keeps the LAST handle it got, also after its order left the book, so cancelling
 * or reading a filled or cancelled name sends the book a stale handle (which must name nothing); a name
 * never placed sends a handle never issued.
 */
export class NamedBook {
  readonly book = new OrderBook();
  private readonly handles = new Map<string, OrderHandle>();
  private readonly names = new Map<OrderHandle, string>();

  place(order: NamedOrder): NamedPlaceResult {
    const r = this.book.place(order);
    this.remember(order.name, r);
    return this.named(r);
  }

  /** The raw result, with the book's handles (the name is remembered all the same). */
  placeRaw(order: NamedOrder): PlaceResult {
    const r = this.book.place(order);
    this.remember(order.name, r);
    return r;
  }

  restore(name: string, order: RestingOrder): OrderHandle {
    const h = this.book.restore(order);
    this.handles.set(name, h);
    this.names.set(h, name);
    return h;
  }

  cancel(name: string): number | undefined {
    return this.book.cancel(this.handle(name));
  }

  reduce(name: string, size: number): number | undefined {
    return this.book.reduce(this.handle(name), size);
  }

  get(name: string): RestingOrder | undefined {
    return this.book.get(this.handle(name));
  }

  queuePosition(name: string): QueuePosition | undefined {
    return this.book.queuePosition(this.handle(name));
  }

  /** The last handle `name` got, or one never issued. */
  handle(name: string): OrderHandle {
    return this.handles.get(name) ?? NEVER_ISSUED;
  }

  nameOf(handle: OrderHandle): string {
    const name = this.names.get(handle);
    if (name === undefined) throw new Error(`the book reported handle ${handle}, which no order of this test got`);
    return name;
  }

  levels(side: BookSide, depth?: number): Level[] {
    return this.book.levels(side, depth);
  }

  private remember(name: string, r: PlaceResult): void {
    if (!r.rested) return;
    if (this.names.has(r.handle)) throw new Error(`handle ${r.handle} handed out twice (to ${this.names.get(r.handle)} and ${name})`);
    this.handles.set(name, r.handle);
    this.names.set(r.handle, name);
  }

  private named(r: PlaceResult): NamedPlaceResult {
    return {
      fills: r.fills.map((f) => ({ maker: this.nameOf(f.makerHandle), price: f.price, size: f.size, makerRemaining: f.makerRemaining })),
      remaining: r.remaining,
      rested: r.rested,
    };
  }
}
