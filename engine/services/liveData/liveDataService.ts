import type { OrderWrite } from '../../store/orderWrites.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { AuthService } from '../auth/authService.js';
import type { DataDeps } from '../data/dataDeps.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';
import { MarketDirectory } from '../data/marketInfo.js';
import type { Market, MarketChange } from '../markets/marketService.js';
import { CLOSE, type StreamLimits } from '../streams/streamTransport.js';
import type { StreamService } from '../streams/streamService.js';
import { LiveDataConnection, type LiveDataTransport } from './liveDataConnection.js';
import { wants } from './liveDataSubscription.js';
import { formatUnits } from '../../protocol/amounts.js';
import { publicStatus } from '../orders/publicOrderRecord.js';

/** Keepalive of the live-data socket: a ping frame this often, and a close after this long with nothing from the client. */
export interface LiveDataLimits {
  keepaliveMs: number;
  idleMs: number;
}

/** The public service pings about every 10 s; the stock client answers each ping with a text `ping` 5 s later. */
export const KEEPALIVE_MS = 10_000;
export const IDLE_MS = 60_000;

/** What the live-data socket reads: market listings and changes, credentials, order records (the rest comes through the stream service). */
export type LiveDataServiceDeps = {
  readonly markets: Pick<MarketService, 'onChange' | 'list'> & DataDeps['markets'];
  readonly auth: Pick<AuthService, 'verifyCredentials'>;
  readonly orders: Pick<OrderService, 'get'>;
};

/**
 * The real-time data socket (`/ws/live-data`, the protocol of @polymarket/real-time-data-client): topics
 * `activity` (trades, orders_matched), `clob_market` and `clob_user`, fed from the same committed changes
 * as the market and user channels (docs/api-streams.md).
 */
export class LiveDataService {
  readonly limits: LiveDataLimits = { keepaliveMs: KEEPALIVE_MS, idleMs: IDLE_MS };
  private readonly open = new Set<LiveDataConnection>();
  private readonly directory: MarketDirectory;
  private closing = false;

  constructor(
    private readonly ctx: LiveDataServiceDeps,
    private readonly streams: StreamService,
  ) {
    this.directory = new MarketDirectory(ctx);
    streams.tap = {
      active: () => this.wantsActivity(),
      publish: (ops) => this.publishTrades(ops),
    };
    ctx.markets.onChange.add((kind, m) => this.marketChanged(kind, m));
  }

  get connections(): number {
    return this.open.size;
  }

  /** A new socket; its keepalive runs until it closes (limits as they are now). */
  openConnection(transport: LiveDataTransport): LiveDataConnection {
    const conn = new LiveDataConnection(
      transport,
      this.streams.limits as StreamLimits,
      {
        market: this.streams.market,
        user: this.streams.user,
        verify: (k, s, p) => this.ctx.auth.verifyCredentials(k, s, p),
        orderFields: (id) => this.orderFields(id),
        allTokens: () => this.ctx.markets.list().flatMap((m) => [...m.tokenIds]),
        now: () => Date.now(),
      },
      (c) => {
        this.open.delete(c);
        clearInterval(timer);
      },
    );
    const { keepaliveMs, idleMs } = this.limits;
    const timer = setInterval(() => conn.keepalive(idleMs), keepaliveMs);
    timer.unref();
    if (this.closing) conn.close(CLOSE.shutdown, 'server shutting down');
    else this.open.add(conn);
    return conn;
  }

  /** Closes every socket with 1001 (engine shutdown). */
  close(): void {
    this.closing = true;
    for (const c of [...this.open]) c.close(CLOSE.shutdown, 'server shutting down');
  }

  private orderFields(id: string): Record<string, unknown> | undefined {
    try {
      const o = this.ctx.orders.get(id);
      return { status: publicStatus(o.status), maker_address: o.makerAddress, order_type: o.type, expiration: o.expiration, created_at: String(Math.floor(Date.parse(o.createdAt) / 1000)) };
    } catch {
      return undefined;
    }
  }

  private wantsActivity(): boolean {
    for (const c of this.open) if (c.subscriptions.some((s) => s.topic === 'activity')) return true;
    return false;
  }

  /** activity: `trades` (the taker's side of each fill) and `orders_matched` (the maker's side of it). */
  private publishTrades(ops: readonly OrderWrite[]): void {
    if (!this.wantsActivity()) return;
    for (const op of ops) {
      if (op.kind !== 'trade') continue;
      const t = op.row;
      const info = this.directory.info(t.conditionId);
      for (const [type, payload] of [
        ['trades', this.activityPayload(t, 'taker', info)],
        ['orders_matched', this.activityPayload(t, 'maker', info)],
      ] as const) {
        for (const c of this.open) {
          if (c.subscriptions.some((s) => s.topic === 'activity' && wants(s, type) && (s.slugs === null || s.slugs.event === payload.eventSlug || s.slugs.market === payload.slug))) c.deliver('activity', type, payload);
        }
      }
    }
  }

  private activityPayload(t: TradeRow, role: 'taker' | 'maker', info: ReturnType<MarketDirectory['info']>) {
    const taker = role === 'taker';
    const outcomeIndex = taker ? t.takerOutcomeIndex : t.makerOutcomeIndex;
    return {
      asset: taker ? t.takerAssetId : t.makerAssetId,
      bio: '',
      conditionId: t.conditionId,
      eventSlug: info.eventSlug,
      icon: info.icon,
      name: '',
      outcome: info.outcome(outcomeIndex),
      outcomeIndex,
      price: Number(formatUnits(taker ? t.price : t.makerPrice)),
      profileImage: '',
      proxyWallet: taker ? t.takerAddress : t.makerAddress,
      pseudonym: '',
      side: taker ? t.takerSide : t.makerSide,
      size: Number(formatUnits(t.size)),
      slug: info.slug,
      timestamp: Math.floor(t.matchTime / 1000),
      title: info.title,
      transactionHash: t.transactionHash,
    };
  }

  /** clob_market market_created / market_resolved (no filters), and new tokens for unfiltered subscriptions. */
  private marketChanged(kind: MarketChange, m: Market): void {
    if (kind === 'tick_size') return;
    const type = kind === 'created' ? 'market_created' : 'market_resolved';
    const payload = {
      market: m.conditionId,
      asset_ids: [...m.tokenIds],
      min_order_size: formatUnits(m.minOrderSize),
      tick_size: formatUnits(m.tickSize),
      neg_risk: m.negRisk,
      ...(kind === 'resolved' && m.winner !== null && m.winner !== undefined ? { winning_asset_id: m.tokenIds[m.winner], winning_outcome: m.outcomes[m.winner] } : {}),
    };
    for (const c of this.open) {
      if (c.subscriptions.some((s) => s.topic === 'clob_market' && wants(s, type))) c.deliver('clob_market', type, payload);
      if (kind === 'created' && c.followsEveryMarket()) c.follow([...m.tokenIds], false);
    }
  }
}
