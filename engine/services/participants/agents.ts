import type { SeededRandom } from '../../book/seededRandom.js';

/**
 * The simulated participants' decision rules (decisions §9). Each is a pure function of what the
 * participant may see (the public book, its own balances, the market's public fair-value anchor) and
 * its own seeded random stream; it returns the orders to place. Only the informed trader also sees the
 * hidden "true probability" path, and it is labelled as such. All prices and sizes are integer
 * micro-units (book terms: prices are of outcome 0, "Yes").
 */

export type Role = 'marketMaker' | 'noise' | 'informed' | 'whale';

export interface MarketMakerKnobs {
  /** Half-spread around the fair value, in ticks. */
  halfSpreadTicks: number;
  /** Shares per level. */
  size: number;
  levels: number;
  /** Ticks the quotes shift per `size` shares of net inventory (leans against what it holds). */
  skewTicksPerLot: number;
  /** The skew never exceeds this many ticks (a maker long a lot still quotes near fair value). */
  maxSkewTicks: number;
  /** Ticks its fair value moves per `size` shares of net flow others took from its quotes. */
  impactTicksPerLot: number;
}

export interface NoiseKnobs {
  /** Mean shares per order (sizes are drawn 1..2× the mean, whole shares). */
  meanSize: number;
  /** Probability an order is marketable (FAK at the opposite best) rather than resting. */
  marketableShare: number;
  /** Resting orders land within this many ticks of the fair value. */
  restingTicks: number;
}

export interface InformedKnobs {
  /** Trades only when the book is at least this many ticks away from the true probability. */
  edgeTicks: number;
  size: number;
}

export interface WhaleKnobs {
  /** Side in Yes terms: BUY pushes the price up. */
  side: 'BUY' | 'SELL';
  /** Total shares still to work. */
  remaining: number;
  /** Shares per slice (the visible tip of the iceberg). */
  slice: number;
  /** Worst Yes price it accepts (micro-units). */
  limit: number;
}

export type Knobs = MarketMakerKnobs | NoiseKnobs | InformedKnobs | WhaleKnobs;

/** What a participant sees when it acts. */
export interface MarketView {
  tick: number;
  minSize: number;
  bestBid: number | undefined;
  bestAsk: number | undefined;
  lastTrade: number | undefined;
  /** The public anchor the market makers quote around (scenario shocks move it). */
  fair: number;
  /** Net Yes exposure of this participant in shares (Yes held − No held), micro-units. */
  inventory: number;
}

/** One order intent in Yes terms; the simulation turns it into a signed order on the right token. */
export interface Intent {
  side: 'BUY' | 'SELL';
  price: number;
  size: number;
  type: 'GTC' | 'FAK';
}

const ONE = 1_000_000;
const SHARE = 1_000_000;

export function onTick(price: number, tick: number): number {
  const p = Math.round(price / tick) * tick;
  return Math.min(ONE - tick, Math.max(tick, p));
}

export function marketMaker(k: MarketMakerKnobs, v: MarketView): Intent[] {
  const lots = v.inventory / (k.size * SHARE);
  const skew = Math.max(-k.maxSkewTicks, Math.min(k.maxSkewTicks, Math.round(lots * k.skewTicksPerLot)));
  const centre = v.fair - skew * v.tick;
  const out: Intent[] = [];
  for (let i = 0; i < k.levels; i++) {
    const off = (k.halfSpreadTicks + i) * v.tick;
    const bid = onTick(centre - off, v.tick);
    const ask = onTick(centre + off, v.tick);
    if (bid < ask) {
      out.push({ side: 'BUY', price: bid, size: k.size * SHARE, type: 'GTC' });
      out.push({ side: 'SELL', price: ask, size: k.size * SHARE, type: 'GTC' });
    }
  }
  return out;
}

/**
 * The market maker's fair value after the flow it absorbed passively since its last action (others
 * hitting its quotes): net buying from it (its inventory fell) moves the value up, net selling down
 * (Glosten–Milgrom style). Its own taker fills are not counted, so sweeping a stale book after a shock
 * does not undo the shock. Kept in whole micro-units, finer than the tick.
 */
export function learnFromFlow(k: MarketMakerKnobs, fair: number, passiveInventoryChange: number, tick: number): number {
  const lots = passiveInventoryChange / (k.size * SHARE);
  const step = Math.max(-k.maxSkewTicks, Math.min(k.maxSkewTicks, lots * k.impactTicksPerLot));
  return Math.min(ONE - tick, Math.max(tick, Math.round(fair - step * tick)));
}

export function noise(k: NoiseKnobs, v: MarketView, rng: SeededRandom): Intent[] {
  const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
  const size = Math.max(v.minSize, Math.round(k.meanSize * (1 + rng.next())) * SHARE);
  if (rng.next() < k.marketableShare) {
    const far = side === 'BUY' ? v.bestAsk : v.bestBid;
    if (far === undefined) return [];
    return [{ side, price: far, size, type: 'FAK' }];
  }
  const ticks = rng.int(1, Math.max(1, k.restingTicks));
  const price = onTick(v.fair + (side === 'BUY' ? -ticks : ticks) * v.tick, v.tick);
  return [{ side, price, size, type: 'GTC' }];
}

/** LABELLED: the informed trader knows the hidden true probability `truth` and trades the book toward it. */
export function informed(k: InformedKnobs, v: MarketView, truth: number): Intent[] {
  const edge = k.edgeTicks * v.tick;
  if (v.bestAsk !== undefined && v.bestAsk < truth - edge) return [{ side: 'BUY', price: v.bestAsk, size: k.size * SHARE, type: 'FAK' }];
  if (v.bestBid !== undefined && v.bestBid > truth + edge) return [{ side: 'SELL', price: v.bestBid, size: k.size * SHARE, type: 'FAK' }];
  return [];
}

/** The whale takes one slice at a time, never beyond its limit price. */
export function whale(k: WhaleKnobs, v: MarketView): Intent[] {
  if (k.remaining <= 0) return [];
  const size = Math.min(k.slice, k.remaining) * SHARE;
  if (k.side === 'BUY') {
    if (v.bestAsk === undefined || v.bestAsk > k.limit) return [];
    return [{ side: 'BUY', price: v.bestAsk, size, type: 'FAK' }];
  }
  if (v.bestBid === undefined || v.bestBid < k.limit) return [];
  return [{ side: 'SELL', price: v.bestBid, size, type: 'FAK' }];
}
