import { formatUnits, ONE, parseUnits } from '../../protocol/amounts.js';
import { levelsText, renderBookSnapshot, type BookLevelText, type LevelsText } from '../../protocol/bookHash.js';
import type { BookEvent, MarketEvent, MarketLifecycleEvent, Unsequenced } from '../../protocol/streamEvents.js';
import { fromBookPrice, type Level } from '../../book/types.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { StreamDeps } from './streamDeps.js';
import { formatMicros } from '../markets/formatMicros.js';
import type { Market } from '../markets/marketService.js';
import type { StreamConnection, StreamLimits } from './streamTransport.js';

/** What a market subscriber needs of its connection: frames, and whether it asked for custom events. */
export interface MarketSubscriber extends StreamConnection {
  readonly custom: boolean;
}

/**
 * A market's book (outcome-0 terms, best first), captured right after a change; the last trade prices
 * only when the change traded (they move only then).
 */
export interface BookCapture {
  conditionId: string;
  bids: Level[];
  asks: Level[];
  lastTrade?: [string, string];
}

/** One followed asset: what its subscribers were last told, its seq and the replay ring. */
interface AssetState {
  readonly tokenId: string;
  /** Replaced when the market's tick changes (the hash covers the tick). */
  market: Market;
  readonly outcomeIndex: 0 | 1;
  seq: number;
  /** Token terms, best first, as last published. */
  bids: Level[];
  asks: Level[];
  lastTrade: string;
  hash: string;
  timestamp: string;
  /** The sides' wire JSON as last hashed; null once the side changed (rebuilt at the next hash only). */
  bidsText: LevelsText | null;
  asksText: LevelsText | null;
  /** Recent events (their texts) for `resume_from`, oldest first. */
  readonly ring: Array<{ seq: number; text: string }>;
  readonly subscribers: Set<MarketSubscriber>;
  /** Events not yet sent (JSON texts; `custom` ones go to custom subscribers only), flushed together. */
  readonly pending: Array<{ text: string; custom: boolean }>;
}

/**
 * The market channel's state: per followed asset a seq, the book as published, and a ring of recent
 * events. An asset is followed from its first subscription on (its seq keeps counting without
 * subscribers, so a reconnecting client can resume). Events are built from captures taken right after
 * each change and published once that change is durable, in commit order.
 */
export class MarketChannel {
  private readonly assets = new Map<string, AssetState>();
  private readonly byMarket = new Map<string, AssetState[]>();
  /** Assets with pending events, and whether a flush is scheduled. */
  private readonly dirty = new Set<AssetState>();
  private flushScheduled = false;
  /** Per market: the latest committed capture since the last flush, and the trades since then. */
  private readonly staged = new Map<string, { cap: BookCapture; trades: TradeRow[] }>();
  /** When the last flush ran (monotonic ms): flushes are at least `flushIntervalMs` apart while busy. */
  private lastFlushAt = -Infinity;
  /**
   * Where this run's seqs start: its start time in ms × 1000. Seqs of different runs never overlap (a run
   * would need 1,000 events per millisecond of its life on one asset to reach the next run's), so a
   * `resume_from` seq from another run is not in this run's ring and gets a fresh `book` (docs/api-streams.md).
   */
  private readonly seqBase: number;

  constructor(
    private readonly ctx: Pick<StreamDeps, 'clock' | 'markets' | 'orders'>,
    private readonly limits: StreamLimits,
  ) {
    this.seqBase = Math.floor(ctx.clock.nowMs()) * 1000;
  }

  /** True when some asset of the market is followed (only then does a change need a capture). */
  follows(conditionId: string): boolean {
    return this.byMarket.has(conditionId);
  }

  /** The market's book as it is now (call synchronously after the change); `traded` adds the last trade prices. */
  capture(conditionId: string, traded = true): BookCapture | undefined {
    const book = this.ctx.orders.book(conditionId);
    const m = this.ctx.markets.byCondition(conditionId);
    if (!book || !m) return undefined;
    // levels() builds fresh level objects: the capture stays as it is while the book moves on.
    const cap: BookCapture = { conditionId, bids: book.levels('bid'), asks: book.levels('ask') };
    if (traded) cap.lastTrade = [this.lastTradeOf(m.tokenIds[0]), this.lastTradeOf(m.tokenIds[1])];
    return cap;
  }

  /** The asset's state, followed from now on; undefined for an unknown token. */
  follow(tokenId: string): AssetState | undefined {
    const existing = this.assets.get(tokenId);
    if (existing) return existing;
    const found = this.ctx.markets.byToken(tokenId);
    if (!found) return undefined;
    const cap = this.capture(found.market.conditionId);
    const sides = cap ? tokenSides(cap, found.outcomeIndex) : { bids: [], asks: [] };
    const a: AssetState = {
      tokenId,
      market: found.market,
      outcomeIndex: found.outcomeIndex,
      seq: this.seqBase,
      ...sides,
      lastTrade: cap?.lastTrade ? cap.lastTrade[found.outcomeIndex] : this.lastTradeOf(tokenId),
      hash: '',
      timestamp: '',
      bidsText: null,
      asksText: null,
      ring: [],
      subscribers: new Set(),
      pending: [],
    };
    this.rehash(a, String(this.ctx.clock.nowMs()));
    this.assets.set(tokenId, a);
    const list = this.byMarket.get(found.market.conditionId) ?? [];
    list.push(a);
    this.byMarket.set(found.market.conditionId, list);
    return a;
  }

  subscribe(tokenId: string, sub: MarketSubscriber, opts: { initialDump: boolean; resumeFrom?: number }): boolean {
    const a = this.follow(tokenId);
    if (!a) return false;
    // What is pending goes to the current subscribers only: the book or replay below already includes it.
    this.flush();
    if (sub.closed) return true;
    a.subscribers.add(sub);
    if (opts.resumeFrom !== undefined && this.replay(a, sub, opts.resumeFrom)) {
      if (sub.closed) a.subscribers.delete(sub);
      return true;
    }
    if (opts.initialDump || opts.resumeFrom !== undefined) sub.sendFrame(Buffer.from(JSON.stringify(this.bookEvent(a))));
    // Closed by its own book (it stopped reading): its connection never recorded this asset, so drop it here.
    if (sub.closed) a.subscribers.delete(sub);
    return true;
  }

  unsubscribe(tokenId: string, sub: MarketSubscriber): void {
    this.assets.get(tokenId)?.subscribers.delete(sub);
  }

  /** The `book` event of an asset as last published (it carries the seq of the last change it includes). */
  bookEvent(a: AssetState): BookEvent {
    return {
      event_type: 'book',
      asset_id: a.tokenId,
      market: a.market.conditionId,
      bids: wire(a.bids),
      asks: wire(a.asks),
      timestamp: a.timestamp,
      hash: a.hash,
      min_order_size: formatUnits(a.market.minOrderSize),
      tick_size: formatUnits(a.market.tickSize),
      neg_risk: a.market.negRisk,
      last_trade_price: a.lastTrade,
      seq: a.seq,
    };
  }

  /**
   * A durable change of a market, published at the next flush: the changes committed since the last
   * flush become one `price_change` per asset (against the latest committed capture), after their
   * `last_trade_price` events, so hashing, diffing and sending cost once per flush, not per order.
   */
  stage(cap: BookCapture, trades: readonly TradeRow[]): void {
    const staged = this.staged.get(cap.conditionId);
    if (staged) {
      staged.cap = cap.lastTrade || !staged.cap.lastTrade ? cap : { ...cap, lastTrade: staged.cap.lastTrade };
      staged.trades.push(...trades);
    } else this.staged.set(cap.conditionId, { cap, trades: [...trades] });
    this.schedule();
  }

  /** Publishes one durable change of a market: last trades first, then the level changes with the hash. */
  private publish(cap: BookCapture, trades: readonly TradeRow[]): void {
    const followed = this.byMarket.get(cap.conditionId);
    if (!followed) return;
    const timestamp = String(this.ctx.clock.nowMs());
    for (const a of followed) {
      for (const t of trades) {
        const mine = a.tokenId === t.takerAssetId;
        const price = mine ? t.price : a.tokenId === t.makerAssetId ? t.makerPrice : ONE - t.price;
        a.lastTrade = formatUnits(price);
        this.emit(a, {
          event_type: 'last_trade_price',
          asset_id: a.tokenId,
          market: a.market.conditionId,
          price: a.lastTrade,
          size: formatUnits(t.size),
          side: mine ? t.takerSide : t.takerSide === 'BUY' ? 'SELL' : 'BUY',
          fee_rate_bps: String(t.takerFeeRateBps),
          timestamp,
          transaction_hash: t.transactionHash,
        });
      }
      const next = tokenSides(cap, a.outcomeIndex);
      const bidChanges = diff(a.bids, next.bids, 'BUY');
      const askChanges = diff(a.asks, next.asks, 'SELL');
      const changes = askChanges.length === 0 ? bidChanges : bidChanges.length === 0 ? askChanges : [...bidChanges, ...askChanges];
      const oldBest = bestOf(a);
      a.bids = next.bids;
      a.asks = next.asks;
      // An unchanged side keeps its wire JSON: only the side that moved is formatted again for the hash.
      if (bidChanges.length > 0) a.bidsText = null;
      if (askChanges.length > 0) a.asksText = null;
      if (cap.lastTrade) a.lastTrade = cap.lastTrade[a.outcomeIndex];
      if (changes.length === 0 && trades.length === 0) continue;
      this.rehash(a, timestamp);
      const best = bestOf(a);
      // asset_id also at the top: a change that only traded has no level changes to name the asset in.
      this.emit(a, {
        event_type: 'price_change',
        asset_id: a.tokenId,
        market: a.market.conditionId,
        timestamp,
        price_changes: changes.map((c) => ({ asset_id: a.tokenId, price: c.price, size: c.size, side: c.side, hash: a.hash, best_bid: best.bid, best_ask: best.ask })),
        hash: a.hash,
      });
      if (best.bid !== oldBest.bid || best.ask !== oldBest.ask) {
        this.emitCustom(a, { event_type: 'best_bid_ask', market: a.market.conditionId, asset_id: a.tokenId, best_bid: best.bid, best_ask: best.ask, spread: spreadOf(best), timestamp, seq: a.seq });
      }
    }
  }

  /**
   * A market's tick changed (durably): what was staged goes out first, on the old tick; then every
   * asset of the market takes the new market, is re-hashed (the hash covers the tick) and emits
   * `tick_size_change` carrying that hash, so a client re-hashing its book stays in step.
   */
  tickSizeChanged(m: Market, oldTick: bigint): void {
    const followed = this.byMarket.get(m.conditionId);
    if (!followed) return;
    this.flush();
    const timestamp = String(this.ctx.clock.nowMs());
    for (const a of followed) {
      a.market = m;
      this.rehash(a, timestamp);
      this.emit(a, {
        event_type: 'tick_size_change',
        asset_id: a.tokenId,
        market: m.conditionId,
        old_tick_size: formatUnits(oldTick),
        new_tick_size: formatUnits(m.tickSize),
        timestamp,
        hash: a.hash,
      });
    }
  }

  /** Sends a custom-feature event (new_market, market_resolved) to the custom subscribers of the market's assets. */
  publishMarketEvent(conditionId: string, event: (a: AssetState) => Unsequenced<MarketLifecycleEvent>): void {
    for (const a of this.byMarket.get(conditionId) ?? []) this.emitCustom(a, { ...event(a), asset_id: a.tokenId, seq: a.seq });
  }

  /** Sends a custom event to every custom subscriber on any followed asset (new_market reaches them all). */
  broadcastCustom(event: MarketLifecycleEvent): void {
    const frame = Buffer.from(JSON.stringify(event));
    const seen = new Set<MarketSubscriber>();
    for (const a of this.assets.values()) {
      for (const s of a.subscribers) {
        if (!s.custom || seen.has(s)) continue;
        seen.add(s);
        s.sendFrame(frame);
      }
    }
  }

  dropSubscriber(sub: MarketSubscriber, tokens: Iterable<string>): void {
    for (const t of tokens) this.unsubscribe(t, sub);
  }

  /**
   * Sends every pending event: ONE frame per subscriber holding the events of all its assets (a JSON
   * array when several wait, as the public service also sends). Subscribers of the same assets share
   * the encoded frame, so a flush costs one encoding per distinct subscription plus one write per socket.
   */
  flush(): void {
    this.flushScheduled = false;
    this.lastFlushAt = performance.now();
    for (const { cap, trades } of this.staged.values()) this.publish(cap, trades);
    this.staged.clear();
    if (this.dirty.size === 0) return;
    const perSubscriber = new Map<MarketSubscriber, AssetState[]>();
    for (const a of this.dirty) {
      if (a.pending.length === 0) continue;
      for (const s of a.subscribers) {
        const list = perSubscriber.get(s);
        if (list) list.push(a);
        else perSubscriber.set(s, [a]);
      }
    }
    const frames = new Map<string, Buffer | null>();
    for (const [s, list] of perSubscriber) {
      let key = s.custom ? 'c' : 'p';
      for (const a of list) key += a.tokenId;
      let frame = frames.get(key);
      if (frame === undefined) {
        const texts: string[] = [];
        for (const a of list) for (const e of a.pending) if (s.custom || !e.custom) texts.push(e.text);
        frame = texts.length > 0 ? frameOf(texts) : null;
        frames.set(key, frame);
      }
      if (frame) s.sendFrame(frame);
    }
    for (const a of this.dirty) a.pending.length = 0;
    this.dirty.clear();
  }

  private queue(a: AssetState, text: string, custom: boolean): void {
    a.pending.push({ text, custom });
    this.dirty.add(a);
    this.schedule();
  }

  /** The next flush: at the end of this turn after a quiet spell, else once the interval has passed. */
  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const wait = this.lastFlushAt + this.limits.flushIntervalMs - performance.now();
    if (wait <= 0) setImmediate(this.flushNow);
    else setTimeout(this.flushNow, wait);
  }

  private readonly flushNow = (): void => {
    if (this.flushScheduled) this.flush();
  };

  private emit(a: AssetState, event: Unsequenced<MarketEvent>): void {
    a.seq += 1;
    const text = JSON.stringify({ ...event, seq: a.seq });
    a.ring.push({ seq: a.seq, text });
    // Trimmed in chunks (not one shift per event): between replayEvents and twice that are kept.
    if (a.ring.length >= 2 * this.limits.replayEvents) a.ring.splice(0, a.ring.length - this.limits.replayEvents);
    this.queue(a, text, false);
  }

  /** Custom events repeat the seq of the change they follow: subscribers without them see no gap. */
  private emitCustom(a: AssetState, event: MarketEvent): void {
    this.queue(a, JSON.stringify(event), true);
  }

  /** Sends the events after `seq` from the ring; false when they are gone (the caller sends a book). */
  private replay(a: AssetState, sub: MarketSubscriber, seq: number): boolean {
    if (!Number.isSafeInteger(seq) || seq > a.seq || seq < this.seqBase) return false;
    if (seq === a.seq) return true;
    const first = a.ring[0];
    if (!first || first.seq > seq + 1) return false;
    for (const e of a.ring) {
      if (sub.closed) break;
      if (e.seq > seq) sub.sendFrame(Buffer.from(e.text));
    }
    return true;
  }

  /** The hash GET /book gives for this state at `timestamp` (same fields, same key order). */
  private rehash(a: AssetState, timestamp: string): void {
    a.timestamp = timestamp;
    a.hash = renderBookSnapshot({
      market: a.market.conditionId,
      asset_id: a.tokenId,
      timestamp,
      bids: (a.bidsText ??= levelsText(wire(a.bids))),
      asks: (a.asksText ??= levelsText(wire(a.asks))),
      min_order_size: formatUnits(a.market.minOrderSize),
      tick_size: formatUnits(a.market.tickSize),
      neg_risk: a.market.negRisk,
      last_trade_price: a.lastTrade,
    }).hash;
  }

  private lastTradeOf(tokenId: string): string {
    const t = this.ctx.orders.lastTrade(tokenId);
    return t ? formatUnits(t.price) : '0.5';
  }
}

/** One event as itself, several as a JSON array. */
function frameOf(texts: readonly string[]): Buffer {
  return Buffer.from(texts.length === 1 ? texts[0]! : '[' + texts.join(',') + ']');
}

/** A token's bid and ask levels (its own price terms, best first) from the market's outcome-0 book. */
function tokenSides(cap: BookCapture, outcomeIndex: 0 | 1): { bids: Level[]; asks: Level[] } {
  if (outcomeIndex === 0) return { bids: cap.bids, asks: cap.asks };
  const mirror = (ls: Level[]): Level[] => ls.map((l) => ({ price: fromBookPrice(1, l.price), size: l.size }));
  return { bids: mirror(cap.asks), asks: mirror(cap.bids) };
}

/** Best-first levels as wire levels, best LAST (as GET /book). */
function wire(levels: readonly Level[]): BookLevelText[] {
  const out: BookLevelText[] = [];
  for (let i = levels.length - 1; i >= 0; i--) out.push({ price: formatMicros(levels[i]!.price), size: formatMicros(levels[i]!.size) });
  return out;
}

/**
 * The level changes from `before` to `after` (both best first, one level per price): changed or new
 * levels in `after`'s order, then the removed ones (size "0") in `before`'s order. One merge walk, as
 * both lists are sorted the same way (bids by falling price, asks by rising price).
 */
function diff(before: readonly Level[], after: readonly Level[], side: 'BUY' | 'SELL'): Array<{ price: string; size: string; side: 'BUY' | 'SELL' }> {
  const out: Array<{ price: string; size: string; side: 'BUY' | 'SELL' }> = [];
  let removed: Array<{ price: string; size: string; side: 'BUY' | 'SELL' }> | undefined;
  // +1 when a higher price is better (bids), -1 when a lower one is (asks).
  const dir = side === 'BUY' ? 1 : -1;
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const b = before[i];
    const l = after[j];
    if (l && (!b || (l.price - b.price) * dir > 0)) {
      out.push({ price: formatMicros(l.price), size: formatMicros(l.size), side });
      j++;
    } else if (b && (!l || (b.price - l.price) * dir > 0)) {
      (removed ??= []).push({ price: formatMicros(b.price), size: '0', side });
      i++;
    } else {
      if (l!.size !== b!.size) out.push({ price: formatMicros(l!.price), size: formatMicros(l!.size), side });
      i++;
      j++;
    }
  }
  return removed ? out.concat(removed) : out;
}

/** Best prices as wire text; an empty side reads "0" (bid) or "1" (ask), the bounds of a price. */
function bestOf(a: { bids: Level[]; asks: Level[] }): { bid: string; ask: string } {
  return { bid: a.bids[0] ? formatMicros(a.bids[0].price) : '0', ask: a.asks[0] ? formatMicros(a.asks[0].price) : '1' };
}

function spreadOf(best: { bid: string; ask: string }): string {
  return formatUnits((parseUnits(best.ask) ?? 0n) - (parseUnits(best.bid) ?? 0n));
}
