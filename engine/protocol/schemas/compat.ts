/**
 * Shapes of the routes the public clients call beyond the contract (trading-api.md §9.2, §9.3, §12):
 * the v2 client's health, version and compact market routes, the simplified and sampling market
 * listings, notifications, order scoring and the heartbeat ("dead man's switch").
 */
import { MarketMirrorField } from './mirror.js';
import { Type, type Static } from '@sinclair/typebox';
import { PublicMarketSchema, PublicTokenSchema } from './markets.js';

export const VersionResponse = Type.Object({ version: Type.Integer({ description: 'Order protocol clob-client-v2 should sign: 1 (domain version "1", GET /config exchange) or 2 (domain version "2", exchangeV2); both are accepted' }) });

export const TokenIdParams = Type.Object({ token_id: Type.String({ description: 'Token id (decimal uint256) from GET /markets tokens[].token_id' }) });
export const ConditionIdParams = Type.Object({ condition_id: Type.String({ description: 'Condition id: 0x + 64 hex, any case' }) });

export const MarketByTokenResponse = Type.Object({ condition_id: Type.String({ description: 'Condition id of the market that trades the token' }) });

export const ClobMarketInfoSchema = Type.Object(
  {
    c: Type.String({ description: 'Condition id' }),
    t: Type.Array(Type.Object({ t: Type.String({ description: 'Token id' }), o: Type.String({ description: 'Outcome label' }) }), {
      description: 'Tokens by outcome index: [outcome 0 (Yes), outcome 1 (No)]',
    }),
    mts: Type.Number({ description: 'Minimum tick size (0.1, 0.01, 0.001 or 0.0001)' }),
    nr: Type.Boolean({ description: 'Neg risk' }),
    mos: Type.Number({ description: 'Minimum order size in shares' }),
    fd: Type.Object(
      { r: Type.Number({ description: "Fee schedule rate (decisions §10), e.g. 0.04; 0 on a fee-free market" }), e: Type.Number({ description: 'Fee schedule exponent (0 on a fee-free market)' }) },
      { description: 'Fee details: the taker pays shares × r × (p × (1 − p))^e' },
    ),
    r: Type.Null({ description: 'Rewards: none on this exchange' }),
    mbf: Type.Integer({ description: 'Maker base fee, bps (0)' }),
    tbf: Type.Integer({ description: 'Taker base fee, bps (GET /fee-rate base_fee)' }),
  },
  { description: 'Compact market info of GET /clob-markets/{condition_id} (clob-client-v2 getClobMarketInfo)' },
);
export type ClobMarketInfoJson = Static<typeof ClobMarketInfoSchema>;

export const SimplifiedMarketSchema = Type.Object(
  {
    condition_id: Type.String(),
    tokens: Type.Array(PublicTokenSchema),
    rewards: Type.Object({ rates: Type.Null(), min_size: Type.Number(), max_spread: Type.Number() }),
    active: Type.Boolean(),
    closed: Type.Boolean(),
    archived: Type.Boolean(),
    accepting_orders: Type.Boolean(),
    mirror: MarketMirrorField,
  },
  { description: 'Simplified market record (data-api.md §6.1)' },
);
export type SimplifiedMarketJson = Static<typeof SimplifiedMarketSchema>;

const pageOf = <T extends typeof PublicMarketSchema | typeof SimplifiedMarketSchema>(item: T, description: string) =>
  Type.Object(
    {
      limit: Type.Integer(),
      count: Type.Integer(),
      next_cursor: Type.String({ description: 'base64 offset of the next page; "LTE=" after the last page' }),
      data: Type.Array(item),
    },
    { description },
  );

export const SimplifiedMarketsPageSchema = pageOf(SimplifiedMarketSchema, 'Page of simplified market records');
export const SamplingMarketsPageSchema = pageOf(PublicMarketSchema, 'Page of the markets that accept orders now (full Market records)');
export const SamplingSimplifiedMarketsPageSchema = pageOf(SimplifiedMarketSchema, 'Page of the markets that accept orders now (simplified records)');

export const CursorQuery = Type.Object({ next_cursor: Type.Optional(Type.String({ description: 'Cursor of the previous page; "MA==" (or "") for the first' })) });

const SignatureType = Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: 'Sent by the public clients (0 EOA, 1 proxy, 2 Safe, 3 POLY_1271); accepted and not used' }));

export const NotificationsQuery = Type.Object({ signature_type: SignatureType });
export const NotificationSchema = Type.Object({ type: Type.Integer(), owner: Type.String(), payload: Type.Unknown() });
export const NotificationsResponse = Type.Array(NotificationSchema, { description: 'Always empty: this exchange sends no notifications' });
export const DropNotificationsQuery = Type.Object({
  ids: Type.String({ description: 'Comma-separated notification ids (1 to 100), as GET /notifications lists them' }),
  signature_type: SignatureType,
});

export const OrderScoringQuery = Type.Object({ order_id: Type.String({ description: 'Order id (ULID, any case)' }) });
export const OrderScoringResponse = Type.Object({ scoring: Type.Boolean({ description: 'Always false: this exchange runs no liquidity-rewards program' }) });
export const OrdersScoringBody = Type.Array(Type.String({ description: 'Order id (ULID, any case)' }), { minItems: 1, maxItems: 500, description: '1 to 500 order ids' });
export const OrdersScoringResponse = Type.Record(Type.String(), Type.Boolean(), { description: 'Order id (as sent) → false' });

export const HeartbeatBody = Type.Object(
  {
    heartbeat_id: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: 100,
        description: 'The heartbeat_id of the previous answer; null, "" or absent to start (or join) the API key’s session',
      }),
    ),
  },
  { additionalProperties: false },
);
export const HeartbeatResponse = Type.Object({ heartbeat_id: Type.String({ description: 'Send it back with the next heartbeat, within 10 s' }) });
export const HeartbeatRejection = Type.Object({
  error: Type.Literal('invalid_heartbeat_id'),
  message: Type.String(),
  heartbeat_id: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'The key’s live session id if it has one (resend with it), else null' }),
});
