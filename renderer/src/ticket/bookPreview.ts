import { formatUnits, ONE } from '../../../engine/protocol/amounts.js';
import type { Side } from '../../../engine/protocol/eip712.js';
import { takerFeeOf } from '../../../engine/protocol/feeCurve.js';
import { NO_FEE, parseFeeSchedule, type FeeScheduleWire } from '../../../engine/protocol/feeSchedule.js';
import { toMicros } from '../format.js';

export interface Level {
  price: string;
  size: string;
}

export interface BookPreviewInput {
  side: Side;
  /** Wire order: bids ascending, asks descending (best last), as GET /book sends them. */
  bids: Level[];
  asks: Level[];
  /** Limit price; absent for a market order (it walks the whole side). */
  limit?: string;
  /** Shares wanted; for a market BUY by dollars pass `amount` instead. */
  size?: string;
  /** Collateral to spend (market BUY). */
  amount?: string;
  /** The market's fee schedule (its record's fee_schedule); absent = no fee. */
  feeSchedule?: FeeScheduleWire;
  /** FOK/FAK: what does not fill at once is killed, so it costs nothing. */
  immediateOnly?: boolean;
}

export interface BookPreview {
  /** Shares that would match now against the book. */
  filled: string;
  /** Shares left resting (limit) or killed (market) after the match. */
  rest: string;
  /** Collateral paid (BUY) or received (SELL) for the matched part. */
  matchedNotional: string;
  /** Collateral of the whole order: matched part + resting part at the limit. */
  cost: string;
  averagePrice?: string;
  worstPrice?: string;
  fee: string;
  /** BUY: payout if the outcome wins for all shares (filled + resting). */
  payoutIfRight?: string;
  /** The most the order can lose: BUY its cost; SELL (1 − price) per share sold. */
  maxLoss: string;
  /** Worst price minus best price against the book, in price units. */
  priceImpact?: string;
}

const micros = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : toMicros(s));

/**
 * What an order would do against the current book, in exact micro-units: it walks the opposite side
 * best-first up to the limit, so a marketable order previews what it would really fill (defect 7:
 * a FAK 1,000 @0.40 previewed as 400 filled 450 for 178.50).
 */
export function previewAgainstBook(i: BookPreviewInput): BookPreview | undefined {
  const levels = (i.side === 'BUY' ? [...i.asks].reverse() : [...i.bids].reverse()).map((l) => ({ price: toMicros(l.price) ?? 0n, size: toMicros(l.size) ?? 0n }));
  const limit = micros(i.limit);
  let wantShares = micros(i.size);
  const budget = i.side === 'BUY' && wantShares === undefined ? micros(i.amount) : undefined;
  if (wantShares === undefined && budget === undefined) return undefined;
  if ((wantShares !== undefined && wantShares <= 0n) || (budget !== undefined && budget <= 0n)) return undefined;

  let filled = 0n;
  let notional = 0n;
  let worst: bigint | undefined;
  let fee = 0n;
  const parsed = i.feeSchedule === undefined ? NO_FEE : parseFeeSchedule(i.feeSchedule);
  const schedule = 'problem' in parsed ? NO_FEE : parsed;
  for (const l of levels) {
    if (limit !== undefined && (i.side === 'BUY' ? l.price > limit : l.price < limit)) break;
    let take = l.size;
    if (wantShares !== undefined) take = take < wantShares - filled ? take : wantShares - filled;
    let budgetBound = false;
    if (budget !== undefined) {
      // Whole lots of 0.01 share only: leftover micro-dollars must not buy dust at a deeper level
      // (issue 23, item 1: that dust made the deepest ask the "worst price").
      let affordable = l.price > 0n ? ((budget - notional) * ONE) / l.price : 0n;
      affordable -= affordable % 10_000n;
      if (affordable < take) {
        take = affordable;
        budgetBound = true;
      }
    }
    if (take <= 0n) break;
    filled += take;
    notional += (take * l.price) / ONE;
    // The exchange's fee per fill (decisions §10): shares × rate × (p(1 − p))^exponent, half-up to 5 decimals.
    fee += takerFeeOf(schedule, l.price, take);
    worst = l.price;
    if ((wantShares !== undefined && filled >= wantShares) || budgetBound) break;
  }
  const best = levels[0]?.price;
  if (wantShares === undefined) wantShares = filled;
  const rest = wantShares - filled;
  const restingNotional = limit !== undefined && !i.immediateOnly ? (rest * limit) / ONE : 0n;
  const cost = notional + restingNotional;
  const shares = limit !== undefined && !i.immediateOnly ? wantShares : filled;
  return {
    filled: formatUnits(filled),
    rest: formatUnits(rest),
    matchedNotional: formatUnits(notional),
    cost: formatUnits(cost),
    averagePrice: filled > 0n ? formatUnits((notional * ONE) / filled) : undefined,
    worstPrice: worst !== undefined ? formatUnits(worst) : undefined,
    fee: formatUnits(fee),
    payoutIfRight: i.side === 'BUY' ? formatUnits(shares) : undefined,
    maxLoss: formatUnits(i.side === 'BUY' ? cost + fee : shares - cost),
    priceImpact: worst !== undefined && best !== undefined ? formatUnits(worst > best ? worst - best : best - worst) : undefined,
  };
}

/** Where ↑/↓ in an empty price field starts: the best price on the side the order would take, else mid, else 0.5. */
export function startingPrice(side: Side, bestBid: string | undefined, bestAsk: string | undefined): string {
  if (side === 'BUY' && bestAsk) return bestAsk;
  if (side === 'SELL' && bestBid) return bestBid;
  const b = micros(bestBid);
  const a = micros(bestAsk);
  if (a !== undefined && b !== undefined) return formatUnits((a + b) / 2n);
  return bestBid ?? bestAsk ?? '0.5';
}

/** Fat-finger checks: a price far from the mid, or a cost large against the balance. */
export function fatFingerWarnings(o: { price?: string; mid?: string; cost?: string; balance?: string }, farFromMid = '0.15', shareOfBalance = 50n): string[] {
  const out: string[] = [];
  const p = micros(o.price);
  const mid = micros(o.mid);
  const far = toMicros(farFromMid)!;
  if (p !== undefined && mid !== undefined && (p > mid ? p - mid : mid - p) > far) {
    out.push(`The price ${o.price} is more than ${farFromMid} away from the mid ${formatUnits(mid)}.`);
  }
  const cost = micros(o.cost);
  const bal = micros(o.balance);
  if (cost !== undefined && bal !== undefined && bal > 0n && cost * 100n > bal * shareOfBalance) {
    out.push(`This order uses ${String((cost * 100n) / bal)}% of your balance.`);
  }
  return out;
}
