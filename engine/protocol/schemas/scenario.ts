/** Scenario files (decisions §9): a timeline of market events relative to the scenario's start. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A market: its index in GET /markets order (0 = first) or its condition id. */
const MarketRef = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' })], { description: 'Index in GET /markets order (0 = first) or condition id' });
/** A price of outcome 0 as a decimal string, e.g. "0.65" (never a float). */
const Price = Type.String({ pattern: '^0?\\.[0-9]{1,6}$', description: 'Decimal string in (0, 1), e.g. "0.65"' });

const Knobs = Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]), { description: 'Knob names of the participant, see GET /admin/sim' });

/** Each event names one action; the key is the action. */
export const SCENARIO_ACTIONS = {
  participants: Type.Object(
    {
      market: MarketRef,
      who: Type.String({ description: 'A participant name (mm-1, noise-2, …) or a role (marketMaker, noise, informed, whale)' }),
      enabled: Type.Optional(Type.Boolean()),
      intensity: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Actions per minute' })),
      latencyMs: Type.Optional(Type.Number({ minimum: 0 })),
      knobs: Type.Optional(Knobs),
    },
    { additionalProperties: false },
  ),
  sim: Type.Object({ market: MarketRef, enabled: Type.Boolean() }, { additionalProperties: false }),
  shock: Type.Object({ market: MarketRef, price: Price }, { additionalProperties: false, description: 'Moves the fair value and the hidden truth at once' }),
  truth: Type.Object({ market: MarketRef, price: Price }, { additionalProperties: false, description: 'Moves only the hidden true probability (informed traders follow)' }),
  spread: Type.Object({ market: MarketRef, halfSpreadTicks: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false, description: 'Widens or narrows the market makers’ quotes' }),
  whale: Type.Object(
    {
      market: MarketRef,
      side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')], { description: 'In Yes terms' }),
      size: Type.Integer({ minimum: 1, description: 'Total shares' }),
      slice: Type.Integer({ minimum: 1, description: 'Shares per slice' }),
      limit: Price,
      intervalSeconds: Type.Number({ exclusiveMinimum: 0 }),
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
    markets: Type.Optional(Type.Array(MarketRef, { description: 'Markets whose participants the scenario turns on at its start (default: those already simulated)' })),
    events: Type.Array(Type.Object({ at: Type.Number({ minimum: 0, description: 'Seconds after the start' }) }, { additionalProperties: true }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export interface Scenario {
  name: string;
  description?: string;
  durationSeconds: number;
  markets?: Array<number | string>;
  events: ScenarioEvent[];
}

/** Starts a scenario: a library name or an inline scenario. */
export const StartScenarioBody = Type.Object(
  { name: Type.Optional(Type.String({ description: 'A scenario of the library (GET /admin/scenarios)' })), scenario: Type.Optional(Type.Unknown({ description: 'An inline scenario (same shape as a file)' })) },
  { additionalProperties: false },
);

export const SimMarketBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    participant: Type.Optional(Type.String({ description: 'Name or role to change (with intensity, latencyMs, knobs, participantEnabled)' })),
    participantEnabled: Type.Optional(Type.Boolean()),
    intensity: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    latencyMs: Type.Optional(Type.Number({ minimum: 0 })),
    knobs: Type.Optional(Knobs),
    fair: Type.Optional(Price),
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

