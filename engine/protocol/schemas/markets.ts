/**
 * The public Market record of GET /markets and GET /markets/{condition_id} (data-api.md §6.1), for
 * OpenAPI. Numbers where the public service sends numbers (tick and minimum size, token prices).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MarketMirrorField } from './mirror.js';

const NullableString = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], description });

export const PublicTokenSchema = Type.Object({
  token_id: Type.String({ description: 'CTF position id (decimal uint256): the token id of the order and book routes' }),
  outcome: Type.String({ description: 'Outcome label' }),
  price: Type.Number({ description: 'Payout once resolved, else midpoint, else last trade, else 0.5' }),
  winner: Type.Boolean({ description: 'True for the winning outcome once resolved' }),
});

/** A market's fee schedule (decisions §10), rates as decimal strings (FeeScheduleWire). */
export const FeeScheduleWireSchema = Type.Object(
  {
    rate: Type.String({ description: 'Taker fee rate, e.g. "0.04": the taker pays shares × rate × (p × (1 − p))^exponent, rounded half-up to 5 decimals' }),
    exponent: Type.Integer({ minimum: 0, maximum: 4, description: 'Exponent of p × (1 − p); 1 on every public market' }),
    takerOnly: Type.Boolean({ description: 'True: only takers pay' }),
    rebateRate: Type.String({ description: "Maker's share of the fill's fee-equivalent, paid by the exchange's fee account, e.g. \"0.25\"" }),
  },
  { description: 'Fee schedule (decisions §10)' },
);

export const PublicMarketSchema = Type.Object(
  {
    condition_id: Type.String({ description: '0x + 64 hex: keccak256(oracle ‖ questionId ‖ uint256(2))' }),
    question_id: Type.String(),
    question: Type.String(),
    market_slug: Type.String(),
    description: Type.String(),
    tokens: Type.Array(PublicTokenSchema, { description: 'One per outcome, by outcome index' }),
    minimum_order_size: Type.Number({ description: 'Minimum order size in shares' }),
    minimum_tick_size: Type.Number({ description: '0.1, 0.01, 0.001 or 0.0001' }),
    neg_risk: Type.Boolean(),
    neg_risk_market_id: Type.String({ description: '"" unless neg_risk' }),
    neg_risk_request_id: Type.String({ description: '"" unless neg_risk' }),
    end_date_iso: NullableString('ISO 8601 end date, null when open-ended'),
    game_start_time: NullableString('Always null'),
    seconds_delay: Type.Integer(),
    active: Type.Boolean(),
    closed: Type.Boolean(),
    archived: Type.Boolean(),
    accepting_orders: Type.Boolean({ description: 'False when closed or paused (market or global breaker)' }),
    accepting_order_timestamp: Type.String(),
    enable_order_book: Type.Boolean(),
    maker_base_fee: Type.Integer({ description: 'bps' }),
    taker_base_fee: Type.Integer({ description: 'bps' }),
    fee_schedule: FeeScheduleWireSchema,
    rewards: Type.Object({ rates: Type.Null(), min_size: Type.Number(), max_spread: Type.Number() }),
    is_50_50_outcome: Type.Boolean(),
    icon: Type.String(),
    image: Type.String(),
    fpmm: Type.String(),
    notifications_enabled: Type.Boolean(),
    tags: Type.Array(Type.String()),
    event_id: Type.Integer({ minimum: 1, description: 'Event the market belongs to' }),
    paused: Type.Boolean({ description: "This market's circuit breaker" }),
    mirror: MarketMirrorField,
  },
  { description: 'CLOB Market record' },
);
export type PublicMarketJson = Static<typeof PublicMarketSchema>;

export const MarketsPageSchema = Type.Object({
  limit: Type.Integer(),
  count: Type.Integer(),
  next_cursor: Type.String({ description: 'base64 offset of the next page; "LTE=" after the last page' }),
  data: Type.Array(PublicMarketSchema),
});
