import { createHash } from 'node:crypto';
import { PRICE_ONE, type BookSide } from '../../book/types.js';
import { ApiError } from '../../protocol/errors.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { PublicBookEvent, PublicLevel } from '../mirror/mirrorTypes.js';
import type { LiveOrder, TradableMarket } from './liveOrder.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { OrderDeps } from './orderDeps.js';
import type { OrderSettlement } from './orderSettlement.js';
import { PublicDepth } from './publicDepth.js';
import { publicOrder } from './publicOrder.js';
import type { MarketBookState, TradingState } from './tradingState.js';

/**
 * Feeds a mirrored market's decoded upstream events into its book (decisions §10): depth into the public
 * layer (publicDepth.ts), public prints walked against the book so local resting orders fill from them.
 * One call is one change: its fills settle as ONE write group, and the book change streams like any
 * committed change; a change of public depth alone writes nothing to SQLite.
 */
export class PublicFeed {
  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
    private readonly settlement: OrderSettlement,
  ) {}

  async apply(conditionId: string, events: readonly PublicBookEvent[]): Promise<{ fills: number }> {
    const market = this.ctx.markets.byCondition(conditionId);
    if (!market) throw new ApiError('market_not_found', `No market has condition id ${conditionId}: create the mirrored market before feeding it.`);
    const state = this.s.bookOf(market.conditionId);
    const depth = (state.public ??= new PublicDepth(state.book));
    if (market.winner !== null) {
      // Resolved here: late upstream depth must not come back to a book that no longer trades.
      this.drop(market.conditionId);
      return { fills: 0 };
    }
    const now = this.ctx.clock.nowMs();
    const ops: OrderWrite[] = [];
    /** Public prints no local order took part in: streamed as `last_trade_price`, never stored. */
    const told: OrderWrite[] = [];
    let fills = 0;
    let changed = false;
    for (const e of events) {
      switch (e?.kind) {
        case 'snapshot':
          depth.snapshot(validLevels(e.bids), validLevels(e.asks));
          changed = true;
          break;
        case 'level':
          if (isSide(e.side) && isLevel(e.price, e.size)) changed = depth.update(e.side, e.price, e.size) || changed;
          break;
        case 'print':
          if (!isSide(e.aggressor) || !isLevel(e.price, e.size) || e.size === 0 || !depth.live) break;
          fills += this.print(market, state, depth, e.aggressor, e.price, e.size, now, ops, told);
          changed = true;
          break;
        case 'tick':
        case 'closed':
        case 'resolved':
          // The market service changes the tick or resolves; the public layer waits for the next snapshot (or goes for good).
          changed = depth.drop() || changed;
          break;
      }
    }
    if (!changed) return { fills };
    if (ops.length === 0) {
      this.s.publishUncommitted(market.conditionId, told);
      return { fills };
    }
    this.s.events?.touched(market.conditionId);
    await this.s.commit(ops, told);
    return { fills };
  }

  /** Takes the public layer off the market's book (stale or closed upstream, stop following). */
  drop(conditionId: string): void {
    const state = this.s.books.get(conditionId);
    if (state?.public?.drop()) this.s.publishUncommitted(conditionId);
  }

  /**
   * A public trade print walked like a public taker limit order at its price: from the best level to the
   * price (at or through it) in queue order. Public entries it meets shrink silently; local orders fill
   * (taker public-market, at the local order's price). The levels it touched are then reconciled to their
   * targets, so a print and the upstream update it caused give one book in either order.
   */
  private print(market: TradableMarket, state: MarketBookState, depth: PublicDepth, aggressor: BookSide, price: number, size: number, now: number, ops: OrderWrite[], told: OrderWrite[]): number {
    const out = state.book.place({ side: aggressor, price, size, tif: 'FAK' });
    const taker = publicOrder(market, aggressor, price, now);
    const txHash = '0x' + createHash('sha256').update('public-print:' + this.s.ids.next(now)).digest('hex');
    let fills = 0;
    let publicSize = size;
    let lo = PRICE_ONE;
    let hi = 0;
    for (const f of out.fills) {
      lo = Math.min(lo, f.price);
      hi = Math.max(hi, f.price);
      if (depth.owns(f.makerHandle)) {
        depth.printed(f.makerHandle, f.makerRemaining);
        continue;
      }
      const maker = state.orders.get(f.makerHandle);
      if (!maker) throw new Error(`book returned a fill against unknown order handle ${f.makerHandle}`);
      ops.push(...this.settlement.settle(taker, maker, f.price, BigInt(f.size), f.makerRemaining === 0, txHash, now));
      if (f.makerRemaining === 0) state.orders.delete(f.makerHandle);
      publicSize -= f.size;
      fills++;
    }
    if (out.fills.length > 0) depth.reconcileRange(aggressor === 'bid' ? 'ask' : 'bid', lo, hi);
    if (publicSize > 0) {
      // What traded between public parties only: the market's last trade, as the public stream shows it.
      const row = publicPrint(market, taker, this.s.ids.next(now), BigInt(price), BigInt(publicSize), txHash, now);
      this.s.rememberLastTrade(row);
      told.push({ kind: 'trade', row });
    }
    return fills;
  }
}

/** A public print as a trade row between public parties (streamed, never stored). */
function publicPrint(market: TradableMarket, taker: LiveOrder, id: string, price: bigint, size: bigint, txHash: string, now: number): TradeRow {
  return {
    id,
    matchTime: now,
    conditionId: market.conditionId,
    takerOrderId: taker.id,
    makerOrderId: taker.id,
    takerAssetId: taker.tokenId,
    makerAssetId: taker.tokenId,
    takerOutcomeIndex: 0,
    makerOutcomeIndex: 0,
    takerAddress: taker.maker,
    makerAddress: taker.maker,
    takerOwner: taker.owner,
    makerOwner: taker.owner,
    takerSide: taker.side,
    makerSide: taker.side === 'BUY' ? 'SELL' : 'BUY',
    price,
    makerPrice: price,
    size,
    kind: 'NORMAL',
    takerFeeRateBps: '0',
    makerFeeRateBps: '0',
    fee: 0n,
    makerRebate: 0n,
    transactionHash: txHash,
  };
}

function validLevels(levels: unknown): PublicLevel[] {
  return Array.isArray(levels) ? levels.filter((l: PublicLevel | null) => l !== null && typeof l === 'object' && isLevel(l.price, l.size)) : [];
}

function isSide(v: unknown): v is BookSide {
  return v === 'bid' || v === 'ask';
}

/** A public level the book can hold: a price strictly inside (0, 1) and a whole, safe size (0 removes). */
function isLevel(price: number, size: number): boolean {
  return Number.isInteger(price) && price > 0 && price < PRICE_ONE && Number.isSafeInteger(size) && size >= 0;
}
