import type { OrderWrite } from '../../store/orderWrites.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { StreamDeps } from './streamDeps.js';
import type { Market, MarketChange } from '../markets/marketService.js';
import { recordMid } from '../markets/midHistory.js';
import type { OrderEvents } from '../orders/orderEvents.js';
import { MarketChannel, type BookCapture } from './marketChannel.js';
import { MarketConnection } from './marketConnection.js';
import {
  CLOSE,
  FLUSH_INTERVAL_MS,
  IDLE_TIMEOUT_MS,
  LOGIN_TIMEOUT_MS,
  MAX_BUFFERED_BYTES,
  MAX_STREAM_SOCKETS,
  MAX_SUBSCRIPTIONS,
  MESSAGE_BURST,
  MESSAGES_PER_SECOND,
  REPLAY_EVENTS,
  type StreamConnection,
  type StreamLimits,
  type StreamTransport,
} from './streamTransport.js';
import { UserChannel } from './userChannel.js';
import { UserConnection } from './userConnection.js';
import { feeScheduleToWire } from '../../protocol/feeSchedule.js';

interface Captured {
  books: BookCapture[] | undefined;
  trades: TradeRow[] | undefined;
  ops: readonly OrderWrite[];
}

/**
 * The live streams (decisions §8): the public market and user channels, plus a seq on every event and
 * the book hash after every change. It listens to the order service: each change is captured right
 * after it happens in memory and published once the writer has committed it, so only durable changes
 * are streamed, in the order the book changed.
 */
export class StreamService implements OrderEvents {
  readonly market: MarketChannel;
  readonly user: UserChannel;
  /** Bounds every connection reads at send time (tests lower them). */
  readonly limits: StreamLimits;
  /** Another consumer of every committed group of writes (the live-data socket's activity topic). */
  tap: { active(): boolean; publish(ops: readonly OrderWrite[]): void } | undefined;
  private readonly open = new Set<StreamConnection>();
  private closing = false;

  constructor(private readonly ctx: StreamDeps) {
    this.limits = {
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      maxSubscriptions: MAX_SUBSCRIPTIONS,
      replayEvents: REPLAY_EVENTS,
      flushIntervalMs: FLUSH_INTERVAL_MS,
      messagesPerSecond: MESSAGES_PER_SECOND,
      messageBurst: MESSAGE_BURST,
      loginTimeoutMs: LOGIN_TIMEOUT_MS,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      maxSockets: ctx.config.maxStreamSockets ?? MAX_STREAM_SOCKETS,
    };
    this.market = new MarketChannel(ctx, this.limits);
    this.user = new UserChannel(ctx);
  }

  /** Hooks into the order service (changes) and the auth service (revocations). */
  attach(): void {
    this.ctx.orders.events = this;
    this.ctx.auth.onRevoke.add((apiKey) => {
      for (const c of this.user.withKey(apiKey)) c.close(CLOSE.revoked, 'api key revoked');
    });
    this.ctx.markets.onChange.add((kind, m, previous) => this.marketChanged(kind, m, previous));
  }

  get connections(): number {
    return this.open.size;
  }

  openMarket(transport: StreamTransport): MarketConnection {
    return this.track(new MarketConnection(transport, this.limits, this.market, (c) => this.open.delete(c)));
  }

  openUser(transport: StreamTransport): UserConnection {
    return this.track(new UserConnection(transport, this.limits, this.user, (k, s, p) => this.ctx.auth.verifyCredentials(k, s, p), (c) => this.open.delete(c)));
  }

  /** Closes every socket with 1001 (engine shutdown). */
  close(): void {
    this.closing = true;
    for (const c of [...this.open]) c.close(CLOSE.shutdown, 'server shutting down');
  }

  /** Told of every market whose book changed in memory (the MCP book subscriptions throttle it themselves). */
  readonly onBookChange = new Set<(conditionId: string) => void>();

  touched(conditionId: string): void {
    this.market.touched(conditionId);
    if (this.onBookChange.size > 0) for (const listener of this.onBookChange) listener(conditionId);
    // The closing quote of each minute, for /prices-history's mid (whether or not anyone streams the market).
    recordMid(this.ctx.mids, this.ctx.orders, this.ctx.clock, conditionId);
  }

  capture(ops: readonly OrderWrite[]): Captured | undefined {
    let trades: TradeRow[] | undefined;
    for (const op of ops) if (op.kind === 'trade') (trades ??= []).push(op.row);
    const books = this.market.capture(trades);
    if (!books && !this.user.active && !this.tap?.active()) return undefined;
    return { books, trades, ops };
  }

  committed(captured: unknown): void {
    const c = captured as Captured;
    if (c.books) for (const b of c.books) this.market.stage(b, c.trades);
    this.user.publish(c.ops);
    this.tap?.publish(c.ops);
  }

  /**
   * new_market (to every custom subscriber), market_resolved (to the market's custom subscribers) and
   * tick_size_change (to every subscriber of the market's assets, with the book re-hashed on the new tick).
   */
  private marketChanged(kind: MarketChange, m: Market, previous?: Market): void {
    if (kind === 'tick_size') {
      this.market.tickSizeChanged(m, previous?.tickSize ?? m.tickSize);
      return;
    }
    const timestamp = String(this.ctx.clock.nowMs());
    const common = { id: m.conditionId, question: m.question, market: m.conditionId, slug: m.slug, description: m.description, assets_ids: [...m.tokenIds], outcomes: [...m.outcomes] };
    if (kind === 'created') {
      // The fee fields the public new_market carries (public-market-data.md §3.2), from the market's schedule (decisions §10).
      const fees = { taker_base_fee: m.feeRateBps, fees_enabled: m.feeSchedule.rate > 0n, fee_schedule: feeScheduleToWire(m.feeSchedule) };
      this.market.broadcastCustom({ event_type: 'new_market', ...common, ...fees, timestamp });
      return;
    }
    const winner = m.winner ?? 0;
    this.market.publishMarketEvent(m.conditionId, () => ({ event_type: 'market_resolved', ...common, winning_asset_id: m.tokenIds[winner], winning_outcome: m.outcomes[winner], timestamp }));
  }

  private track<T extends StreamConnection>(c: T): T {
    if (this.closing) c.close(CLOSE.shutdown, 'server shutting down');
    else this.open.add(c);
    return c;
  }
}
