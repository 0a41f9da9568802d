import { fromBookPrice, toBookTerms, type MarketBook } from '../../book/types.js';
import { formatUnits, ONE } from '../../protocol/amounts.js';
import type { FeeSchedule } from '../../protocol/feeSchedule.js';
import { takerFee } from '../fees/takerFee.js';

/** What an order would fill right now, walking the opposite side of the book (own-token prices). */
export interface OrderQuote {
  side: 'BUY' | 'SELL';
  requestedSize: string;
  fillableSize: string;
  /** True when the whole size fills within the limit (a FOK would be accepted). */
  fillsCompletely: boolean;
  averagePrice: string | null;
  worstPrice: string | null;
  /** Σ price × size of the fills, collateral. */
  notional: string;
  fees: string;
  midpoint: string | null;
  /** How far the average price is from the midpoint, against the taker (collateral per share). */
  slippage: string | null;
  /** The most the filled part can lose at resolution: a BUY its cost and fees, a SELL (1 − price) per share and fees. */
  maxLoss: string;
  levels: Array<{ price: string; size: string }>;
}

/**
 * A pure preview of a marketable order on `book` (the matching engine's levels): which levels it takes,
 * up to `limit` (own-token micro-units; none = any price). Fees follow the market's fee schedule per level (decisions §10).
 */
export function quoteOrder(book: MarketBook | undefined, o: { outcomeIndex: 0 | 1; side: 'BUY' | 'SELL'; size: bigint; limit?: bigint; feeSchedule: FeeSchedule }): OrderQuote {
  const takerSide = toBookTerms(o.outcomeIndex, o.side, 0).side;
  const levels = book?.levels(takerSide === 'bid' ? 'ask' : 'bid') ?? [];
  let left = o.size;
  let cost = 0n;
  let fees = 0n;
  let worst: bigint | undefined;
  const taken: Array<{ price: string; size: string }> = [];
  for (const l of levels) {
    if (left <= 0n) break;
    const price = BigInt(fromBookPrice(o.outcomeIndex, l.price));
    if (o.limit !== undefined && (o.side === 'BUY' ? price > o.limit : price < o.limit)) break;
    const size = BigInt(l.size) < left ? BigInt(l.size) : left;
    cost += (price * size) / ONE;
    fees += takerFee(o.feeSchedule, price, size);
    worst = price;
    left -= size;
    taken.push({ price: formatUnits(price), size: formatUnits(size) });
  }
  const filled = o.size - left;
  const bid = book?.bestBid();
  const ask = book?.bestAsk();
  const mid = bid !== undefined && ask !== undefined ? BigInt(fromBookPrice(o.outcomeIndex, Math.round((bid + ask) / 2))) : undefined;
  const avg = filled > 0n ? (cost * ONE) / filled : undefined;
  const slip = avg === undefined || mid === undefined ? undefined : o.side === 'BUY' ? avg - mid : mid - avg;
  const maxLoss = o.side === 'BUY' ? cost + fees : filled - cost + fees;
  return {
    side: o.side,
    requestedSize: formatUnits(o.size),
    fillableSize: formatUnits(filled),
    fillsCompletely: left === 0n,
    averagePrice: avg === undefined ? null : formatUnits(avg),
    worstPrice: worst === undefined ? null : formatUnits(worst),
    notional: formatUnits(cost),
    fees: formatUnits(fees),
    midpoint: mid === undefined ? null : formatUnits(mid),
    slippage: slip === undefined ? null : formatUnits(slip),
    maxLoss: formatUnits(maxLoss),
    levels: taken,
  };
}
