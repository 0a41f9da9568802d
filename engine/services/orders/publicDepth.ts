import { handleIndex } from '../../book/handleTable.js';
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
  /**
   * The public size the book holds here: the sum of the entries' remaining sizes, kept as each change
   * passes through this layer (growth, shrink, local takers, prints), so no event sums the book.
   */
  onBook: number;
  /** The last snapshot stamp that named this level (levels a snapshot does not name go to 0). */
  seen: number;
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
  /**
   * The public entries by the index part of their book handle (dense, small, unique among live handles):
   * the entry's handle (−1: none) and its level. Two array reads per lookup, where a Map keyed by the
   * handle (a heap number once its generation grows) hashed on every fill and growth.
   */
  private readonly handleAt: number[] = [];
  private readonly levelAt: Array<LevelState | undefined> = [];
  private entryCount = 0;
  /** Levels the print being applied walked over, each once (see `printed` and `settlePrint`). */
  private readonly printedLevels: LevelState[] = [];
  /** Levels holding less than their target because the opposite side of the book was in the way. */
  private readonly short = new Set<LevelState>();
  /** True until the first snapshot, and again after a tick change or a drop: level updates and prints wait for a snapshot. */
  private awaitingSnapshot = true;
  private stamp = 0;

  constructor(private readonly book: MarketBook) {}

  /** True when the book handle is a public entry of this layer. */
  owns(handle: OrderHandle): boolean {
    return this.handleAt[handleIndex(handle)] === handle;
  }

  /** True once a snapshot set the layer up (level updates and prints apply). */
  get live(): boolean {
    return !this.awaitingSnapshot;
  }

  /** U, c and the public size the book holds at one level (for tests and diagnostics). */
  level(side: BookSide, price: number): { upstream: number; consumed: number; onBook: number } {
    const l = this.levels[side].get(price);
    return l ? { upstream: l.upstream, consumed: l.consumed, onBook: l.onBook } : { upstream: 0, consumed: 0, onBook: 0 };
  }

  /** The whole public depth (a `book` event or a resync): every level reconciled to its new size, absent levels to 0. */
  snapshot(bids: readonly PublicLevel[], asks: readonly PublicLevel[]): void {
    this.awaitingSnapshot = false;
    this.snapshotSide('bid', bids);
    this.snapshotSide('ask', asks);
    if (this.short.size > 0) this.retryShort();
  }

  /**
   * One side of a snapshot: each named level (in the order given) to its size, then levels it does not
   * name to 0. (Within one side the order does not matter: growth waits only for the opposite side.)
   */
  private snapshotSide(side: BookSide, given: readonly PublicLevel[]): void {
    const levels = this.levels[side];
    // A decoded book names each price once, best first; anything else is summed per price first.
    const list = strictlyMonotone(given) ? given : summedByPrice(given);
    const stamp = ++this.stamp;
    let named = 0;
    for (let i = 0; i < list.length; i++) {
      const l = this.setUpstream(side, list[i]!.price, list[i]!.size);
      if (l !== undefined) {
        l.seen = stamp;
        named++;
      }
    }
    // Usually the snapshot names every level the layer holds: then there is nothing to remove.
    if (named === levels.size) return;
    // Deleting the visited entry while iterating a Map is safe; nothing is added here.
    for (const l of levels.values()) if (l.seen !== stamp) this.setUpstream(side, l.price, 0);
  }

  /** A `price_change`: the new aggregate upstream size at one level (0 removes it). Ignored (false) before a snapshot. */
  update(side: BookSide, price: number, size: number): boolean {
    if (this.awaitingSnapshot) return false;
    this.setUpstream(side, price, size);
    if (this.short.size > 0) this.retryShort();
    return true;
  }

  /**
   * A local taker filled `size` of a public entry (the book reported `makerRemaining` left on it): the
   * level remembers the consumption, so later upstream sizes there are reduced by it.
   */
  takerFilled(handle: OrderHandle, size: number, makerRemaining: number): void {
    const l = this.levelOf(handle);
    if (!l) return;
    l.consumed += size;
    l.onBook -= size;
    if (makerRemaining === 0) this.forget(l, handle);
  }

  /** A public print walked `size` over a public entry (it shrank on the book, no trade); `settlePrint` reconciles after the print. */
  printed(handle: OrderHandle, size: number, makerRemaining: number): void {
    const l = this.levelOf(handle);
    if (!l) return;
    l.onBook -= size;
    if (makerRemaining === 0) this.forget(l, handle);
    // A print walks the book level by level, so a level's fills are consecutive: remember it once.
    const n = this.printedLevels.length;
    if (n === 0 || this.printedLevels[n - 1] !== l) this.printedLevels.push(l);
  }

  /**
   * After a print that filled anything: the levels whose public size it walked over back to their targets. Levels in its range
   * whose public size it did not reach already hold theirs (or wait, short, for the way to clear), so this
   * is `reconcileRange` over the print's range without visiting every level of the side.
   */
  settlePrint(): void {
    const n = this.printedLevels.length;
    if (n > 0) {
      for (let i = 0; i < n; i++) this.reconcile(this.printedLevels[i]!);
      this.printedLevels.length = 0;
    }
    // Local orders it filled may have cleared the way for public size kept short.
    if (this.short.size > 0) this.retryShort();
  }

  /** After a print: every level of `side` from `from` to `to` (inclusive, either order) back to its target. */
  reconcileRange(side: BookSide, from: number, to: number): void {
    const lo = Math.min(from, to);
    const hi = Math.max(from, to);
    // reconcile may delete the level it is given, which a Map iteration tolerates; it adds none.
    for (const l of this.levels[side].values()) if (l.price >= lo && l.price <= hi) this.reconcile(l);
    if (this.short.size > 0) this.retryShort();
  }

  /** Removes the public layer from the book (a tick change, stale or closed upstream, stop following); waits for a snapshot. */
  drop(): boolean {
    const had = this.entryCount > 0;
    for (const side of ['bid', 'ask'] as const) for (const l of this.levels[side].values()) for (const h of l.entries) this.book.cancel(h);
    this.handleAt.length = 0;
    this.levelAt.length = 0;
    this.entryCount = 0;
    this.levels.bid.clear();
    this.levels.ask.clear();
    this.short.clear();
    this.awaitingSnapshot = true;
    return had;
  }

  /** Sets a level's upstream size and reconciles it; returns the level while the layer still holds it. */
  private setUpstream(side: BookSide, price: number, size: number): LevelState | undefined {
    let l = this.levels[side].get(price);
    // The same size again (most levels of a snapshot): the level holds its target already, nothing to do.
    if (l && size === l.upstream && l.onBook === Math.max(0, size - l.consumed)) return l;
    if (!l) {
      if (size === 0) return undefined;
      l = { side, price, upstream: 0, consumed: 0, onBook: 0, seen: 0, entries: [] };
      this.levels[side].set(price, l);
    }
    // An upstream drop absorbs our consumption first (what we took was part of what upstream lost).
    if (size < l.upstream) l.consumed = Math.max(0, l.consumed - (l.upstream - size));
    if (size === 0) l.consumed = 0;
    l.upstream = size;
    this.reconcile(l);
    return l.upstream === 0 && l.entries.length === 0 ? undefined : l;
  }

  /** Brings the level's public size on the book to T = max(0, U − c): grow at the back, shrink from the back. */
  private reconcile(l: LevelState): void {
    const target = Math.max(0, l.upstream - l.consumed);
    while (l.onBook > target) {
      const h = l.entries[l.entries.length - 1];
      if (h === undefined) {
        l.onBook = 0; // nothing left to take from (cannot happen while the bookkeeping is sound)
        break;
      }
      const remaining = this.book.remainingOf(h) ?? 0;
      const cut = Math.min(remaining, l.onBook - target);
      if (cut < remaining) this.book.reduce(h, cut);
      else {
        this.book.cancel(h);
        this.forget(l, h);
      }
      l.onBook -= cut;
    }
    if (l.onBook < target) {
      // Public size already on the book here proves the way is clear (the book is never crossed).
      if (l.entries.length === 0 && this.crosses(l)) this.short.add(l);
      else {
        this.append(l, target - l.onBook);
        if (this.short.size > 0) this.short.delete(l);
      }
    } else if (this.short.size > 0) this.short.delete(l);
    if (l.upstream === 0 && l.entries.length === 0) {
      this.levels[l.side].delete(l.price);
      this.short.delete(l);
    }
  }

  /** Adds public size at the back of the level: extends its last entry when nothing queues behind it, else a new entry. */
  private append(l: LevelState, size: number): void {
    l.onBook += size;
    const last = l.entries.length > 0 ? l.entries[l.entries.length - 1]! : undefined;
    // The back of the queue: growing it in place keeps everyone's place (no entry cancelled and restored per growth).
    if (last !== undefined && this.book.growBack(last, size)) return;
    const h = this.book.restore({ side: l.side, price: l.price, remaining: size });
    l.entries.push(h);
    this.track(h, l);
  }

  /** True when public size at the level would cross the opposite side of the book (stale public depth, or a local order priced through it). */
  private crosses(l: LevelState): boolean {
    const opposite = l.side === 'bid' ? this.book.bestAsk() : this.book.bestBid();
    return opposite !== undefined && (l.side === 'bid' ? l.price >= opposite : l.price <= opposite);
  }

  /** Levels kept short by a crossing get their public size once the way is clear. */
  private retryShort(): void {
    if (this.short.size === 0) return;
    // reconcile of a level that no longer crosses only takes that level out of the set (safe while iterating).
    for (const l of this.short) if (!this.crosses(l)) this.reconcile(l);
  }

  private levelOf(handle: OrderHandle): LevelState | undefined {
    const i = handleIndex(handle);
    return this.handleAt[i] === handle ? this.levelAt[i] : undefined;
  }

  private track(handle: OrderHandle, l: LevelState): void {
    const i = handleIndex(handle);
    // Fill the gap below a new index, so the arrays stay without holes.
    while (this.handleAt.length < i) {
      this.handleAt.push(-1);
      this.levelAt.push(undefined);
    }
    this.handleAt[i] = handle;
    this.levelAt[i] = l;
    this.entryCount++;
  }

  private untrack(handle: OrderHandle): void {
    const i = handleIndex(handle);
    if (this.handleAt[i] !== handle) return;
    this.handleAt[i] = -1;
    this.levelAt[i] = undefined;
    this.entryCount--;
  }

  private forget(l: LevelState, handle: OrderHandle): void {
    this.untrack(handle);
    const i = l.entries.indexOf(handle);
    if (i === l.entries.length - 1) l.entries.pop();
    else if (i >= 0) l.entries.splice(i, 1);
  }
}

/** True when every price differs from the previous one in one direction (a decoded side: sorted, one entry per price). */
function strictlyMonotone(levels: readonly PublicLevel[]): boolean {
  if (levels.length < 3) return levels.length < 2 || levels[0]!.price !== levels[1]!.price;
  const up = levels[1]!.price > levels[0]!.price;
  for (let i = 1; i < levels.length; i++) {
    const d = levels[i]!.price - levels[i - 1]!.price;
    if (up ? d <= 0 : d >= 0) return false;
  }
  return true;
}

/** The levels with one entry per price, sizes summed, in the order each price first appears. */
function summedByPrice(levels: readonly PublicLevel[]): PublicLevel[] {
  const sizes = new Map<number, number>();
  for (const l of levels) sizes.set(l.price, (sizes.get(l.price) ?? 0) + l.size);
  return Array.from(sizes, ([price, size]) => ({ price, size }));
}
