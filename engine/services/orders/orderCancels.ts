import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { OrderDeps } from './orderDeps.js';
import { reservedAssetOf, type LiveOrder, type OrderIdentity } from './liveOrder.js';
import { canonicalTokenId } from './tradingState.js';
import type { TradingState } from './tradingState.js';

/** Cancels (by id, all, by market, on resolution) and GTD expiry: each takes orders off their books and commits the row updates. */
export class OrderCancels {
  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
  ) {}

  async cancel(identity: OrderIdentity, ids: string[]): Promise<CancelResult> {
    const result: CancelResult = { canceled: [], not_canceled: {} };
    const ops: OrderWrite[] = [];
    const now = this.ctx.clock.nowMs();
    const seen = new Set<string>();
    for (const raw of ids) {
      const id = this.s.resolveId(String(raw));
      if (seen.has(id)) continue;
      seen.add(id);
      const o = this.s.live.get(id);
      if (o && o.owner === identity.address.toLowerCase()) {
        ops.push(this.cancelLive(o, 'cancelled by owner', now));
        result.canceled.push(this.s.answerId(o));
        continue;
      }
      result.not_canceled[String(raw)] = this.whyNotCancelable(id, identity);
    }
    await this.s.commit(ops);
    return result;
  }

  async cancelAll(identity: OrderIdentity): Promise<CancelResult> {
    return this.cancelWhere(identity, () => true, 'cancelled by owner (cancel-all)');
  }

  async cancelMarket(identity: OrderIdentity, filter: { market?: string; asset_id?: string }): Promise<CancelResult> {
    if (!filter.market && !filter.asset_id) {
      throw new ApiError('invalid_field', "Send 'market' (condition id), 'asset_id' (token id) or both to choose which orders to cancel; DELETE /cancel-all cancels everything.", {
        details: { field: 'market', in: 'body', problem: 'market or asset_id is required' },
      });
    }
    const market = filter.market?.toLowerCase();
    const asset = filter.asset_id === undefined ? undefined : canonicalTokenId(filter.asset_id);
    return this.cancelWhere(
      identity,
      (o) => (market === undefined || o.conditionId.toLowerCase() === market) && (asset === undefined || o.tokenId === asset),
      'cancelled by owner (cancel-market-orders)',
    );
  }

  /** Cancels every resting order of a market (resolution). Returns the cancelled ids. */
  async cancelMarketOrders(conditionId: string, reason: string): Promise<string[]> {
    const now = this.ctx.clock.nowMs();
    const target = conditionId.toLowerCase();
    const victims = [...this.s.live.values()].filter((o) => o.conditionId.toLowerCase() === target);
    await this.s.commit(victims.map((o) => this.cancelLive(o, reason, now)));
    return victims.map((o) => o.id);
  }

  /** Cancels GTD orders whose deadline (expiration − 60 s) has passed; the expiry timer calls it, tests may too. */
  async expireDue(): Promise<string[]> {
    const due = this.s.expiry.due(this.ctx.clock.nowMs());
    const ops = this.expireDueNow();
    await this.s.commit(ops);
    return due;
  }

  /** The cancels of the GTD orders now due, in memory; placement commits them with its own writes. */
  expireDueNow(): OrderWrite[] {
    const now = this.ctx.clock.nowMs();
    const next = this.s.expiry.next();
    if (next === undefined || next > now) return [];
    const ops: OrderWrite[] = [];
    for (const id of this.s.expiry.due(now)) {
      const o = this.s.live.get(id);
      this.s.expiry.remove(id);
      if (o) ops.push(this.cancelLive(o, 'expired', now));
    }
    this.s.expiry.arm();
    return ops;
  }

  private async cancelWhere(identity: OrderIdentity, pick: (o: LiveOrder) => boolean, reason: string): Promise<CancelResult> {
    const now = this.ctx.clock.nowMs();
    const owner = identity.address.toLowerCase();
    const victims = [...this.s.live.values()].filter((o) => o.owner === owner && pick(o));
    await this.s.commit(victims.map((o) => this.cancelLive(o, reason, now)));
    return { canceled: victims.map((o) => this.s.answerId(o)), not_canceled: {} };
  }

  /** Takes an order off its book and releases its reservation in memory; returns the row update. */
  private cancelLive(o: LiveOrder, reason: string, now: number): OrderWrite {
    const state = this.s.books.get(o.conditionId);
    this.s.events?.touched(o.conditionId);
    if (state !== undefined && o.handle >= 0) {
      state.book.cancel(o.handle);
      state.orders.delete(o.handle);
    }
    o.handle = -1;
    if (o.reserved !== 0n) this.s.sheet.reserve(o.maker, reservedAssetOf(o, COLLATERAL), -o.reserved);
    o.reserved = 0n;
    o.status = 'cancelled';
    o.cancelReason = reason;
    o.updatedAt = now;
    this.s.live.delete(o.id);
    this.s.expiry.remove(o.id);
    return { kind: 'cancel', id: o.id, reason, at: now };
  }

  private whyNotCancelable(id: string, identity: OrderIdentity): string {
    const row = this.s.orderRepo.get(id);
    if (!row || row.owner !== identity.address.toLowerCase()) return NOT_FOUND_REASON;
    if (row.status === 'filled') return 'Order already matched';
    if (row.status === 'cancelled') return row.cancelReason === 'expired' ? 'the order is already canceled (GTD expired)' : 'the order is already canceled';
    return NOT_FOUND_REASON;
  }
}

export interface CancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

const NOT_FOUND_REASON = 'Order not found or already canceled';
