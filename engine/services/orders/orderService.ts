import { toBookTerms, type BookSide } from '../../book/types.js';
import type { PublicBookEvent } from '../mirror/mirrorTypes.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import type { OrderRow } from '../../store/orderRepo.js';
import { OrderWriter } from '../../store/orderWriter.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { OrderDeps } from './orderDeps.js';
import { sharedSignatureVerifier, type SignatureVerifier } from '../crypto/signatureVerifier.js';
import { remainingOf, reservedAssetOf, type LiveOrder } from './liveOrder.js';
import { OrderCancels } from './orderCancels.js';
import type { OrderEvents } from './orderEvents.js';
import { OrderPlacement } from './orderPlacement.js';
import { OrderQueries } from './orderQueries.js';
import { OrderSettlement } from './orderSettlement.js';
import { PaperAccount } from './paperAccount.js';
import { PublicFeed } from './publicFeed.js';
import { expiryDeadline, TradingState } from './tradingState.js';

export type { PlacementResult } from './placementResult.js';
export type { OrderRecord } from './orderRecord.js';
export type { TradeRecord } from './tradeRecord.js';
export type { OrderIdentity } from './liveOrder.js';
export { MAX_BATCH_ORDERS } from './orderPlacement.js';
export type { CancelResult } from './orderCancels.js';
export { MAX_LOOKUP_ENTRIES, PAGE_LIMIT, type BalanceAllowance, type LookupEntry } from './orderQueries.js';
export type { RedeemResult } from './paperAccount.js';
export { PUBLIC_MARKET_ACCOUNT, PUBLIC_MARKET_NAME, isPublicMarket } from './publicDepth.js';

/**
 * The trading core, one object over its parts: placement and matching (orderPlacement.ts), settlement
 * of each fill (orderSettlement.ts), cancels and GTD expiry (orderCancels.ts), the reads for REST and
 * the data service (orderQueries.ts) and the paper account (paperAccount.ts), all over one shared
 * memory (tradingState.ts). This class owns their lifecycle (rebuild on start, timer, writer) and
 * answers for them, so its callers see one service.
 */
export class OrderService {
  private readonly s: TradingState;
  private readonly verifier: SignatureVerifier;
  private readonly placement: OrderPlacement;
  private readonly cancels: OrderCancels;
  private readonly queries: OrderQueries;
  private readonly paper: PaperAccount;
  private readonly publicFeed: PublicFeed;

  constructor(
    private readonly ctx: OrderDeps,
    opts: { verifier?: SignatureVerifier; writer?: OrderWriter } = {},
  ) {
    this.verifier = opts.verifier ?? sharedSignatureVerifier();
    this.s = new TradingState(ctx, opts.writer ?? new OrderWriter(ctx.db, ctx.writes), () => {
      // expireDue's memory work runs synchronously; re-arm afterwards for the next deadline.
      const committed = this.cancels.expireDue().catch(() => undefined);
      this.s.expiry.arm();
      return committed;
    });
    this.cancels = new OrderCancels(ctx, this.s);
    const settlement = new OrderSettlement(ctx, this.s);
    this.placement = new OrderPlacement(ctx, this.s, settlement, this.cancels, this.verifier);
    this.publicFeed = new PublicFeed(ctx, this.s, settlement);
    this.queries = new OrderQueries(ctx, this.s);
    this.paper = new PaperAccount(ctx, this.s, this.cancels);
  }

  /** The streams service's hooks (services/streams): told of every change, then of its commit. */
  get events(): OrderEvents | undefined {
    return this.s.events;
  }

  set events(e: OrderEvents | undefined) {
    this.s.events = e;
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────────────────────

  /** Loads balances and open orders, rebuilds the books in time order, cancels GTD orders that expired while down. */
  async init(): Promise<void> {
    const s = this.s;
    for (const b of s.balanceRepo.all()) s.sheet.add(b.address, b.asset, b.amount);
    const now = this.ctx.clock.nowMs();
    const expired: OrderRow[] = [];
    // Rows come oldest first, so each book gets its orders back in time priority (and fresh handles).
    for (const row of s.orderRepo.live()) {
      if (row.orderType === 'GTD' && expiryDeadline(row) <= now) {
        expired.push(row);
        continue;
      }
      const terms = toBookTerms(row.outcomeIndex, row.side, Number(row.price));
      const state = s.bookOf(row.conditionId);
      const o: LiveOrder = Object.assign(row, { handle: state.book.restore({ side: terms.side, price: terms.price, remaining: Number(remainingOf(row)) }) });
      state.orders.set(o.handle, o);
      s.live.set(o.id, o);
      s.sheet.reserve(row.maker, reservedAssetOf(row, COLLATERAL), row.reserved);
      if (row.orderType === 'GTD') s.expiry.add(row.id, expiryDeadline(row));
    }
    if (expired.length > 0) {
      // They never reached the book, so only their rows change.
      await s.writer.submit(expired.map((o): OrderWrite => ({ kind: 'cancel', id: o.id, reason: 'expired', at: now })));
    }
    for (const t of s.tradeRepo.latestPerCondition()) s.rememberLastTrade(t);
    s.duplicateKeys();
    s.expiry.arm();
  }

  /** Stops the expiry timer (first step of a shutdown: no new writes start from it). */
  stop(): void {
    this.s.expiry.stop();
  }

  /** Commits what the writer holds and closes its connection (after the HTTP server has drained). */
  close(): void {
    this.s.expiry.stop();
    this.s.writer.close();
  }

  /** Counters of the order path's two helpers: the writer and the signature verifier (GET /admin/stats). */
  pipelineStats(): { orderWriter: { mode: OrderWriter['mode'] } & OrderWriter['stats']; signatureVerifier: { mode: SignatureVerifier['mode'] } & SignatureVerifier['stats'] } {
    return {
      orderWriter: { mode: this.s.writer.mode, ...this.s.writer.stats },
      signatureVerifier: { mode: this.verifier.mode, ...this.verifier.stats },
    };
  }

  // ── placement and matching (orderPlacement.ts) ──────────────────────────────────────────────────

  place(...a: Parameters<OrderPlacement['place']>): ReturnType<OrderPlacement['place']> {
    return this.placement.place(...a);
  }
  placeBatch(...a: Parameters<OrderPlacement['placeBatch']>): ReturnType<OrderPlacement['placeBatch']> {
    return this.placement.placeBatch(...a);
  }

  // ── a mirrored market's public layer (publicFeed.ts, decisions §10) ─────────────────────────────

  /**
   * Applies decoded upstream events of a mirrored market in order: public depth into the book's public
   * layer, prints walked against local resting orders (their fills settle as one write group), the book
   * change streamed like any other. Public depth alone is never stored.
   */
  applyPublic(conditionId: string, events: readonly PublicBookEvent[]): Promise<{ fills: number }> {
    return this.publicFeed.apply(conditionId, events);
  }

  /** Removes a mirrored market's public layer from its book (stale or closed upstream, stop following). */
  dropPublic(conditionId: string): void {
    this.publicFeed.drop(conditionId);
  }

  /** A market's public layer: U, c and the public size on the book at one level (zeros when none). */
  publicLevel(conditionId: string, side: BookSide, price: number): { upstream: number; consumed: number; onBook: number } {
    return this.s.books.get(conditionId)?.public?.level(side, price) ?? { upstream: 0, consumed: 0, onBook: 0 };
  }

  // ── cancels and expiry (orderCancels.ts) ────────────────────────────────────────────────────────

  cancel(...a: Parameters<OrderCancels['cancel']>): ReturnType<OrderCancels['cancel']> {
    return this.cancels.cancel(...a);
  }
  cancelAll(...a: Parameters<OrderCancels['cancelAll']>): ReturnType<OrderCancels['cancelAll']> {
    return this.cancels.cancelAll(...a);
  }
  cancelMarket(...a: Parameters<OrderCancels['cancelMarket']>): ReturnType<OrderCancels['cancelMarket']> {
    return this.cancels.cancelMarket(...a);
  }
  /** Cancels every live order of a market (it resolved): its public layer, if mirrored, goes too. */
  cancelMarketOrders(...a: Parameters<OrderCancels['cancelMarketOrders']>): ReturnType<OrderCancels['cancelMarketOrders']> {
    this.publicFeed.drop(a[0]);
    return this.cancels.cancelMarketOrders(...a);
  }
  expireDue(): ReturnType<OrderCancels['expireDue']> {
    return this.cancels.expireDue();
  }

  // ── reads (orderQueries.ts) ─────────────────────────────────────────────────────────────────────

  get(...a: Parameters<OrderQueries['get']>): ReturnType<OrderQueries['get']> {
    return this.queries.get(...a);
  }
  record(...a: Parameters<OrderQueries['record']>): ReturnType<OrderQueries['record']> {
    return this.queries.record(...a);
  }
  publicPlacement(...a: Parameters<OrderQueries['publicPlacement']>): ReturnType<OrderQueries['publicPlacement']> {
    return this.queries.publicPlacement(...a);
  }
  lookup(...a: Parameters<OrderQueries['lookup']>): ReturnType<OrderQueries['lookup']> {
    return this.queries.lookup(...a);
  }
  listOpen(...a: Parameters<OrderQueries['listOpen']>): ReturnType<OrderQueries['listOpen']> {
    return this.queries.listOpen(...a);
  }
  history(...a: Parameters<OrderQueries['history']>): ReturnType<OrderQueries['history']> {
    return this.queries.history(...a);
  }
  queuePositions(...a: Parameters<OrderQueries['queuePositions']>): ReturnType<OrderQueries['queuePositions']> {
    return this.queries.queuePositions(...a);
  }
  queuePosition(...a: Parameters<OrderQueries['queuePosition']>): ReturnType<OrderQueries['queuePosition']> {
    return this.queries.queuePosition(...a);
  }
  listTrades(...a: Parameters<OrderQueries['listTrades']>): ReturnType<OrderQueries['listTrades']> {
    return this.queries.listTrades(...a);
  }
  balanceOf(...a: Parameters<OrderQueries['balanceOf']>): ReturnType<OrderQueries['balanceOf']> {
    return this.queries.balanceOf(...a);
  }
  balanceAllowance(...a: Parameters<OrderQueries['balanceAllowance']>): ReturnType<OrderQueries['balanceAllowance']> {
    return this.queries.balanceAllowance(...a);
  }
  book(...a: Parameters<OrderQueries['book']>): ReturnType<OrderQueries['book']> {
    return this.queries.book(...a);
  }
  lastTrade(...a: Parameters<OrderQueries['lastTrade']>): ReturnType<OrderQueries['lastTrade']> {
    return this.queries.lastTrade(...a);
  }
  tradeTape(...a: Parameters<OrderQueries['tradeTape']>): ReturnType<OrderQueries['tradeTape']> {
    return this.queries.tradeTape(...a);
  }
  priceSeries(...a: Parameters<OrderQueries['priceSeries']>): ReturnType<OrderQueries['priceSeries']> {
    return this.queries.priceSeries(...a);
  }

  // ── the paper account (paperAccount.ts) ─────────────────────────────────────────────────────────

  creditCollateral(...a: Parameters<PaperAccount['creditCollateral']>): ReturnType<PaperAccount['creditCollateral']> {
    return this.paper.creditCollateral(...a);
  }
  resetPaperAccount(...a: Parameters<PaperAccount['resetPaperAccount']>): ReturnType<PaperAccount['resetPaperAccount']> {
    return this.paper.resetPaperAccount(...a);
  }
  redeem(...a: Parameters<PaperAccount['redeem']>): ReturnType<PaperAccount['redeem']> {
    return this.paper.redeem(...a);
  }
}
