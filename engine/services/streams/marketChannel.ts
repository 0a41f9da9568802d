import { formatUnits, ONE } from '../../protocol/amounts.js';
import { snapshotHash, snapshotHead, snapshotTail } from '../../protocol/bookHash.js';
import type { BookEvent, MarketEvent, MarketLifecycleEvent, Unsequenced } from '../../protocol/streamEvents.js';
import { PRICE_ONE, type MarketBook } from '../../book/types.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { StreamDeps } from './streamDeps.js';
import { formatMicros } from '../markets/formatMicros.js';
import type { Market } from '../markets/marketService.js';
import { LevelChanges, PriceChangeText } from './priceChangeText.js';
import { PublishedSide } from './publishedSide.js';
import { ReusedList } from './reusedList.js';
import type { StreamConnection, StreamLimits } from './streamTransport.js';

/** What a market subscriber needs of its connection: frames, and whether it asked for custom events. */
export interface MarketSubscriber extends StreamConnection {
  readonly custom: boolean;
}

/** Both sides of a market's book in outcome-0 terms, best first, as parallel arrays. */
interface BookSides {
  readonly bidPrices: number[];
  readonly bidSizes: number[];
  readonly askPrices: number[];
  readonly askSizes: number[];
}

/**
 * A market's book as of a change, to publish once the change is durable. Without `sides` the book is
 * read at the flush instead of copied now: the same book as long as the market's `version` has not
 * moved since (see `capture`). The last trade prices only when the change traded (they move only then).
 */
export interface BookCapture {
  readonly market: FollowedMarket;
  readonly version: number;
  readonly sides?: BookSides;
  readonly lastTrade?: [string, string];
}

/** A market with followed assets: its change count and what waits to be published. */
interface FollowedMarket {
  readonly conditionId: string;
  readonly assets: AssetState[];
  /** Changes told so far (`touched`): a capture without a copy reads the book it names while this stays. */
  version: number;
  /** Changed since the last capture. */
  dirty: boolean;
  /** Captures without a copy whose change is not committed yet (while one is, the next capture copies). */
  lazyOpen: number;
  /** The latest committed capture not published yet, the last trade prices since the last publish, and the trades committed since. */
  staged: BookCapture | undefined;
  stagedLastTrade: [string, string] | undefined;
  readonly trades: TradeRow[];
}

/** One followed asset: what its subscribers were last told, its seq and the replay ring. */
interface AssetState {
  readonly tokenId: string;
  /** Replaced when the market's tick changes (the hash covers the tick). */
  market: Market;
  readonly outcomeIndex: 0 | 1;
  seq: number;
  /** Token terms, as last published, with their wire JSON. */
  readonly bids: PublishedSide;
  readonly asks: PublishedSide;
  lastTrade: string;
  hash: string;
  timestamp: string;
  /** The snapshot's text before its timestamp (the same for every hash of the asset). */
  readonly head: string;
  /** The snapshot's text after the asks, for `tailMarket` and `tailLastTrade` (rebuilt when either moves). */
  tail: string;
  tailMarket: Market | undefined;
  tailLastTrade: string;
  readonly priceChange: PriceChangeText;
  /** Recent events (their texts) for `resume_from`, oldest first; `ringStart` is the seq of the first (seqs are consecutive). */
  readonly ring: string[];
  ringStart: number;
  readonly subscribers: Set<MarketSubscriber>;
  /** Events not yet sent (JSON texts; those flagged custom go to custom subscribers only), flushed together. */
  readonly pending: ReusedList<string>;
  readonly pendingCustom: ReusedList<boolean>;
}

/**
 * The market channel's state: per followed asset a seq, the book as published, and a ring of recent
 * events. An asset is followed from its first subscription on (its seq keeps counting without
 * subscribers, so a reconnecting client can resume). Events are built from captures taken right after
 * each change and published once that change is durable, in commit order.
 */
export class MarketChannel {
  private readonly assets = new Map<string, AssetState>();
  private readonly markets = new Map<string, FollowedMarket>();
  /** Followed markets changed since the last capture. */
  private readonly changed = new ReusedList<FollowedMarket>();
  /** Markets with a staged capture, in the order they were first staged. */
  private readonly staging = new ReusedList<FollowedMarket>();
  /** Assets with pending events, and whether a flush is scheduled. */
  private readonly dirty = new Set<AssetState>();
  private flushScheduled = false;
  /** What publishing reuses from market to market: the book read at the flush and an asset's level changes. */
  private readonly scratch: BookSides = { bidPrices: [], bidSizes: [], askPrices: [], askSizes: [] };
  private readonly changes = new LevelChanges();
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

  /** A market's book changed in memory (told before the change's capture): a followed market's version moves on. */
  touched(conditionId: string): void {
    const m = this.markets.get(conditionId);
    if (!m) return;
    m.version++;
    if (m.dirty) return;
    m.dirty = true;
    this.changed.push(m);
  }

  /**
   * Captures every followed market changed since the last capture (call synchronously after the change);
   * a market with one of `trades` gets its last trade prices. Undefined when none changed.
   *
   * Durable before published: a capture is published only once its change is committed, and shows the
   * book as it was at the capture. Copying both sides of the book per change is most of what a change
   * costs the stream, so a capture only notes the market's version, and the flush reads the book
   * itself when that version has not moved since (the book is then exactly the captured one). When it
   * has moved, a later change of the market is not published yet, and the capture is held until a later
   * capture of the market is committed (it shows the held change too). For that later capture not to be
   * held as well, a capture taken while a capture without a copy awaits its commit copies the book.
   */
  capture(trades: readonly TradeRow[] | undefined): BookCapture[] | undefined {
    let out: BookCapture[] | undefined;
    for (let i = 0; i < this.changed.length; i++) {
      const m = this.changed.at(i);
      m.dirty = false;
      const cap = this.captureOne(m, trades !== undefined && tradedIn(trades, m.conditionId));
      if (cap) (out ??= []).push(cap);
    }
    this.changed.clear();
    return out;
  }

  private captureOne(m: FollowedMarket, traded: boolean): BookCapture | undefined {
    const book = this.ctx.orders.book(m.conditionId);
    const market = this.ctx.markets.byCondition(m.conditionId);
    if (!book || !market) return undefined;
    const lastTrade: [string, string] | undefined = traded ? [this.lastTradeOf(market.tokenIds[0]), this.lastTradeOf(market.tokenIds[1])] : undefined;
    if (m.lazyOpen > 0) return { market: m, version: m.version, sides: readBook(book, newSides()), lastTrade };
    m.lazyOpen++;
    return { market: m, version: m.version, lastTrade };
  }

  /** The asset's state, followed from now on; undefined for an unknown token. */
  follow(tokenId: string): AssetState | undefined {
    const existing = this.assets.get(tokenId);
    if (existing) return existing;
    const found = this.ctx.markets.byToken(tokenId);
    if (!found) return undefined;
    const { market, outcomeIndex } = found;
    const a: AssetState = {
      tokenId,
      market,
      outcomeIndex,
      seq: this.seqBase,
      bids: new PublishedSide('BUY'),
      asks: new PublishedSide('SELL'),
      lastTrade: this.lastTradeOf(market.tokenIds[outcomeIndex]),
      hash: '',
      timestamp: '',
      head: snapshotHead(market.conditionId, tokenId),
      tail: '',
      tailMarket: undefined,
      tailLastTrade: '',
      priceChange: new PriceChangeText(tokenId, market.conditionId),
      ring: [],
      ringStart: 0,
      subscribers: new Set(),
      pending: new ReusedList(),
      pendingCustom: new ReusedList(),
    };
    const book = this.ctx.orders.book(market.conditionId);
    if (book) this.moveSides(a, readBook(book, this.scratch));
    this.changes.clear();
    this.rehash(a, String(this.ctx.clock.nowMs()));
    this.assets.set(tokenId, a);
    let m = this.markets.get(market.conditionId);
    if (!m) {
      m = { conditionId: market.conditionId, assets: [], version: 0, dirty: false, lazyOpen: 0, staged: undefined, stagedLastTrade: undefined, trades: [] };
      this.markets.set(market.conditionId, m);
    }
    m.assets.push(a);
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
      bids: a.bids.wire(),
      asks: a.asks.wire(),
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
   * `trades` may hold other markets' trades (they are left out).
   */
  stage(cap: BookCapture, trades: readonly TradeRow[] | undefined): void {
    const m = cap.market;
    if (!cap.sides) m.lazyOpen--;
    if (!m.staged) this.staging.push(m);
    m.staged = cap;
    // A later change that did not trade keeps the last trade prices of an earlier one.
    if (cap.lastTrade) m.stagedLastTrade = cap.lastTrade;
    if (trades) for (const t of trades) if (t.conditionId === m.conditionId) m.trades.push(t);
    this.schedule();
  }

  /**
   * Publishes a market's staged change: last trades first, then per asset the level changes with the
   * hash. False when it is held: captured without a copy, and the book has moved on since (see `capture`).
   */
  private publish(m: FollowedMarket): boolean {
    const cap = m.staged!;
    let sides = cap.sides;
    if (!sides) {
      const book = this.ctx.orders.book(m.conditionId);
      if (cap.version !== m.version || !book) return false;
      sides = readBook(book, this.scratch);
    }
    const timestamp = String(this.ctx.clock.nowMs());
    for (const a of m.assets) {
      for (const t of m.trades) this.emitLastTrade(a, t, timestamp);
      const oldBid = a.bids.best();
      const oldAsk = a.asks.best();
      const moved = this.moveSides(a, sides);
      if (m.stagedLastTrade) a.lastTrade = m.stagedLastTrade[a.outcomeIndex];
      if (!moved && m.trades.length === 0) continue;
      this.rehash(a, timestamp);
      const bid = a.bids.best();
      const ask = a.asks.best();
      // An empty side reads "0" (bid) or "1" (ask), the bounds of a price.
      const bestBid = bid === undefined ? '0' : formatMicros(bid);
      const bestAsk = ask === undefined ? '1' : formatMicros(ask);
      // asset_id also at the top: a change that only traded has no level changes to name the asset in.
      this.emitText(a, a.priceChange.write(timestamp, this.changes, a.hash, bestBid, bestAsk, a.seq + 1));
      if ((bid !== oldBid || ask !== oldAsk) && hasCustom(a)) {
        const spread = (ask ?? PRICE_ONE) - (bid ?? 0);
        this.emitCustom(a, { event_type: 'best_bid_ask', market: a.market.conditionId, asset_id: a.tokenId, best_bid: bestBid, best_ask: bestAsk, spread: formatUnits(BigInt(spread)), timestamp, seq: a.seq });
      }
    }
    m.staged = undefined;
    m.stagedLastTrade = undefined;
    m.trades.length = 0;
    return true;
  }

  /** Moves an asset's sides to the book `sides` (outcome-0 terms), its level changes into `this.changes`; true when a side moved. */
  private moveSides(a: AssetState, sides: BookSides): boolean {
    this.changes.clear();
    // Outcome 1's bids are the book's asks at 1 − p, and its asks the book's bids.
    const mirror = a.outcomeIndex === 1;
    const bidsMoved = a.bids.moveTo(mirror ? sides.askPrices : sides.bidPrices, mirror ? sides.askSizes : sides.bidSizes, mirror, this.changes);
    const asksMoved = a.asks.moveTo(mirror ? sides.bidPrices : sides.askPrices, mirror ? sides.bidSizes : sides.askSizes, mirror, this.changes);
    return bidsMoved || asksMoved;
  }

  private emitLastTrade(a: AssetState, t: TradeRow, timestamp: string): void {
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

  /**
   * A market's tick changed (durably): what was staged goes out first, on the old tick; then every
   * asset of the market takes the new market, is re-hashed (the hash covers the tick) and emits
   * `tick_size_change` carrying that hash, so a client re-hashing its book stays in step.
   */
  tickSizeChanged(m: Market, oldTick: bigint): void {
    const followed = this.markets.get(m.conditionId)?.assets;
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
    for (const a of this.markets.get(conditionId)?.assets ?? []) this.emitCustom(a, { ...event(a), asset_id: a.tokenId, seq: a.seq });
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
    this.lastFlushAt = performance.now();
    // What publishing queues goes out below, in this flush: marked as scheduled, queueing it schedules no other.
    this.flushScheduled = true;
    this.publishStaged();
    this.flushScheduled = false;
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
    // With one subscriber there is nothing to share (and no key of its assets' ids to build).
    const frames = perSubscriber.size > 1 ? new Map<string, Buffer | null>() : undefined;
    for (const [s, list] of perSubscriber) {
      let frame: Buffer | null | undefined;
      let key = '';
      if (frames) {
        key = s.custom ? 'c' : 'p';
        for (const a of list) key += a.tokenId;
        frame = frames.get(key);
      }
      if (frame === undefined) {
        frame = pendingFrame(list, s.custom);
        frames?.set(key, frame);
      }
      if (frame) s.sendFrame(frame);
    }
    for (const a of this.dirty) {
      a.pending.clear();
      a.pendingCustom.clear();
    }
    this.dirty.clear();
  }

  /** Publishes every staged market that is not held; the held ones stay staged, in their order. */
  private publishStaged(): void {
    let kept = 0;
    for (let i = 0; i < this.staging.length; i++) {
      const m = this.staging.at(i);
      if (!this.publish(m)) this.staging.set(kept++, m);
    }
    this.staging.truncate(kept);
  }

  private queue(a: AssetState, text: string, custom: boolean): void {
    a.pending.push(text);
    a.pendingCustom.push(custom);
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

  /** Sends an event with the asset's next seq (last, as the stream's events carry it). */
  private emit(a: AssetState, event: Unsequenced<MarketEvent>): void {
    const sequenced = event as MarketEvent & { seq: number };
    sequenced.seq = a.seq + 1;
    this.emitText(a, JSON.stringify(sequenced));
  }

  /** Records and queues the text of the asset's next seq-carrying event (it carries seq `a.seq + 1`). */
  private emitText(a: AssetState, text: string): void {
    a.seq += 1;
    if (a.ring.length === 0) a.ringStart = a.seq;
    a.ring.push(text);
    // Trimmed in chunks (not one shift per event): between replayEvents and twice that are kept.
    if (a.ring.length >= 2 * this.limits.replayEvents) {
      const drop = a.ring.length - this.limits.replayEvents;
      a.ring.splice(0, drop);
      a.ringStart += drop;
    }
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
    if (a.ring.length === 0 || a.ringStart > seq + 1) return false;
    for (let i = seq + 1 - a.ringStart; i < a.ring.length; i++) {
      if (sub.closed) break;
      sub.sendFrame(Buffer.from(a.ring[i]!));
    }
    return true;
  }

  /** The hash GET /book gives for this state at `timestamp` (same fields, same key order). */
  private rehash(a: AssetState, timestamp: string): void {
    a.timestamp = timestamp;
    if (a.tailMarket !== a.market || a.tailLastTrade !== a.lastTrade) {
      a.tail = snapshotTail({ min_order_size: formatUnits(a.market.minOrderSize), tick_size: formatUnits(a.market.tickSize), neg_risk: a.market.negRisk, last_trade_price: a.lastTrade });
      a.tailMarket = a.market;
      a.tailLastTrade = a.lastTrade;
    }
    a.hash = snapshotHash(a.head, timestamp, a.bids.levelsJson, a.asks.levelsJson, a.tail);
  }

  private lastTradeOf(tokenId: string): string {
    const t = this.ctx.orders.lastTrade(tokenId);
    return t ? formatUnits(t.price) : '0.5';
  }
}

/** The pending events of `assets` as one frame (custom ones only for a custom subscriber); null when none is for it. */
function pendingFrame(assets: readonly AssetState[], custom: boolean): Buffer | null {
  const texts: string[] = [];
  for (const a of assets) for (let i = 0; i < a.pending.length; i++) if (custom || !a.pendingCustom.at(i)) texts.push(a.pending.at(i));
  return texts.length > 0 ? frameOf(texts) : null;
}

/** One event as itself, several as a JSON array, written straight into the frame (no joined string first). */
function frameOf(texts: readonly string[]): Buffer {
  if (texts.length === 1) return Buffer.from(texts[0]!);
  // The brackets and the commas between the events.
  let bytes = texts.length + 1;
  for (const t of texts) bytes += Buffer.byteLength(t);
  const frame = Buffer.allocUnsafe(bytes);
  let n = frame.write('[', 0);
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) n += frame.write(',', n);
    n += frame.write(texts[i]!, n);
  }
  frame.write(']', n);
  return frame;
}

/** Empty book sides for a copy. */
function newSides(): BookSides {
  return { bidPrices: [], bidSizes: [], askPrices: [], askSizes: [] };
}

/** Both sides of the book as they are now, into `into`. */
function readBook(book: MarketBook, into: BookSides): BookSides {
  book.copyLevels('bid', into.bidPrices, into.bidSizes);
  book.copyLevels('ask', into.askPrices, into.askSizes);
  return into;
}

function tradedIn(trades: readonly TradeRow[], conditionId: string): boolean {
  for (const t of trades) if (t.conditionId === conditionId) return true;
  return false;
}

/** Custom events (best_bid_ask) are built only when a subscriber of the asset takes them. */
function hasCustom(a: AssetState): boolean {
  for (const s of a.subscribers) if (s.custom) return true;
  return false;
}
