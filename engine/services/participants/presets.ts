import type { InformedKnobs, MarketMakerKnobs, NewsKnobs, NoiseKnobs, Role, WhaleKnobs } from './agents.js';

/** One participant as configured: who, how often, how fast, with which knobs. */
export interface ParticipantSpec {
  name: string;
  role: Role;
  /** Actions per minute (mean of an exponential inter-arrival). */
  intensity: number;
  /** Reaction delay added to every action, ms. */
  latencyMs: number;
  /** Paper collateral granted through the faucet path; topped up to it whenever the wallet's free collateral falls below a quarter of it. */
  grant: number;
  knobs: MarketMakerKnobs | NoiseKnobs | InformedKnobs | WhaleKnobs | NewsKnobs;
}

export interface MarketPreset {
  seed: number;
  /** Hidden true-probability path: volatility in ticks per √minute of clock time. */
  truthVolTicks: number;
  participants: ParticipantSpec[];
}

const mm = (over: Partial<MarketMakerKnobs> = {}): MarketMakerKnobs => ({ halfSpreadTicks: 0.5, size: 60, levels: 3, skewTicksPerLot: 0.2, maxSkewTicks: 2, impactTicksPerLot: 1.5, toxicWidenTicks: 1, ...over });
const noiseK = (over: Partial<NoiseKnobs> = {}): NoiseKnobs => ({ meanSize: 12, marketableShare: 0.55, restingTicks: 4, ...over });

/**
 * A liquid default (a one-tick spread, flow-driven fair value, news every few minutes); demo markets
 * get a tuned variant of it (demoPresetFor). `seed` drives every participant's random stream and key.
 */
export function defaultPreset(seed: number, over: { halfSpreadTicks?: number; mmSize?: number; intensity?: number; truthVolTicks?: number; jumpTicks?: number } = {}): MarketPreset {
  const intensity = over.intensity ?? 1;
  return {
    seed,
    truthVolTicks: over.truthVolTicks ?? 1.5,
    participants: [
      { name: 'mm-1', role: 'marketMaker', intensity: 60, latencyMs: 150, grant: 50_000, knobs: mm({ halfSpreadTicks: over.halfSpreadTicks ?? 0.5, size: over.mmSize ?? 60 }) },
      { name: 'noise-1', role: 'noise', intensity: 24 * intensity, latencyMs: 400, grant: 5_000, knobs: noiseK() },
      { name: 'noise-2', role: 'noise', intensity: 12 * intensity, latencyMs: 900, grant: 5_000, knobs: noiseK({ meanSize: 25, marketableShare: 0.35 }) },
      { name: 'informed-1', role: 'informed', intensity: 3 * intensity, latencyMs: 250, grant: 20_000, knobs: { edgeTicks: 3, size: 20 } satisfies InformedKnobs },
      { name: 'news-1', role: 'news', intensity: 0.25, latencyMs: 0, grant: 0, knobs: { jumpTicks: over.jumpTicks ?? 3 } satisfies NewsKnobs },
    ],
  };
}

/** Presets per demo market (engine/services/markets/seedDemoMarkets.ts), matched on the question; `salt` sets the market's seed. */
const DEMO_PRESETS: Array<{ match: RegExp; salt: number; preset: (seed: number) => MarketPreset }> = [
  // Bitcoin: the busiest book, tight and deep.
  { match: /^Will Bitcoin close above/, salt: 101, preset: (s) => defaultPreset(s, { intensity: 1.5, mmSize: 80 }) },
  // Rate cut on a 0.001 tick: spreads of a few ticks, steady flow.
  { match: /^Will the central bank cut/, salt: 202, preset: (s) => defaultPreset(s, { halfSpreadTicks: 2, truthVolTicks: 3, jumpTicks: 10 }) },
  // Mars on a coarse 0.1 tick: one-tick spread, thin and slow, rare small news.
  { match: /^Will a crewed mission land on Mars/, salt: 303, preset: (s) => defaultPreset(s, { intensity: 0.4, mmSize: 30, truthVolTicks: 0.2, jumpTicks: 0.5 }) },
  // Election (neg-risk): moderate.
  { match: /mayoral election\?$/, salt: 404, preset: (s) => defaultPreset(s, { intensity: 0.8 }) },
];

/**
 * A market's seed: its preset's own (101, 202, …) when no run seed is set, otherwise one derived from
 * the run seed (`--seed N`) and the market's salt, so every market of a reseeded run has its own stream.
 */
export function marketSeed(salt: number, runSeed: number | undefined): number {
  if (runSeed === undefined) return salt;
  let h = (Math.imul(runSeed >>> 0, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

export function demoPresetFor(question: string, runSeed?: number): MarketPreset | undefined {
  const hit = DEMO_PRESETS.find((p) => p.match.test(question));
  return hit?.preset(marketSeed(hit.salt, runSeed));
}

/** The markets whose default preset is liquid (the realism statistics of docs/scenarios.md hold there): Bitcoin and the election. */
export const LIQUID_DEMO_MARKETS = [0, 3];
