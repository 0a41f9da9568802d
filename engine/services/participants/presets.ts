import type { InformedKnobs, MarketMakerKnobs, NoiseKnobs, Role, WhaleKnobs } from './agents.js';

/** One participant as configured: who, how often, how fast, with which knobs. */
export interface ParticipantSpec {
  name: string;
  role: Role;
  /** Actions per minute (mean of an exponential inter-arrival). */
  intensity: number;
  /** Reaction delay added to every action, ms. */
  latencyMs: number;
  /** Paper collateral granted through the faucet path when the wallet holds less. */
  grant: number;
  knobs: MarketMakerKnobs | NoiseKnobs | InformedKnobs | WhaleKnobs;
}

export interface MarketPreset {
  seed: number;
  /** Hidden true-probability path: volatility in ticks per informed action. */
  truthVolTicks: number;
  participants: ParticipantSpec[];
}

const mm = (over: Partial<MarketMakerKnobs> = {}): MarketMakerKnobs => ({ halfSpreadTicks: 1, size: 60, levels: 3, skewTicksPerLot: 0.5, maxSkewTicks: 3, impactTicksPerLot: 0.5, ...over });
const noiseK = (over: Partial<NoiseKnobs> = {}): NoiseKnobs => ({ meanSize: 10, marketableShare: 0.4, restingTicks: 4, ...over });

/** A calm, liquid default; demo markets get a tuned variant of it (presetFor). */
export function defaultPreset(seed: number, over: { spreadTicks?: number; mmSize?: number; intensity?: number; truthVolTicks?: number } = {}): MarketPreset {
  const intensity = over.intensity ?? 1;
  return {
    seed,
    truthVolTicks: over.truthVolTicks ?? 1,
    participants: [
      { name: 'mm-1', role: 'marketMaker', intensity: 12 * intensity, latencyMs: 150, grant: 50_000, knobs: mm({ halfSpreadTicks: over.spreadTicks ?? 1, size: over.mmSize ?? 60 }) },
      { name: 'noise-1', role: 'noise', intensity: 10 * intensity, latencyMs: 400, grant: 5_000, knobs: noiseK() },
      { name: 'noise-2', role: 'noise', intensity: 6 * intensity, latencyMs: 900, grant: 5_000, knobs: noiseK({ meanSize: 25, marketableShare: 0.25 }) },
      { name: 'informed-1', role: 'informed', intensity: 4 * intensity, latencyMs: 250, grant: 20_000, knobs: { edgeTicks: 2, size: 20 } satisfies InformedKnobs },
    ],
  };
}

/** Presets per demo market (engine/services/markets/seedDemoMarkets.ts), matched on the question. */
const DEMO_PRESETS: Array<{ match: RegExp; preset: () => MarketPreset }> = [
  // Bitcoin: the busiest book, tight and deep.
  { match: /^Will Bitcoin close above/, preset: () => defaultPreset(101, { intensity: 1.5, mmSize: 80 }) },
  // Rate cut on a 0.001 tick: spreads of a few ticks, steady flow.
  { match: /^Will the central bank cut/, preset: () => defaultPreset(202, { spreadTicks: 4, truthVolTicks: 3 }) },
  // Mars on a coarse 0.1 tick: one-tick spread, thin and slow.
  { match: /^Will a crewed mission land on Mars/, preset: () => defaultPreset(303, { intensity: 0.4, mmSize: 30, truthVolTicks: 0.2 }) },
  // Election (neg-risk): moderate.
  { match: /mayoral election\?$/, preset: () => defaultPreset(404, { intensity: 0.8 }) },
];

export function demoPresetFor(question: string): MarketPreset | undefined {
  return DEMO_PRESETS.find((p) => p.match.test(question))?.preset();
}
