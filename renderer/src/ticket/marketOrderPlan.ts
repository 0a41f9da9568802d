import { formatUnits, ONE } from '../../../engine/protocol/amounts.js';
import type { Side } from '../../../engine/protocol/eip712.js';
import { toMicros } from '../format.js';
import type { Level } from './bookPreview.js';

/** A share lot of limit orders: sizes carry 2 decimals (the public clients' rounding table). */
const LOT = 10_000n;

export interface MarketPlanInput {
  side: Side;
  /** Wire order: bids ascending, asks descending (best last), as GET /book sends them. */
  bids: Level[];
  asks: Level[];
  /** BUY: dollars to spend. */
  amount?: string;
  /** SELL: shares to sell. */
  size?: string;
  tickSize: string;
  /** How many ticks past the worst level reached the signed limit may go (0: exactly that level). */
  slippageTicks?: number;
}

export interface MarketPlan {
  /** The limit price to sign: the worst level the order reaches, moved by the slippage. */
  price: string;
  /** Shares to sign (2 decimals). */
  size: string;
  /** The worst book level the order actually reaches. */
  reached: string;
  /** BUY: the most the signed order can spend (size × price), never above the amount. */
  maxSpend?: string;
}

/**
 * What a market order signs, as a limit order FAK/FOK: a BUY by dollars gets the largest size whose
 * signed maker amount (size × limit) stays within the amount, at the lowest level that gives it, so
 * the limit is a level the order really reaches and never the deepest ask bought with leftover dust
 * (issue 23, item 1: $20 signed "@ 0.51" with 28.33 allowed). A SELL of shares signs the bid level
 * its size reaches. Slippage moves the limit by whole ticks and, for a BUY, shrinks the size so that
 * the amount still bounds the spend.
 */
export function marketOrderPlan(i: MarketPlanInput): MarketPlan | undefined {
  const tick = toMicros(i.tickSize);
  if (!tick || tick <= 0n) return undefined;
  const slip = BigInt(Math.max(0, Math.floor(i.slippageTicks ?? 0))) * tick;
  const levels = (i.side === 'BUY' ? [...i.asks].reverse() : [...i.bids].reverse())
    .map((l) => ({ price: toMicros(l.price) ?? 0n, size: toMicros(l.size) ?? 0n }))
    .filter((l) => l.price > 0n && l.size > 0n);
  if (levels.length === 0) return undefined;

  if (i.side === 'SELL') {
    const want = floorLot(toMicros(i.size ?? '') ?? 0n);
    if (want <= 0n) return undefined;
    let cum = 0n;
    let reached = levels[0]!.price;
    for (const l of levels) {
      reached = l.price;
      cum += l.size;
      if (cum >= want) break;
    }
    const limit = reached - slip < tick ? tick : reached - slip;
    return { price: formatUnits(limit), size: formatUnits(want), reached: formatUnits(reached) };
  }

  const amount = toMicros(i.amount ?? '');
  if (amount === undefined || amount <= 0n) return undefined;
  const cap = ONE - tick;
  let best: { limit: bigint; size: bigint; reached: bigint } | undefined;
  let cum = 0n;
  for (const l of levels) {
    cum += l.size;
    const limit = l.price + slip > cap ? (l.price > cap ? l.price : cap) : l.price + slip;
    const affordable = floorLot((amount * ONE) / limit);
    const size = floorLot(cum) < affordable ? floorLot(cum) : affordable;
    // Strictly larger only: a tie keeps the lower level, which the size then really reaches.
    if (size > (best?.size ?? 0n)) best = { limit, size, reached: l.price };
    // Deeper levels are dearer: once the amount is the bound, they can only give fewer shares.
    if (affordable <= floorLot(cum)) break;
  }
  if (!best) return undefined;
  return { price: formatUnits(best.limit), size: formatUnits(best.size), reached: formatUnits(best.reached), maxSpend: formatUnits((best.size * best.limit) / ONE) };
}

function floorLot(micros: bigint): bigint {
  return micros - (micros % LOT);
}
