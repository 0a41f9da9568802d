import { ApiError } from '../../protocol/errors.js';
import type { Infra } from '../infra.js';
import type { Market, MarketService } from '../markets/marketService.js';
import { identityOfRow } from './mirrorIdentity.js';
import type { DecodeResult, MarketDecoder, MirrorStatus, PublicBookEvent, PublicCatalogueEntry, PublicMarketIdentity, TapeEntry, UpstreamState } from './mirrorTypes.js';

/** decisions §10: no upstream event for this long (heartbeats count) marks a mirrored market stale. */
export const STALE_AFTER_MS = 30_000;
/** A resync that failed is tried again this often (wall ms) while the market stays stale. */
const RESYNC_RETRY_MS = 10_000;
const SEARCH_LIMIT_DEFAULT = 10;
const SEARCH_LIMIT_MAX = 50;

/** What the mirror asks of the upstream's REST side (hup's UpstreamClient). */
export interface MirrorUpstream {
  resolveMarket(ref: string): Promise<PublicMarketIdentity>;
  search(q: string, limit?: number): Promise<PublicCatalogueEntry[]>;
}

/** What the mirror asks of the upstream's live feed (hup's UpstreamFeed). */
export interface MirrorFeed {
  follow(identity: PublicMarketIdentity, sink: (entry: TapeEntry) => void): void;
  resync(conditionId: string): Promise<unknown> | unknown;
  unfollow(conditionId: string): void;
  /** Exchange ms of the market's last upstream event (heartbeats and PONGs count); null before the first. */
  lastEventAt(conditionId: string): number | null;
  close(): Promise<unknown> | unknown;
}

/** The order service's public layer (hcore's OrderService.applyPublic / dropPublic). */
export interface MirrorPublicLayer {
  applyPublic(conditionId: string, events: readonly PublicBookEvent[]): Promise<unknown>;
  dropPublic(conditionId: string): Promise<unknown> | unknown;
}

/** What the mirror service uses, wired by engine/engine.ts. */
export type MirrorDeps = Pick<Infra, 'clock'> & {
  readonly markets: Pick<MarketService, 'byCondition' | 'list' | 'createMirrored' | 'close' | 'resolve' | 'setMirrorFollowing'>;
  readonly orders: MirrorPublicLayer;
  readonly upstream: MirrorUpstream;
  readonly feed: MirrorFeed;
  readonly decoderFor: (identity: PublicMarketIdentity) => MarketDecoder;
  /** Wall clock for the resync retry timer (real time protects the upstream's rate budget). */
  readonly wallClock?: Infra['clock'];
};

/** One row of GET /admin/mirrors. */
export interface MirrorListing {
  conditionId: string;
  question: string;
  source: string;
  upstreamState: UpstreamState;
  lastEventAgeMs: number | null;
  recording: boolean;
}

interface Followed {
  readonly identity: PublicMarketIdentity;
  readonly decoder: MarketDecoder;
  readonly followedAt: number;
  /** Exchange ms of the last entry the feed handed over. */
  lastEntryAt: number | null;
  /** The last resync failed (or a decoded entry asked for one that has not arrived): stale until a good one. */
  resyncFailed: boolean;
  lastResyncAttempt: number;
  closed: boolean;
  /**
   * Entries handed over and not yet handled. Those of one turn (the events of one upstream frame) are
   * handled together: decoded in order and applied as one change, not one change per event.
   */
  waiting: TapeEntry[];
  /**
   * A batch is queued or being applied. Entries are handled one batch after another per market (the
   * public layer must see them in order): entries arriving meanwhile wait for the next batch.
   */
  running: boolean;
  /** Handles the waiting entries (queued as a microtask: the rest of the turn joins the batch). Never throws. */
  readonly run: () => void;
  /** Told when the market has nothing queued or in flight (idle(), stop()). */
  settled: Array<() => void> | undefined;
}

const NO_EVENTS: readonly PublicBookEvent[] = Object.freeze([]);
const NO_ENTRIES = Object.freeze([]) as unknown as TapeEntry[];
const SETTLED = Promise.resolve();

/**
 * Mirrors public markets (decisions §10): creates the local copy with the public identity, follows the
 * public market channel, decodes each upstream entry into public book events for the order service's
 * public layer, and keeps each market's state: live, stale (no event for 30 s or a failed resync;
 * marketable orders then get 409 market_stale, the depth stays) or closed (the public market stopped
 * trading, or the operator stopped following). A public resolution resolves the local market with the
 * public winner. Mirrors persist: init() follows again what was followed before a restart.
 */
export class MirrorService {
  private readonly followed = new Map<string, Followed>();
  /** Status of markets whose public layer another service drives (replays of tapes). */
  private readonly external = new Map<string, () => MirrorStatus>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly starting = new Map<string, Promise<Market>>();

  /** Told of every upstream entry as received, before it is decoded (the tape recorder subscribes). */
  readonly onEntry = new Set<(conditionId: string, identity: PublicMarketIdentity, entry: TapeEntry) => void>();

  /** Whether a market's upstream events are being recorded (set by the composition root from the tape service). */
  recording: (conditionId: string) => boolean = () => false;

  constructor(private readonly ctx: MirrorDeps) {}

  /** Follows again every public mirror that was followed when the engine stopped. */
  async init(): Promise<void> {
    for (const m of this.ctx.markets.list()) {
      if (m.mirrorSource !== 'public' || !m.mirrorFollowing || m.winner !== null) continue;
      const identity = identityOfRow(m);
      if (!identity) {
        console.warn(`[mirror] market ${m.conditionId} has no readable public identity; not following it`);
        continue;
      }
      this.follow(m, identity);
    }
    this.timer = setInterval(() => this.retryResyncs(), 1_000);
    this.timer.unref();
  }

  /** Resolves once every entry received so far has been handled, including entries queued while waiting. */
  async idle(): Promise<void> {
    for (;;) {
      const busy = [...this.followed.values()].filter((f) => f.running);
      if (busy.length === 0) return;
      await Promise.all(busy.map((f) => settled(f)));
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const conditionId of [...this.followed.keys()]) this.ctx.feed.unfollow(conditionId);
    await Promise.all([...this.followed.values()].map((f) => settled(f)));
    this.followed.clear();
    await this.ctx.feed.close();
  }

  /**
   * Mirrors a public market given by slug, condition id or polymarket.com URL: resolves it upstream,
   * creates the local market with its identity and follows it. A market already mirrored and followed
   * is returned as it is.
   */
  async start(ref: string): Promise<Market> {
    if (typeof ref !== 'string' || ref.trim() === '') {
      throw new ApiError('invalid_field', 'market must name a public market: a slug, a condition id (0x + 64 hex) or a polymarket.com URL.', { details: { field: 'market' } });
    }
    const identity = await this.ctx.upstream.resolveMarket(ref.trim());
    // Two requests for one market (a slug and its condition id, a double click) create it once.
    const key = identity.conditionId.toLowerCase();
    const pending = this.starting.get(key);
    if (pending) return pending;
    const run = this.startResolved(identity).finally(() => this.starting.delete(key));
    this.starting.set(key, run);
    return run;
  }

  private async startResolved(identity: PublicMarketIdentity): Promise<Market> {
    const existing = this.ctx.markets.byCondition(identity.conditionId);
    if (existing) {
      if (existing.mirrorSource === null) {
        throw new ApiError('invalid_field', `Market ${existing.conditionId} is a local market; it cannot become a mirror.`, { details: { field: 'market' } });
      }
      if (this.followed.has(existing.conditionId)) return existing;
      throw new ApiError('invalid_field', `Market ${existing.conditionId} was mirrored and stopped; a stopped mirror stays closed. Its record: GET /markets/${existing.conditionId}.`, {
        details: { field: 'market' },
      });
    }
    let market = await this.ctx.markets.createMirrored(identity, 'public');
    if (identity.winner !== null) {
      // Already resolved upstream: the copy resolves at once and needs no feed.
      await this.ctx.markets.setMirrorFollowing(market.conditionId, false);
      return this.ctx.markets.resolve(market.conditionId, identity.winner);
    }
    if (identity.closed || !identity.acceptingOrders) market = await this.ctx.markets.close(market.conditionId);
    this.follow(market, identity);
    return this.ctx.markets.byCondition(market.conditionId) ?? market;
  }

  /** Stops following a public market: its public depth goes, the market stays, closed for new orders. */
  async stopFollowing(conditionId: string): Promise<Market> {
    const m = this.ctx.markets.byCondition(conditionId);
    if (!m || m.mirrorSource !== 'public') {
      throw new ApiError('market_not_found', `No mirrored public market has condition id ${conditionId}. List mirrors with GET /admin/mirrors.`);
    }
    const f = this.followed.get(m.conditionId);
    if (f) {
      this.followed.delete(m.conditionId);
      this.ctx.feed.unfollow(m.conditionId);
      await settled(f);
    }
    await this.ctx.orders.dropPublic(m.conditionId);
    if (m.mirrorFollowing) await this.ctx.markets.setMirrorFollowing(m.conditionId, false);
    return this.ctx.markets.close(m.conditionId);
  }

  /** Every mirrored market (followed or not), oldest first. */
  list(): MirrorListing[] {
    const rows: MirrorListing[] = [];
    for (const m of this.ctx.markets.list()) {
      const s = this.recordStatus(m);
      if (!s) continue;
      rows.push({ conditionId: m.conditionId, question: m.question, source: s.source, upstreamState: s.upstreamState, lastEventAgeMs: s.lastEventAgeMs, recording: this.recording(m.conditionId) });
    }
    return rows;
  }

  /** A mirrored market's status; undefined for a local market (the order service's stale check). */
  status(conditionId: string): MirrorStatus | undefined {
    const m = this.ctx.markets.byCondition(conditionId);
    return m ? (this.recordStatus(m) ?? undefined) : undefined;
  }

  /** The `mirror` field of a market record: null for a local market. */
  recordStatus(m: Market): MirrorStatus | null {
    if (m.mirrorSource === null) return null;
    const external = this.external.get(m.conditionId);
    if (external) return external();
    const f = this.followed.get(m.conditionId);
    if (!f) return { source: m.mirrorSource, upstreamState: 'closed', lastEventAgeMs: null };
    const now = this.ctx.clock.nowMs();
    const last = this.lastEventAt(f, m.conditionId);
    const age = last === null ? null : Math.max(0, now - last);
    const silentFor = now - (last ?? f.followedAt);
    const upstreamState: UpstreamState = f.closed || m.closed ? 'closed' : f.resyncFailed || silentFor > STALE_AFTER_MS ? 'stale' : 'live';
    return { source: m.mirrorSource, upstreamState, lastEventAgeMs: age };
  }

  /** Lets a replay (tapes) report the status of a market whose public layer it drives. */
  provideStatus(conditionId: string, status: (() => MirrorStatus) | undefined): void {
    if (status) this.external.set(conditionId.toLowerCase(), status);
    else this.external.delete(conditionId.toLowerCase());
  }

  /** The public catalogue by words (Gamma search), for the terminal's "Mirror" list. */
  search(q: string, limit?: number): Promise<PublicCatalogueEntry[]> {
    const words = typeof q === 'string' ? q.trim() : '';
    if (words === '') throw new ApiError('invalid_query', 'q must hold the words to search the public catalogue for, e.g. q=election.', { details: { field: 'q' } });
    const n = limit ?? SEARCH_LIMIT_DEFAULT;
    if (!Number.isSafeInteger(n) || n < 1 || n > SEARCH_LIMIT_MAX) {
      throw new ApiError('invalid_query', `limit must be a whole number 1..${SEARCH_LIMIT_MAX}; got ${String(limit)}.`, { details: { field: 'limit' } });
    }
    return this.ctx.upstream.search(words, n);
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────

  private follow(m: Market, identity: PublicMarketIdentity): void {
    const conditionId = m.conditionId;
    const fail = (e: unknown): void => {
      console.warn(`[mirror] ${conditionId}: an upstream entry could not be applied: ${(e as Error).message}`);
      this.resync(conditionId, f);
    };
    /** After a batch's change: the entries that arrived meanwhile are the next batch, else the market is idle. */
    const next = (): void => {
      if (f.waiting.length > 0) return f.run();
      f.running = false;
      const waiters = f.settled;
      f.settled = undefined;
      if (waiters) for (const w of waiters) w();
    };
    const failed = (e: unknown): void => {
      fail(e);
      next();
    };
    const f: Followed = {
      identity,
      decoder: this.ctx.decoderFor(identity),
      followedAt: this.ctx.clock.nowMs(),
      lastEntryAt: null,
      resyncFailed: false,
      lastResyncAttempt: 0,
      closed: m.closed,
      waiting: NO_ENTRIES,
      running: false,
      run: () => {
        const entries = f.waiting;
        f.waiting = NO_ENTRIES;
        let pending: Promise<unknown> | undefined;
        try {
          pending = this.handle(conditionId, f, entries);
        } catch (e) {
          fail(e);
        }
        if (pending) pending.then(next, failed);
        else next();
      },
      settled: undefined,
    };
    this.followed.set(conditionId, f);
    this.ctx.feed.follow(identity, (entry) => {
      if (this.followed.get(conditionId) !== f) return;
      f.lastEntryAt = Math.max(f.lastEntryAt ?? 0, entry.t);
      if (this.onEntry.size > 0) this.tell(conditionId, identity, entry);
      // An array of one to begin with (an empty array's first push reserves 17 slots): most batches are one frame.
      if (f.waiting.length === 0) f.waiting = [entry];
      else f.waiting.push(entry);
      // The first entry of a batch queues its handling; later ones join it until it starts.
      if (f.running) return;
      f.running = true;
      // A reaction on a settled promise, not queueMicrotask (which wraps every callback in an AsyncResource).
      void SETTLED.then(f.run);
    });
  }

  private tell(conditionId: string, identity: PublicMarketIdentity, entry: TapeEntry): void {
    for (const listener of this.onEntry) {
      try {
        listener(conditionId, identity, entry);
      } catch (e) {
        console.warn(`[mirror] an entry listener failed for ${conditionId}: ${(e as Error).message}`);
      }
    }
  }

  private lastEventAt(f: Followed, conditionId: string): number | null {
    const fromFeed = this.ctx.feed.lastEventAt(conditionId);
    if (fromFeed === null) return f.lastEntryAt;
    return f.lastEntryAt === null ? fromFeed : Math.max(fromFeed, f.lastEntryAt);
  }

  /**
   * Decodes a batch of entries in order and applies their book events as one change. A batch of book
   * events only (nearly every one) is decoded at once and answers applyPublic's promise; a close, a
   * resolution or a resync request splits the batch, and the rest goes on in handleSplit.
   */
  private handle(conditionId: string, f: Followed, entries: readonly TapeEntry[]): Promise<unknown> | undefined {
    let book: readonly PublicBookEvent[] = NO_EVENTS;
    let owned: PublicBookEvent[] | undefined;
    for (let i = 0; i < entries.length; i++) {
      const result = this.decode(conditionId, f, entries[i]!);
      if (result.needsResync || result.events.some(endsMarket)) return this.handleSplit(conditionId, f, [...book], result, entries, i);
      const events = result.events;
      if (events.length === 0) continue;
      if (book.length === 0) book = events;
      else {
        // The first entry's array is the decoder's: copied before anything joins it.
        if (owned === undefined) book = owned = [...book];
        for (const e of events) owned.push(e);
      }
    }
    // A closed market keeps no public depth: the public book is gone upstream.
    return book.length > 0 && !f.closed ? this.ctx.orders.applyPublic(conditionId, book) : undefined;
  }

  private decode(conditionId: string, f: Followed, entry: TapeEntry): DecodeResult {
    const result = f.decoder.decode(entry);
    if (result.problems.length > 0) console.warn(`[mirror] ${conditionId}: ${result.problems.slice(0, 3).join('; ')}`);
    if ('resync' in entry && !result.needsResync && result.events.some((e) => e.kind === 'snapshot')) f.resyncFailed = false;
    return result;
  }

  /** The rest of a batch from the entry at `from` (already decoded: `result`), applying the book events before each close, resolution or resync. */
  private async handleSplit(conditionId: string, f: Followed, book: PublicBookEvent[], result: DecodeResult, entries: readonly TapeEntry[], from: number): Promise<void> {
    const apply = async (): Promise<void> => {
      if (book.length > 0 && !f.closed) await this.ctx.orders.applyPublic(conditionId, book.splice(0));
      else book.length = 0;
    };
    for (let i = from; ; ) {
      for (const e of result.events) {
        if (e.kind === 'closed' || e.kind === 'resolved') {
          await apply();
          if (e.kind === 'closed') await this.closeUpstream(conditionId, f);
          else await this.resolveUpstream(conditionId, f, e.winner);
          continue;
        }
        book.push(e);
      }
      if (result.needsResync) {
        await apply();
        if (this.followed.get(conditionId) === f) this.resync(conditionId, f);
      }
      if (++i >= entries.length) break;
      result = this.decode(conditionId, f, entries[i]!);
    }
    await apply();
  }

  private resync(conditionId: string, f: Followed): void {
    f.lastResyncAttempt = (this.ctx.wallClock ?? this.ctx.clock).nowMs();
    // Failed until a good snapshot arrives: the feed delivers the answer as a `{t, resync}` entry.
    f.resyncFailed = true;
    Promise.resolve()
      .then(() => this.ctx.feed.resync(conditionId))
      .catch((e: unknown) => console.warn(`[mirror] ${conditionId}: resync failed: ${(e as Error).message}`));
  }

  private retryResyncs(): void {
    const now = (this.ctx.wallClock ?? this.ctx.clock).nowMs();
    for (const [conditionId, f] of this.followed) {
      if (!f.closed && f.resyncFailed && now - f.lastResyncAttempt >= RESYNC_RETRY_MS) this.resync(conditionId, f);
    }
  }

  private async closeUpstream(conditionId: string, f: Followed): Promise<void> {
    if (f.closed) return;
    f.closed = true;
    f.resyncFailed = false;
    await this.ctx.orders.dropPublic(conditionId);
    await this.ctx.markets.close(conditionId);
  }

  private async resolveUpstream(conditionId: string, f: Followed, winner: 0 | 1): Promise<void> {
    await this.closeUpstream(conditionId, f);
    this.followed.delete(conditionId);
    this.ctx.feed.unfollow(conditionId);
    await this.ctx.markets.setMirrorFollowing(conditionId, false);
    const m = this.ctx.markets.byCondition(conditionId);
    if (m && m.winner === null) await this.ctx.markets.resolve(conditionId, winner);
  }
}

function endsMarket(e: PublicBookEvent): boolean {
  return e.kind === 'closed' || e.kind === 'resolved';
}

/** Resolves once the market has nothing queued or in flight. */
function settled(f: Followed): Promise<void> {
  if (!f.running) return Promise.resolve();
  return new Promise((resolve) => (f.settled ??= []).push(resolve));
}
