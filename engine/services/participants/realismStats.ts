import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';
import type { SimulationService } from './simulationService.js';

/** What the samplers read: exchange time, the simulation's scheduler, books and the trade tape. */
export type RealismDeps = Pick<Infra, 'clock'> & {
  readonly sim: Pick<SimulationService, 'scheduler'>;
  readonly orders: Pick<OrderService, 'book' | 'tradeTape'>;
};

/** The best bid and ask of a book at one instant (micro-units of Yes; undefined: that side is empty). */
export interface BookSample {
  bid: number | undefined;
  ask: number | undefined;
}

/** How much a market looks like a liquid public one (issue 21, docs/scenarios.md "Realism"). */
export interface RealismStats {
  seconds: number;
  /** Share of one-second samples with a one-tick spread. */
  oneTickSpreadShare: number;
  /** Spread in ticks at the 10th, 50th and 90th percentile of the samples (two-sided ones). */
  spreadTicks: { p10: number; p50: number; p90: number };
  distinctMids: number;
  /** Seconds per change of the mid between consecutive samples (Infinity when it never moved). */
  secondsPerMidChange: number;
  /** One-second mid moves of at least JUMP_TICKS ticks. */
  jumps: number;
  trades: number;
  /** Variance ratios of trade-to-trade price changes (1 = a random walk, below it mean reversion). */
  vr10: number;
  vr50: number;
  tradeShares: { p10: number; p50: number; p90: number; max: number };
}

/** A one-second mid move this large counts as a jump. */
export const JUMP_TICKS = 3;

/**
 * VR(q): the variance of q-trade price changes over q times that of one-trade changes, with Lo and
 * MacKinlay's (1988) overlapping, bias-corrected estimator: 1 for a random walk, below 1 when prices
 * bounce back. (Without the correction a few hundred trades would read about 1 − q/N for a random walk.)
 */
export function varianceRatio(prices: readonly number[], q: number): number {
  const n = prices.length - 1; // returns
  if (n < 2 * q) return NaN;
  const mu = (prices[n]! - prices[0]!) / n;
  let a = 0;
  for (let k = 1; k <= n; k++) a += (prices[k]! - prices[k - 1]! - mu) ** 2;
  let c = 0;
  for (let k = q; k <= n; k++) c += (prices[k]! - prices[k - q]! - q * mu) ** 2;
  const varA = a / (n - 1);
  const m = q * (n - q + 1) * (1 - q / n);
  return varA === 0 ? NaN : c / m / varA;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The statistics of one market from one-second book samples and its trades (oldest first: Yes price and shares, micro-units). */
export function realismStats(samples: readonly BookSample[], trades: ReadonlyArray<{ price: number; size: number }>, tick: number): RealismStats {
  const two = samples.filter((s): s is { bid: number; ask: number } => s.bid !== undefined && s.ask !== undefined);
  const spreads = two.map((s) => Math.round((s.ask - s.bid) / tick)).sort((a, b) => a - b);
  const mids = two.map((s) => (s.bid + s.ask) / 2);
  let changes = 0;
  let jumps = 0;
  for (let i = 1; i < mids.length; i++) {
    if (mids[i] !== mids[i - 1]) changes++;
    if (Math.abs(mids[i]! - mids[i - 1]!) >= JUMP_TICKS * tick) jumps++;
  }
  const prices = trades.map((t) => t.price);
  const shares = trades.map((t) => t.size / 1e6).sort((a, b) => a - b);
  return {
    seconds: samples.length,
    oneTickSpreadShare: samples.length === 0 ? 0 : spreads.filter((s) => s === 1).length / samples.length,
    spreadTicks: { p10: percentile(spreads, 0.1), p50: percentile(spreads, 0.5), p90: percentile(spreads, 0.9) },
    distinctMids: new Set(mids).size,
    secondsPerMidChange: changes === 0 ? Infinity : samples.length / changes,
    jumps,
    trades: trades.length,
    vr10: varianceRatio(prices, 10),
    vr50: varianceRatio(prices, 50),
    tradeShares: { p10: percentile(shares, 0.1), p50: percentile(shares, 0.5), p90: percentile(shares, 0.9), max: shares[shares.length - 1] ?? NaN },
  };
}

/**
 * Samples a market's best bid and ask once a second of clock time for `seconds`, on the simulation's
 * scheduler (so in fast mode the samples interleave with the participants deterministically).
 */
export function sampleBook(ctx: RealismDeps, conditionId: string, seconds: number): BookSample[] {
  const out: BookSample[] = [];
  const t0 = ctx.clock.nowMs();
  for (let i = 1; i <= seconds; i++) {
    ctx.sim.scheduler.at(t0 + i * 1000, () => {
      const book = ctx.orders.book(conditionId);
      out.push({ bid: book?.bestBid(), ask: book?.bestAsk() });
    });
  }
  return out;
}

/** A market's trades since `sinceMs` (clock time), oldest first, as Yes prices and shares. */
export function tradesSince(ctx: Pick<RealismDeps, 'orders'>, conditionId: string, sinceMs: number): Array<{ price: number; size: number }> {
  return ctx.orders
    .tradeTape({ conditionId, limit: 1_000_000, offset: 0 })
    .filter((t) => Number(t.match_time) * 1000 >= sinceMs)
    .reverse()
    .map((t) => {
      const p = Math.round(Number(t.price) * 1e6);
      return { price: t.outcome_index === 0 ? p : 1_000_000 - p, size: Math.round(Number(t.size) * 1e6) };
    });
}
