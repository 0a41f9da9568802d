/** Scenario files (decisions §9): a timeline of market events relative to the scenario's start. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A market: its index in GET /markets order (0 = first) or its condition id. */
const MarketRef = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' })], { description: 'Index in GET /markets order (0 = first) or condition id' });
/** A price of outcome 0 as a decimal string, e.g. "0.65" (never a float). */
const Price = Type.String({ pattern: '^0?\\.[0-9]{1,6}$', description: 'Decimal string in (0, 1), e.g. "0.65"' });

/**
 * Every participant knob with its documented range (docs/scenarios.md): the schema refuses a value
 * outside it with a 400 naming the field, and the simulation checks the same table for the API.
 */
export const KNOB_RANGES = {
  halfSpreadTicks: { minimum: 0.5, maximum: 100, description: 'marketMaker: half-spread in ticks (0.5 = one-tick spread)' },
  size: { minimum: 1, maximum: 100_000, description: 'marketMaker: shares per level; informed: shares per sweep' },
  levels: { minimum: 1, maximum: 10, integer: true, description: 'marketMaker: levels per side' },
  skewTicksPerLot: { minimum: 0, maximum: 10, description: 'marketMaker: quote lean per lot of inventory' },
  maxSkewTicks: { minimum: 0, maximum: 100, description: 'marketMaker: largest lean' },
  impactTicksPerLot: { minimum: 0, maximum: 10, description: 'marketMaker: fair-value move per lot traded' },
  toxicWidenTicks: { minimum: 0, maximum: 50, description: 'marketMaker: extra half-spread under one-way flow' },
  meanSize: { minimum: 1, maximum: 10_000, description: 'noise: mean shares per order' },
  marketableShare: { minimum: 0, maximum: 1, description: 'noise: share of marketable orders' },
  restingTicks: { minimum: 1, maximum: 100, integer: true, description: 'noise: resting distance from fair value' },
  edgeTicks: { minimum: 0, maximum: 100, description: 'informed: edge before it trades' },
  remaining: { minimum: 0, maximum: 10_000_000, description: 'whale: shares still to work' },
  slice: { minimum: 1, maximum: 1_000_000, description: 'whale: shares per slice' },
  limit: { minimum: 1, maximum: 999_999, description: 'whale: worst Yes price in micro-units' },
  jumpTicks: { minimum: 0, maximum: 100, description: 'news: typical jump in ticks' },
} as const satisfies Record<string, { minimum: number; maximum: number; integer?: boolean; description: string }>;

/** Actions per minute of one participant: (0, 600]. */
export const INTENSITY_RANGE = { exclusiveMinimum: 0, maximum: 600 } as const;
/** Reaction delay of one participant, ms: [0, 60000]. */
export const LATENCY_RANGE = { minimum: 0, maximum: 60_000 } as const;

// The fields a scenario's participants event and the sim route's body share.
const Intensity = Type.Optional(Type.Number({ ...INTENSITY_RANGE, description: 'Actions per minute, (0, 600]' }));
const LatencyMs = Type.Optional(Type.Number({ ...LATENCY_RANGE, description: 'Reaction delay, ms, [0, 60000]' }));
/** A seed for the participants' random draws; `description` says which participants it reseeds. */
const Seed = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description }));
/** BUY or SELL, in Yes terms. */
const YesSide = (description: string) => Type.Union([Type.Literal('BUY'), Type.Literal('SELL')], { description });

const Knobs = Type.Object(
  {
    ...Object.fromEntries(
      Object.entries(KNOB_RANGES).map(([k, r]) => [k, Type.Optional(('integer' in r ? Type.Integer : Type.Number)({ minimum: r.minimum, maximum: r.maximum, description: r.description }))]),
    ),
    side: Type.Optional(YesSide('whale: side in Yes terms')),
  },
  { additionalProperties: false, description: 'Knobs of the participant (see GET /admin/sim and docs/scenarios.md for the ranges)' },
);

/** Each event names one action; the key is the action. */
export const SCENARIO_ACTIONS = {
  participants: Type.Object(
    {
      market: MarketRef,
      who: Type.String({ description: 'A participant name (mm-1, noise-2, …) or a role (marketMaker, noise, informed, whale)' }),
      enabled: Type.Optional(Type.Boolean()),
      intensity: Intensity,
      latencyMs: LatencyMs,
      knobs: Type.Optional(Knobs),
    },
    { additionalProperties: false },
  ),
  sim: Type.Object({ market: MarketRef, enabled: Type.Boolean() }, { additionalProperties: false }),
  shock: Type.Object({ market: MarketRef, price: Price }, { additionalProperties: false, description: 'Moves the fair value and the hidden truth at once' }),
  truth: Type.Object({ market: MarketRef, price: Price }, { additionalProperties: false, description: 'Moves only the hidden true probability (informed traders follow)' }),
  spread: Type.Object({ market: MarketRef, halfSpreadTicks: Type.Number({ minimum: 0.5, maximum: 100, description: 'Ticks, [0.5, 100] (0.5 = one-tick spread)' }) }, { additionalProperties: false, description: 'Widens or narrows the market makers’ quotes' }),
  whale: Type.Object(
    {
      market: MarketRef,
      side: YesSide('In Yes terms'),
      size: Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Total shares, [1, 10000000]' }),
      slice: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Shares per slice, [1, 1000000]' }),
      limit: Price,
      intervalSeconds: Type.Number({ minimum: 0.1, maximum: 3600, description: 'Seconds between slices, [0.1, 3600]' }),
    },
    { additionalProperties: false },
  ),
  tickSize: Type.Object({ market: MarketRef, tickSize: Type.Union([Type.Literal('0.1'), Type.Literal('0.01'), Type.Literal('0.001'), Type.Literal('0.0001')]) }, { additionalProperties: false }),
  pause: Type.Object({ market: Type.Optional(MarketRef) }, { additionalProperties: false, description: 'Omit market for the global breaker' }),
  resume: Type.Object({ market: Type.Optional(MarketRef) }, { additionalProperties: false }),
  resolve: Type.Object({ market: MarketRef, winningOutcomeIndex: Type.Union([Type.Literal(0), Type.Literal(1)]) }, { additionalProperties: false }),
} satisfies Record<string, TSchema>;

export type ScenarioActionName = keyof typeof SCENARIO_ACTIONS;
export type ScenarioAction = { [K in ScenarioActionName]: { [P in K]: Static<(typeof SCENARIO_ACTIONS)[K]> } }[ScenarioActionName];
export type ScenarioEvent = { at: number } & ScenarioAction;

export const ScenarioHeader = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9-]*$', description: 'kebab-case name' }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    durationSeconds: Type.Number({ exclusiveMinimum: 0, maximum: 86_400 }),
    seed: Seed('Reseeds every participant at the start (same seed, same tape)'),
    markets: Type.Optional(Type.Array(MarketRef, { description: 'Markets whose participants the scenario turns on at its start (default: those already simulated)' })),
    events: Type.Array(Type.Object({ at: Type.Number({ minimum: 0, description: 'Seconds after the start' }) }, { additionalProperties: true }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export interface Scenario {
  name: string;
  description?: string;
  durationSeconds: number;
  seed?: number;
  markets?: Array<number | string>;
  events: ScenarioEvent[];
}

/** Starts a scenario: a library name or an inline scenario. */
export const StartScenarioBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'A scenario of the library (GET /admin/scenarios)' })),
    scenario: Type.Optional(Type.Unknown({ description: 'An inline scenario (same shape as a file)' })),
    seed: Seed("Reseeds every participant at the start (overrides the scenario's own seed)"),
  },
  { additionalProperties: false },
);

export const SimMarketBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    participant: Type.Optional(Type.String({ description: 'Name or role to change (with intensity, latencyMs, knobs, participantEnabled)' })),
    participantEnabled: Type.Optional(Type.Boolean()),
    intensity: Intensity,
    latencyMs: LatencyMs,
    knobs: Type.Optional(Knobs),
    fair: Type.Optional(Price),
    seed: Seed('Reseeds every simulated market (all of them, not only this one)'),
  },
  { additionalProperties: false },
);

/** A scenario of the library (GET /admin/scenarios). */
export interface ScenarioSummary {
  name: string;
  description: string;
  durationSeconds: number;
  file: string;
}

export interface ScenarioStep {
  at: number;
  action: string;
  ok: boolean;
  error?: string;
}

export interface ScenarioProgress {
  name: string;
  state: 'running' | 'finished' | 'stopped';
  startedAt: number;
  elapsedSeconds: number;
  durationSeconds: number;
  eventsDone: number;
  eventsTotal: number;
  steps: ScenarioStep[];
}

