import type { BookSide, MarketBook, OrderHandle } from '../../book/types.js';
import type { PublicLevel } from '../mirror/mirrorTypes.js';
import { PUBLIC_MARKET_ADDRESS } from '../../protocol/publicMarketAccount.js';

/**
 * The account on the other side of every fill against a mirrored market's public depth (decisions §10):
 * unlimited collateral and shares, never reserved or refused, excluded from conservation sums, and named
 * `public-market` wherever trades and holders show names. A reserved address: the bytes of "public-market"
 * right-aligned, which no key can own in practice.
 */
export const PUBLIC_MARKET_ACCOUNT = PUBLIC_MARKET_ADDRESS;

/** How trades, holders and the data service name PUBLIC_MARKET_ACCOUNT. */
export const PUBLIC_MARKET_NAME = 'public-market';

export function isPublicMarket(address: string): boolean {
  return address.toLowerCase() === PUBLIC_MARKET_ACCOUNT;
}

/** One public price level: what upstream says (`upstream`), what local takers consumed of it (`consumed`), the public entries on the book. */
interface LevelState {
  readonly side: BookSide;
  readonly price: number;
  upstream: number;
  consumed: number;
  /** Book handles of this level's public entries, oldest first (the book keeps them in time order with local orders). */
  readonly entries: OrderHandle[];
}

/**
 * The public layer of one mirrored market's local book (decisions §10, the fill model of MIRROR.md):
 * public size lives on the book as resting entries that belong to no stored order, beside local orders
 * in one time-ordered queue per price. Per level the book holds T = max(0, U − c) of public size, where
 * U is the last upstream size and c what local takers consumed there. Growing appends at the back of the
 * queue (later public size is behind earlier local orders); shrinking takes from the back (newest public
 * size first), so a local order never has more public size ahead of it than the level shows now.
 *
 * Pure over the book (no clock, no I/O): the order service feeds it upstream facts and the fills the book
 * reports, and settles the local side of those fills itself.
 */
export class PublicDepth {
  private readonly levels = { bid: new Map<number, LevelState>(), ask: new Map<number, LevelState>() };
  private readonly byHandle = new Map<OrderHandle, LevelState>();
  /** Levels holding less than their target because the opposite side of the book was in the way. */
  private readonly short = new Set<LevelState>();
  /** True until the first snapshot, and again after a tick change or a drop: level updates and prints wait for a snapshot. */
  private awaitingSnapshot = true;

  constructor(private readonly book: MarketBook) {}

  /** True when the book handle is a public entry of this layer. */
  owns(handle: OrderHandle): boolean {
    return this.byHandle.has(handle);
  }

  /** True once a snapshot set the layer up (level updates and prints apply). */
  get live(): boolean {
    return !this.awaitingSnapshot;
  }

  /** U, c and the public size the book holds at one level (for tests and diagnostics). */
  level(side: BookSide, price: number): { upstream: number; consumed: number; onBook: number } {
    const l = this.levels[side].get(price);
    return l ? { upstream: l.upstream, consumed: l.consumed, onBook: this.onBook(l) } : { upstream: 0, consumed: 0, onBook: 0 };
  }

  /** The whole public depth (a `book` event or a resync): every level reconciled to its new size, absent levels to 0. */
  snapshot(bids: readonly PublicLevel[], asks: readonly PublicLevel[]): void {
    this.awaitingSnapshot = false;
    for (const [side, given] of [['bid', bids], ['ask', asks]] as const) {
      const next = new Map<number, number>();
      for (const l of given) next.set(l.price, (next.get(l.price) ?? 0) + l.size);
      for (const price of [...this.levels[side].keys()]) if (!next.has(price)) this.setUpstream(side, price, 0);
      for (const [price, size] of next) this.setUpstream(side, price, size);
    }
    this.retryShort();
  }

  /** A `price_change`: the new aggregate upstream size at one level (0 removes it). Ignored (false) before a snapshot. */
  update(side: BookSide, price: number, size: number): boolean {
    if (this.awaitingSnapshot) return false;
    this.setUpstream(side, price, size);
    this.retryShort();
    return true;
  }

  /**
   * A local taker filled `size` of a public entry (the book reported `makerRemaining` left on it): the
   * level remembers the consumption, so later upstream sizes there are reduced by it.
   */
  takerFilled(handle: OrderHandle, size: number, makerRemaining: number): void {
    const l = this.byHandle.get(handle);
    if (!l) return;
    l.consumed += size;
    if (makerRemaining === 0) this.forget(l, handle);
  }

  /** A public print walked over a public entry (it shrank on the book, no trade); the caller reconciles the levels after the print. */
  printed(handle: OrderHandle, makerRemaining: number): void {
    const l = this.byHandle.get(handle);
    if (l && makerRemaining === 0) this.forget(l, handle);
  }

  /** After a print: every level of `side` from `from` to `to` (inclusive, either order) back to its target. */
  reconcileRange(side: BookSide, from: number, to: number): void {
    const lo = Math.min(from, to);
    const hi = Math.max(from, to);
    for (const l of [...this.levels[side].values()]) if (l.price >= lo && l.price <= hi) this.reconcile(l);
    this.retryShort();
  }

  /** Removes the public layer from the book (a tick change, stale or closed upstream, stop following); waits for a snapshot. */
  drop(): boolean {
    const had = this.byHandle.size > 0;
    for (const h of this.byHandle.keys()) this.book.cancel(h);
    this.byHandle.clear();
    this.levels.bid.clear();
    this.levels.ask.clear();
    this.short.clear();
    this.awaitingSnapshot = true;
    return had;
  }

  private setUpstream(side: BookSide, price: number, size: number): void {
    let l = this.levels[side].get(price);
    if (!l) {
      if (size === 0) return;
      l = { side, price, upstream: 0, consumed: 0, entries: [] };
      this.levels[side].set(price, l);
    }
    // An upstream drop absorbs our consumption first (what we took was part of what upstream lost).
    if (size < l.upstream) l.consumed = Math.max(0, l.consumed - (l.upstream - size));
    if (size === 0) l.consumed = 0;
    l.upstream = size;
    this.reconcile(l);
  }

  /** Brings the level's public size on the book to T = max(0, U − c): grow at the back, shrink from the back. */
  private reconcile(l: LevelState): void {
    const target = Math.max(0, l.upstream - l.consumed);
    let have = this.onBook(l);
    while (have > target) {
      const h = l.entries[l.entries.length - 1]!;
      if ((this.book.reduce(h, have - target) ?? 0) === 0) this.forget(l, h);
      have = this.onBook(l);
    }
    if (have < target) {
      if (this.crosses(l)) this.short.add(l);
      else {
        this.append(l, target - have);
        this.short.delete(l);
      }
    } else this.short.delete(l);
    if (l.upstream === 0 && l.entries.length === 0) {
      this.levels[l.side].delete(l.price);
      this.short.delete(l);
    }
  }

  /** Adds public size at the back of the level: extends its last entry when nothing queues behind it, else a new entry. */
  private append(l: LevelState, size: number): void {
    const last = l.entries[l.entries.length - 1];
    if (last !== undefined) {
      const pos = this.book.queuePosition(last);
      const o = this.book.get(last);
      if (pos && o && pos.ahead + o.remaining === pos.levelSize) {
        // Last in the queue: replacing it by a bigger entry at the back keeps everyone's place.
        this.book.cancel(last);
        this.byHandle.delete(last);
        l.entries.pop();
        size += o.remaining;
      }
    }
    const h = this.book.restore({ side: l.side, price: l.price, remaining: size });
    l.entries.push(h);
    this.byHandle.set(h, l);
  }

  /** True when public size at the level would cross the opposite side of the book (stale public depth, or a local order priced through it). */
  private crosses(l: LevelState): boolean {
    const opposite = l.side === 'bid' ? this.book.bestAsk() : this.book.bestBid();
    return opposite !== undefined && (l.side === 'bid' ? l.price >= opposite : l.price <= opposite);
  }

  /** Levels kept short by a crossing get their public size once the way is clear. */
  private retryShort(): void {
    for (const l of [...this.short]) if (!this.crosses(l)) this.reconcile(l);
  }

  private onBook(l: LevelState): number {
    let n = 0;
    for (const h of l.entries) n += this.book.get(h)?.remaining ?? 0;
    return n;
  }

  private forget(l: LevelState, handle: OrderHandle): void {
    this.byHandle.delete(handle);
    const i = l.entries.indexOf(handle);
    if (i >= 0) l.entries.splice(i, 1);
  }
}
