import { fromBookPrice } from '../../book/types.js';
import { COLLATERAL, type LedgerEntry } from '../../store/balanceRepo.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { OrderDeps } from './orderDeps.js';
import { buyReservationFor, remainingOf, reservedAssetOf, type LiveOrder } from './liveOrder.js';
import { isPublicMarket } from './publicDepth.js';
import { settleFill } from './settleFill.js';
import { feeLedgerEntries, rebateLedgerEntries } from '../fees/takerFee.js';
import { fillFees } from '../fees/fillFees.js';
import { NO_FEE } from '../../protocol/feeSchedule.js';
import type { TradingState } from './tradingState.js';

/**
 * Settlement of one fill in memory: balance moves and fees through the ledger, both orders' fills and
 * reservations, the trade row; returns the writes that make it durable (placement commits them).
 */
export class OrderSettlement {
  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
  ) {}

  /** Settles one fill in memory and returns its writes (trade row, maker order update, balance moves). */
  settle(taker: LiveOrder, maker: LiveOrder, bookPrice: number, size: bigint, makerGone: boolean, txHash: string, now: number): OrderWrite[] {
    const makerPrice = BigInt(fromBookPrice(maker.outcomeIndex, bookPrice));
    const takerPrice = BigInt(fromBookPrice(taker.outcomeIndex, bookPrice));
    const s = settleFill(
      { address: taker.maker, tokenId: taker.tokenId, side: taker.side },
      { address: maker.maker, tokenId: maker.tokenId, side: maker.side },
      makerPrice,
      size,
      COLLATERAL,
    );
    const tradeId = this.s.ids.next(now);
    // The public-market side of a mirrored market's fill is unlimited: no balance, no fee, no ledger, no order to update (decisions §10).
    const publicTaker = isPublicMarket(taker.maker);
    const publicMaker = isPublicMarket(maker.maker);
    const { fee, rebate } = fillFees(this.ctx.markets.byCondition(taker.conditionId)?.feeSchedule ?? NO_FEE, {
      takerSide: taker.side, takerPrice, size, takerCollateral: s.takerCollateral, publicTaker, publicMaker,
    });
    const entries: LedgerEntry[] = [
      ...feeLedgerEntries(taker.maker, fee, {
        time: now, conditionId: taker.conditionId, outcomeIndex: taker.outcomeIndex, side: taker.side, price: takerPrice, tradeId, orderId: taker.id, transactionHash: txHash,
      }),
      ...rebateLedgerEntries(maker.maker, rebate, {
        time: now, conditionId: maker.conditionId, outcomeIndex: maker.outcomeIndex, side: maker.side, price: makerPrice, tradeId, orderId: maker.id, transactionHash: txHash,
      }),
    ];
    for (const e of entries) this.s.sheet.add(e.address, e.asset, e.delta);
    for (const m of s.moves) {
      if (isPublicMarket(m.address)) continue;
      this.s.sheet.add(m.address, m.asset, m.delta);
      const party = m.role === 'taker' ? taker : maker;
      entries.push({
        time: now,
        address: m.address,
        asset: m.asset,
        delta: m.delta,
        kind: 'trade',
        reason: s.kind,
        conditionId: party.conditionId,
        outcomeIndex: party.outcomeIndex,
        side: party.side,
        price: m.role === 'taker' ? takerPrice : makerPrice,
        tradeId,
        orderId: party.id,
        transactionHash: txHash,
      });
    }
    if (!publicTaker) this.consume(taker, size, s.takerCollateral + fee);
    if (!publicMaker) this.consume(maker, size, s.makerCollateral);
    maker.updatedAt = now;
    if (publicMaker) {
      // A public entry: the public layer keeps its size (publicDepth.ts).
    } else if (makerGone) {
      maker.status = 'filled';
      if (maker.reserved !== 0n) {
        this.s.sheet.reserve(maker.maker, reservedAssetOf(maker, COLLATERAL), -maker.reserved);
        maker.reserved = 0n;
      }
      this.s.live.delete(maker.id);
      this.s.expiry.remove(maker.id);
      maker.handle = -1; // off the book (the caller drops it from the book's handle map)
    } else {
      maker.status = 'partially_filled';
    }
    const trade: TradeRow = {
      id: tradeId,
      matchTime: now,
      conditionId: taker.conditionId,
      takerOrderId: taker.id,
      makerOrderId: maker.id,
      takerAssetId: taker.tokenId,
      makerAssetId: maker.tokenId,
      takerOutcomeIndex: taker.outcomeIndex,
      makerOutcomeIndex: maker.outcomeIndex,
      takerAddress: taker.maker,
      makerAddress: maker.maker,
      takerOwner: taker.owner,
      makerOwner: maker.owner,
      takerSide: taker.side,
      makerSide: maker.side,
      price: takerPrice,
      makerPrice,
      size,
      kind: s.kind,
      takerFeeRateBps: taker.feeRateBps,
      makerFeeRateBps: maker.feeRateBps,
      fee,
      makerRebate: rebate,
      transactionHash: txHash,
    };
    this.s.rememberLastTrade(trade);
    const writes: OrderWrite[] = [{ kind: 'trade', row: trade }];
    if (!publicMaker) writes.push({ kind: 'fill', id: maker.id, sizeMatched: maker.sizeMatched, status: maker.status, reserved: maker.reserved, at: now });
    for (const entry of entries) writes.push({ kind: 'ledger', entry });
    return writes;
  }

  /**
   * Books a fill against an order's reservation. A SELL holds exactly its remaining shares. A BUY holds
   * the limit cost of its remaining size: what the fill cost at a better price than the limit (price
   * improvement) goes back to the available balance here.
   */
  private consume(o: LiveOrder, size: bigint, collateral: bigint): void {
    o.sizeMatched += size;
    const remaining = remainingOf(o);
    const old = o.reserved;
    let next: bigint;
    if (o.side === 'SELL') next = remaining;
    else {
      const left = old - collateral > 0n ? old - collateral : 0n;
      const limit = buyReservationFor(o, remaining);
      next = remaining === 0n ? 0n : limit < left ? limit : left;
    }
    if (next !== old) {
      this.s.sheet.reserve(o.maker, reservedAssetOf(o, COLLATERAL), next - old);
      o.reserved = next;
    }
  }
}
