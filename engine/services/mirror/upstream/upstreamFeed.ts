import type { Clock } from '../../clock.js';
import type { PublicMarketIdentity, TapeEntry } from '../mirrorTypes.js';
import { MarketSocket, type Backoff } from './marketSocket.js';
import type { UpstreamClient } from './upstreamClient.js';

/**
 * The live upstream of every mirrored market: ONE market-channel socket for all of them (reference §3),
 * plus REST resyncs and market polls. It turns what arrives into per-market TapeEntry values stamped
 * with the exchange clock at receive; it never decodes (the decoder does) and never throws on what
 * the upstream sends.
 *
 * - Subscribes `{assets_ids, type: "market", initial_dump: true, custom_feature_enabled: true}` on every
 *   (re)connect, later markets with `operation: subscribe`, dropped ones with `operation: unsubscribe`.
 * - After every (re)connect, and on `resync()`, it fetches `GET /book` of each market's outcome-0 token and
 *   emits `{t, resync}`. While a resync is in flight, that market's socket events are held and emitted
 *   right after the resync entry, stamped with its time: the decoder then drops those the book already
 *   holds (older timestamps) and applies the newer ones, so nothing that arrived meanwhile is lost.
 * - Polls `GET /markets/{condition_id}` every `marketPollMs` (default 60 s) per market: `{t, market}`.
 * - `lastEventAt` is the exchange ms of the market's last socket event or successful resync; `PONG` and
 *   `NO NEW ASSETS` count for every market (the connection is alive; the market may simply be quiet).
 */
export interface UpstreamFeedOptions {
  /** `--upstream-ws`, e.g. wss://ws-subscriptions-clob.polymarket.com/ws/market */
  readonly wsUrl: string;
  readonly client: Pick<UpstreamClient, 'book' | 'market'>;
  /** Exchange clock: the `t` of every entry. */
  readonly clock: Clock;
  readonly pingIntervalMs?: number;
  readonly deadAfterMs?: number;
  readonly backoff?: Backoff;
  /** 0 turns the poll off. */
  readonly marketPollMs?: number;
  /** What could not be routed to a market (non-JSON frames, unknown assets, socket errors): for logs. */
  readonly onProblem?: (problem: string) => void;
}

export const MARKET_POLL_MS = 60_000;
/** Socket events held per market while its resync is in flight; beyond this the oldest go (the book covers them). */
const MAX_HELD = 10_000;

interface Followed {
  readonly identity: PublicMarketIdentity;
  readonly sink: (entry: TapeEntry) => void;
  lastEventAt: number | null;
  resyncing: Promise<boolean> | undefined;
  held: unknown[] | undefined;
}

export class UpstreamFeed {
  private readonly markets = new Map<string, Followed>();
  /** Token id → condition id (lower case), both outcomes. */
  private readonly assets = new Map<string, string>();
  private readonly socket: MarketSocket;
  private pollTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly opts: UpstreamFeedOptions) {
    this.socket = new MarketSocket({
      url: opts.wsUrl,
      pingIntervalMs: opts.pingIntervalMs,
      deadAfterMs: opts.deadAfterMs,
      backoff: opts.backoff,
      onOpen: () => this.onOpen(),
      onText: (text) => this.onText(text),
      onProblem: (p) => this.problem(p),
    });
  }

  /** True while the socket is open. */
  get connected(): boolean {
    return this.socket.open;
  }

  follow(identity: PublicMarketIdentity, sink: (entry: TapeEntry) => void): void {
    if (this.closed) return;
    const cid = identity.conditionId.toLowerCase();
    if (this.markets.has(cid)) this.unfollow(cid);
    this.markets.set(cid, { identity, sink, lastEventAt: null, resyncing: undefined, held: undefined });
    for (const token of identity.tokenIds) this.assets.set(token, cid);
    if (this.socket.open) {
      this.socket.send({ operation: 'subscribe', assets_ids: [...identity.tokenIds], custom_feature_enabled: true });
      void this.resync(cid);
    } else this.socket.start();
    this.startPolls();
  }

  unfollow(conditionId: string): void {
    const cid = conditionId.toLowerCase();
    const m = this.markets.get(cid);
    if (!m) return;
    this.markets.delete(cid);
    for (const token of m.identity.tokenIds) this.assets.delete(token);
    this.socket.send({ operation: 'unsubscribe', assets_ids: [...m.identity.tokenIds] });
    if (this.markets.size === 0) this.stopPolls();
  }

  /** Exchange ms of the market's last upstream sign of life; null before the first. */
  lastEventAt(conditionId: string): number | null {
    return this.markets.get(conditionId.toLowerCase())?.lastEventAt ?? null;
  }

  /** Fetches the outcome-0 book and emits `{t, resync}`; false when the upstream failed (the market is then stale). */
  resync(conditionId: string): Promise<boolean> {
    const m = this.markets.get(conditionId.toLowerCase());
    if (!m) return Promise.resolve(false);
    if (m.resyncing) return m.resyncing;
    m.held = [];
    const run = (async () => {
      let ok = false;
      try {
        const book = await this.opts.client.book(m.identity.tokenIds[0]);
        if (this.markets.get(m.identity.conditionId.toLowerCase()) !== m) return false;
        const t = this.opts.clock.nowMs();
        m.lastEventAt = t;
        this.emit(m, { t, resync: book });
        ok = true;
      } catch (e) {
        this.problem(`resync of ${m.identity.conditionId} failed: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        const held = m.held ?? [];
        m.held = undefined;
        m.resyncing = undefined;
        const t = this.opts.clock.nowMs();
        // Unfollowed meanwhile: its sink hears nothing more.
        if (this.markets.get(m.identity.conditionId.toLowerCase()) === m) for (const e of held) this.emit(m, { t, e });
      }
      return ok;
    })();
    m.resyncing = run;
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopPolls();
    this.socket.close();
    await Promise.allSettled([...this.markets.values()].map((m) => m.resyncing));
    this.markets.clear();
    this.assets.clear();
  }

  private onOpen(): void {
    const tokens = [...this.markets.values()].flatMap((m) => [...m.identity.tokenIds]);
    if (tokens.length === 0) return;
    this.socket.send({ assets_ids: tokens, type: 'market', initial_dump: true, custom_feature_enabled: true });
    // A reconnect may have missed anything: rebuild every market from REST as well (reference §3.4).
    for (const cid of this.markets.keys()) void this.resync(cid);
  }

  /** One frame: an event object, an array of them (the initial dump), or a heartbeat. */
  private onText(text: string): void {
    const now = this.opts.clock.nowMs();
    const trimmed = text.trim();
    if (trimmed === 'PONG' || trimmed === 'NO NEW ASSETS') {
      for (const m of this.markets.values()) m.lastEventAt = now;
      return;
    }
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return this.problem(`non-JSON upstream frame ignored: ${clip(text)}`);
    }
    if (!Array.isArray(v)) return this.take(v, now);
    for (let i = 0; i < v.length; i++) this.take(v[i], now);
  }

  private take(e: unknown, now: number): void {
    const m = this.route(e);
    if (!m) return;
    m.lastEventAt = now;
    if (m.held) {
      if (m.held.length >= MAX_HELD) m.held.shift();
      m.held.push(e);
    } else this.emit(m, { t: now, e });
  }

  /** The followed market an event belongs to: by `market` (condition id), else by its asset. */
  private route(e: unknown): Followed | undefined {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) {
      this.problem(`upstream event is not an object: ${clip(JSON.stringify(e) ?? String(e))}`);
      return undefined;
    }
    const o = e as Record<string, unknown>;
    if (typeof o.market === 'string') {
      // Condition ids come lower case; the lower-case copy is made only for one that is not.
      const m = this.markets.get(o.market) ?? this.markets.get(o.market.toLowerCase());
      if (m) return m;
    }
    const rows = Array.isArray(o.price_changes) ? (o.price_changes as unknown[]) : [];
    const first = rows[0];
    const asset = typeof o.asset_id === 'string' ? o.asset_id : typeof first === 'object' && first !== null ? (first as Record<string, unknown>).asset_id : undefined;
    const cid = typeof asset === 'string' ? this.assets.get(asset) : undefined;
    if (cid) return this.markets.get(cid);
    // Events of markets just unfollowed are expected; anything else is worth a line in the log.
    if (o.event_type === 'error') this.problem(`upstream error event: ${clip(JSON.stringify(o))}`);
    else if (o.event_type !== 'new_market' && typeof o.market !== 'string') this.problem(`upstream event for no followed market: ${clip(JSON.stringify(o))}`);
    return undefined;
  }

  private startPolls(): void {
    const every = this.opts.marketPollMs ?? MARKET_POLL_MS;
    if (this.pollTimer || every <= 0) return;
    this.pollTimer = setInterval(() => {
      for (const m of this.markets.values()) void this.poll(m);
    }, every);
    this.pollTimer.unref();
  }

  private stopPolls(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private async poll(m: Followed): Promise<void> {
    try {
      const market = await this.opts.client.market(m.identity.conditionId);
      if (this.markets.get(m.identity.conditionId.toLowerCase()) !== m) return;
      this.emit(m, { t: this.opts.clock.nowMs(), market });
    } catch (e) {
      this.problem(`market poll of ${m.identity.conditionId} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private emit(m: Followed, entry: TapeEntry): void {
    try {
      m.sink(entry);
    } catch (e) {
      this.problem(`mirror sink of ${m.identity.conditionId} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private problem(p: string): void {
    try {
      this.opts.onProblem?.(p);
    } catch {
      // a logger that throws must not take the feed down
    }
  }
}

function clip(s: string): string {
  return s.length > 160 ? s.slice(0, 157) + '...' : s;
}
