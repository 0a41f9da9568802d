/** Operator routes (decisions §7), authenticated with `Authorization: Bearer <operatorToken>`. */
import { Type } from '@sinclair/typebox';

const Rate = (description: string) => Type.Union([Type.String(), Type.Number()], { description });

/** A fee schedule as the operator sends it: our wire form (decimal strings) or the public Gamma form (JSON numbers). */
export const FeeScheduleInput = Type.Object(
  {
    rate: Rate('Taker fee rate 0..1, at most 6 decimals, e.g. "0.04"'),
    exponent: Type.Optional(Type.Integer({ minimum: 0, maximum: 4, description: 'Exponent of p × (1 − p), default 1' })),
    takerOnly: Type.Optional(Type.Boolean({ description: 'Must be true (the default): only takers pay' })),
    rebateRate: Type.Optional(Rate("Maker's share of the fee-equivalent 0..1, default 0, e.g. \"0.25\"")),
  },
  { additionalProperties: false, description: 'Fee schedule (decisions §10): the taker pays shares × rate × (p × (1 − p))^exponent, rounded half-up to 5 decimals' },
);

export const CreateMarketBody = Type.Object(
  {
    question: Type.String({ description: 'The question, e.g. "Will it rain in Paris on 1 May?"' }),
    description: Type.Optional(Type.String({ description: 'Resolution rules' })),
    outcomes: Type.Optional(Type.Array(Type.String(), { description: 'Two labels; default ["Yes","No"]' })),
    tickSize: Type.String({ description: '"0.1", "0.01", "0.001" or "0.0001"' }),
    minOrderSize: Type.String({ description: 'Minimum order size in shares, decimal string, e.g. "5"' }),
    negRisk: Type.Optional(Type.Boolean({ description: 'default false' })),
    endDate: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'ISO 8601 date or date-time' })),
    eventId: Type.Optional(Type.Integer({ minimum: 1, description: 'Existing event to join; default a fresh event id' })),
    feeRateBps: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10000, description: 'Base fee in basis points, default 0; alone it sets the schedule {rate: n/10000, exponent 1, takerOnly, rebateRate 0} (decisions §10)' }),
    ),
    feeSchedule: Type.Optional(FeeScheduleInput),
  },
  { additionalProperties: false },
);

/** The body is optional: no body (or {}) means the global breaker. */
export const PauseBody = Type.Object({ conditionId: Type.Optional(Type.String({ description: 'Omit for the global breaker' })) }, { additionalProperties: false });

export const PauseResponse = Type.Object({
  system_paused: Type.Boolean(),
  condition_id: Type.Optional(Type.String()),
  condition_paused: Type.Optional(Type.Boolean()),
});

export const ResolveBody = Type.Object({ winningOutcomeIndex: Type.Integer({ description: '0 or 1' }) }, { additionalProperties: false });
export const ResolveParams = Type.Object({ conditionId: Type.String() });

export const FaucetBody = Type.Object(
  {
    address: Type.String({ description: '0x + 40 hex' }),
    amount: Type.String({ description: 'Collateral units, decimal string with at most 6 decimals ("250.5")' }),
  },
  { additionalProperties: false },
);
export const FaucetResponse = Type.Object({ address: Type.String(), credited: Type.String() });

const Counter = Type.Integer({ minimum: 0 });
export const StatsResponse = Type.Object({
  orderWriter: Type.Object({
    mode: Type.String({ description: "'worker' (writer thread) or 'inline' (main connection)" }),
    batches: Counter,
    transactions: Counter,
    groups: Counter,
    inline: Counter,
  }),
  signatureVerifier: Type.Object({
    mode: Type.String({ description: "'worker' (recovery thread) or 'inline'" }),
    batches: Counter,
    inWorker: Counter,
    inline: Counter,
    batchVerified: Type.Integer({ minimum: 0, description: 'signatures checked against a known signer key in a batch, not recovered one by one' }),
  }),
  writeBatcher: Type.Object({ transactions: Counter, writes: Counter, syncs: Counter, checkpoints: Counter, syncMs: Type.Number() }),
});

/** `PUT /admin/markets/{conditionId}/fee-rate`: a base fee in bps (the schedule built from it), a full schedule, or both. */
export const FeeRateBody = Type.Object(
  {
    feeRateBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, description: 'Base fee in basis points (100 = 1 %); alone it sets the schedule {rate: n/10000, exponent 1}' })),
    feeSchedule: Type.Optional(FeeScheduleInput),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** `PUT /admin/markets/{conditionId}/tick-size`: the market's new tick (resting orders stay where they are). */
export const TickSizeBody = Type.Object(
  { tickSize: Type.String({ description: 'New tick: "0.1", "0.01", "0.001" or "0.0001"' }) },
  { additionalProperties: false },
);

/** `POST /admin/bootstrap`: a one-time code from the launcher's URL, traded for the operator token. */
export const BootstrapBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200, description: 'The one-time code of the #bootstrap= URL fragment' }) }, { additionalProperties: false });
export const BootstrapResponse = Type.Object({ operatorToken: Type.String() });
