import type { SeededRandom } from '../../book/seededRandom.js';

/**
 * The simulated participants' decision rules (decisions §9). Each is a pure function of what the
 * participant may see (the public book, its own balances, the market's public fair-value anchor) and
 * its own seeded random stream; it returns the orders to place. Only the informed trader also sees the
 * hidden "true probability" path, and it is labelled as such. All prices and sizes are integer
 * micro-units (book terms: prices are of outcome 0, "Yes").
 */

export type Role = 'marketMaker' | 'noise' | 'informed' | 'whale' | 'news';

export interface MarketMakerKnobs {
  /** Half-spread around the fair value, in ticks: 0.5 quotes a one-tick spread, 1 two ticks, … */
  halfSpreadTicks: number;
  /** Shares per level. */
  size: number;
  levels: number;
  /** Ticks the quotes shift per `size` shares of net inventory (leans against what it holds). */
  skewTicksPerLot: number;
  /** The skew never exceeds this many ticks (a maker long a lot still quotes near fair value). */
  maxSkewTicks: number;
  /** Ticks the fair value moves per trade of `size` shares (square-root impact: a trade of 4 lots moves it twice as far). */
  impactTicksPerLot: number;
  /** Extra half-spread, in ticks, when the recent flow is all one way (toxic); none while it is balanced. */
  toxicWidenTicks: number;
}

export interface NoiseKnobs {
  /** Mean shares per order (heavy-tailed: Pareto sizes, mostly small, now and then 10–20× the mean). */
  meanSize: number;
  /** Probability an order is marketable (FAK at the opposite best) rather than resting. */
  marketableShare: number;
  /** Resting orders land within this many ticks of the fair value. */
  restingTicks: number;
}

export interface InformedKnobs {
  /** Trades only when the book is at least this many ticks away from the true probability, and sweeps up to that distance. */
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
  /** Worst Yes price it accepts (micro-units): each slice sweeps the book up to it. */
  limit: number;
}

export interface NewsKnobs {
  /** Typical size of a news jump in ticks (each jump is this times 0.5 + an exponential draw, up or down). */
  jumpTicks: number;
}

export type Knobs = MarketMakerKnobs | NoiseKnobs | InformedKnobs | WhaleKnobs | NewsKnobs;

/** What a participant sees when it acts. */
export interface MarketView {
  tick: number;
  minSize: number;
  bestBid: number | undefined;
  bestAsk: number | undefined;
  lastTrade: number | undefined;
  /** The public anchor the market makers quote around (scenario shocks and news move it). */
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

/** One trade as the market makers learn from it: direction in Yes terms (+1 a buyer lifted, −1 a seller hit) and shares (micro-units). */
export interface Flow {
  dir: 1 | -1;
  size: number;
}

const ONE = 1_000_000;
const SHARE = 1_000_000;

export function onTick(price: number, tick: number): number {
  const p = Math.round(price / tick) * tick;
  return Math.min(ONE - tick, Math.max(tick, p));
}

/**
 * Quotes `levels` levels a side around the fair value leaned against inventory. The spread is
 * 2 × halfSpreadTicks ticks (at least one), widened by `toxicity` (0 balanced flow … 1 all one way),
 * placed so its middle is as close to the leaned fair value as the tick allows.
 */
export function marketMaker(k: MarketMakerKnobs, v: MarketView, toxicity = 0): Intent[] {
  const lots = v.inventory / (k.size * SHARE);
  const skew = Math.max(-k.maxSkewTicks, Math.min(k.maxSkewTicks, lots * k.skewTicksPerLot));
  const centre = v.fair / v.tick - skew;
  const half = k.halfSpreadTicks + k.toxicWidenTicks * Math.max(0, toxicity - 0.5) * 2;
  const spread = Math.max(1, Math.round(2 * half));
  const maxTicks = Math.round(ONE / v.tick) - 1;
  const bid0 = Math.round(centre - spread / 2);
  const out: Intent[] = [];
  for (let i = 0; i < k.levels; i++) {
    const bid = bid0 - i;
    const ask = bid0 + spread + i;
    if (bid >= 1) out.push({ side: 'BUY', price: bid * v.tick, size: k.size * SHARE, type: 'GTC' });
    if (ask <= maxTicks) out.push({ side: 'SELL', price: ask * v.tick, size: k.size * SHARE, type: 'GTC' });
  }
  return out;
}

/**
 * The fair value after the trades since the market makers last looked (anybody's, users' included):
 * each buyer lifting moves it up, each seller hitting down, by impactTicksPerLot × √(size / lot), at
 * most 4 ticks per trade (Glosten–Milgrom style learning, so trade prices behave like a martingale
 * rather than bouncing between two quotes). Kept in whole micro-units, finer than the tick.
 */
export function learnFromTrades(k: MarketMakerKnobs, fair: number, flow: readonly Flow[], tick: number): number {
  let f = fair;
  for (const t of flow) f += t.dir * Math.min(4, k.impactTicksPerLot * Math.sqrt(t.size / (k.size * SHARE))) * tick;
  return Math.min(ONE - tick, Math.max(tick, Math.round(f)));
}

/** A heavy-tailed order size: Pareto (α 1.6) with the given mean, capped at 25× the mean, in whole shares ≥ minShares. */
export function heavyTailedShares(mean: number, rng: SeededRandom, minShares = 1): number {
  const alpha = 1.6;
  const scale = (mean * (alpha - 1)) / alpha;
  const draw = scale / Math.pow(1 - rng.next(), 1 / alpha);
  return Math.max(minShares, Math.round(Math.min(draw, 25 * mean)));
}

/**
 * A noise trader: a random side (leaning against what it holds, so it sells inventory back rather than
 * hoarding it), heavy-tailed size; with probability `marketableShare` a FAK at the opposite best,
 * otherwise a resting GTC within `restingTicks` of fair value.
 */
export function noise(k: NoiseKnobs, v: MarketView, rng: SeededRandom): Intent[] {
  const held = v.inventory / (k.meanSize * SHARE);
  const pBuy = 0.5 - Math.max(-0.15, Math.min(0.15, held / 200));
  const side = rng.next() < pBuy ? 'BUY' : 'SELL';
  const size = Math.max(v.minSize, heavyTailedShares(k.meanSize, rng) * SHARE);
  if (rng.next() < k.marketableShare) {
    const far = side === 'BUY' ? v.bestAsk : v.bestBid;
    if (far === undefined) return [];
    return [{ side, price: far, size, type: 'FAK' }];
  }
  const ticks = rng.int(1, Math.max(1, k.restingTicks));
  const price = onTick(v.fair + (side === 'BUY' ? -ticks : ticks) * v.tick, v.tick);
  return [{ side, price, size, type: 'GTC' }];
}

/**
 * LABELLED: the informed trader knows the hidden true probability `truth`. When the book is more than
 * `edgeTicks` away from it, it sweeps every level up to that distance (a FAK limited there).
 */
export function informed(k: InformedKnobs, v: MarketView, truth: number): Intent[] {
  const edge = k.edgeTicks * v.tick;
  if (v.bestAsk !== undefined && v.bestAsk < truth - edge) {
    return [{ side: 'BUY', price: Math.floor((truth - edge) / v.tick) * v.tick, size: k.size * SHARE, type: 'FAK' }];
  }
  if (v.bestBid !== undefined && v.bestBid > truth + edge) {
    return [{ side: 'SELL', price: Math.ceil((truth + edge) / v.tick) * v.tick, size: k.size * SHARE, type: 'FAK' }];
  }
  return [];
}

/** The whale takes one slice at a time, sweeping the book up to its limit price and never beyond. */
export function whale(k: WhaleKnobs, v: MarketView): Intent[] {
  if (k.remaining <= 0) return [];
  // The last slice is at least the market's minimum order (it may overshoot the total by a few shares).
  const size = Math.max(v.minSize, Math.ceil(Math.min(k.slice, k.remaining)) * SHARE);
  const limit = k.side === 'BUY' ? Math.floor(k.limit / v.tick) * v.tick : Math.ceil(k.limit / v.tick) * v.tick;
  if (k.side === 'BUY') {
    if (v.bestAsk === undefined || v.bestAsk > limit) return [];
    return [{ side: 'BUY', price: limit, size, type: 'FAK' }];
  }
  if (v.bestBid === undefined || v.bestBid < limit) return [];
  return [{ side: 'SELL', price: limit, size, type: 'FAK' }];
}

/** A news jump in ticks: up or down at even odds, jumpTicks × (0.5 + an exponential draw). */
export function newsJump(k: NewsKnobs, rng: SeededRandom): number {
  const sign = rng.next() < 0.5 ? -1 : 1;
  return sign * k.jumpTicks * (0.5 - Math.log(1 - rng.next()));
}
