/**
 * Request and response shapes of the order routes (interface §2.2–2.5, §4.2, decisions §3). Request
 * schemas are precise (address and hex patterns, decimal-integer strings, enums) so a malformed field
 * gets a 400 invalid_field naming it; business rules (tick, size, balance, signature) are the service's.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const StringEnum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const AddressSchema = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: '0x-prefixed 20-byte hex address (any case)' });
export const UintStringSchema = (description: string) => Type.String({ pattern: '^[0-9]{1,78}$', description: `${description} (decimal integer string)` });
const ConditionIdSchema = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'Condition id: 0x + 64 hex' });
const OrderIdSchema = Type.String({ maxLength: 100, description: 'Order id (ULID, case-insensitive)' });

export const SideSchema = StringEnum(['BUY', 'SELL'] as const, 'BUY or SELL (upper case)');
export const OrderTypeSchema = StringEnum(['GTC', 'GTD', 'FOK', 'FAK'] as const, 'FOK, FAK, GTC or GTD');

/** The `order` object of POST /order. `conditionId` and `referrer` are required unless the compatibility profile is on. */
export function signedOrderSchema(opts: { compat: boolean }) {
  const req = <T extends TSchema>(s: T) => (opts.compat ? Type.Optional(s) : s);
  return Type.Object(
    {
      // String first: with type coercion on, a JSON number becomes its decimal string, and a long decimal
      // string is never turned into an (imprecise) number.
      salt: Type.Union([UintStringSchema('Salt'), Type.Integer({ minimum: 0 })], { description: 'Unique entropy: a JSON number (public TS client) or a decimal string' }),
      maker: AddressSchema,
      signer: AddressSchema,
      taker: AddressSchema,
      tokenId: UintStringSchema('Token id'),
      makerAmount: UintStringSchema('Maker amount in 6-decimal units'),
      takerAmount: UintStringSchema('Taker amount in 6-decimal units'),
      expiration: Type.Optional(UintStringSchema('Unix seconds; required for GTD ("0" otherwise)')),
      nonce: UintStringSchema('Maker nonce'),
      feeRateBps: UintStringSchema('Fee rate in basis points'),
      side: SideSchema,
      signatureType: Type.Unsafe<0 | 1 | 2>({ type: 'integer', enum: [0, 1, 2], description: '0 = EOA, 1 = proxy signer, 2 = Safe signer' }),
      signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: '65-byte r‖s‖v hex signature of the EIP-712 order digest' }),
      conditionId: req(ConditionIdSchema),
      referrer: req(AddressSchema),
      affiliate: Type.Optional(Type.Union([AddressSchema, Type.Null()])),
      affiliatePercentage: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()])),
      metadata: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
    },
    { additionalProperties: false },
  );
}

const Bytes32Schema = (description: string) => Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: `${description}: 0x + 64 hex` });

/**
 * The `order` object of a V2 POST /order (decisions §6; clob-client-v2's orderToJsonV2): the V2 signed
 * struct (no taker, expiration, nonce or feeRateBps; timestamp, metadata and builder instead) plus the
 * unsigned `expiration` the client sends beside it. Same request-only fields as V1.
 */
export function signedOrderV2Schema(opts: { compat: boolean }) {
  const req = <T extends TSchema>(s: T) => (opts.compat ? Type.Optional(s) : s);
  return Type.Object(
    {
      salt: Type.Union([UintStringSchema('Salt'), Type.Integer({ minimum: 0 })], { description: 'Unique entropy: a JSON number (public TS client) or a decimal string' }),
      maker: AddressSchema,
      signer: AddressSchema,
      taker: Type.Optional(AddressSchema),
      tokenId: UintStringSchema('Token id'),
      makerAmount: UintStringSchema('Maker amount in 6-decimal units'),
      takerAmount: UintStringSchema('Taker amount in 6-decimal units'),
      side: SideSchema,
      signatureType: Type.Unsafe<0 | 1 | 2>({ type: 'integer', enum: [0, 1, 2], description: '0 = EOA, 1 = proxy signer, 2 = Safe signer (3 = POLY_1271 is not supported here)' }),
      timestamp: UintStringSchema('Signing time in milliseconds (signed)'),
      metadata: Bytes32Schema('Signed metadata word'),
      builder: Bytes32Schema('Signed builder code (zero when none)'),
      expiration: Type.Optional(UintStringSchema('Unix seconds, not signed in V2; required for GTD ("0" otherwise)')),
      signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: '65-byte r‖s‖v hex signature of the V2 EIP-712 order digest (domain version "2")' }),
      conditionId: req(ConditionIdSchema),
      referrer: req(AddressSchema),
      affiliate: Type.Optional(Type.Union([AddressSchema, Type.Null()])),
      affiliatePercentage: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()])),
    },
    { additionalProperties: false },
  );
}

/**
 * A V1 or a V2 signed order. An object with `timestamp` or `builder` (the V2-only signed fields, as
 * clob-client-v2's isV2Order decides) is checked as V2, anything else as V1, so a 400 names the
 * field of the protocol the order was meant for instead of a "matches neither" error.
 */
export function signedOrderAnySchema(opts: { compat: boolean }) {
  const v1 = signedOrderSchema(opts);
  const v2 = signedOrderV2Schema(opts);
  return Type.Unsafe<Static<typeof v1> | Static<typeof v2>>({
    description: 'A V1 order (domain version "1": taker, expiration, nonce, feeRateBps signed) or a V2 order (domain version "2": timestamp, metadata, builder signed)',
    if: { type: 'object', anyOf: [{ required: ['timestamp'] }, { required: ['builder'] }] },
    then: v2,
    else: v1,
  });
}

/** One POST /order body (and one POST /orders entry). */
export function postOrderBodySchema(opts: { compat: boolean }) {
  return Type.Object(
    {
      order: signedOrderAnySchema(opts),
      owner: Type.String({ minLength: 1, maxLength: 100, description: 'Must equal SERVICE_ADDRESS (or the API key in the compatibility profile)' }),
      orderType: OrderTypeSchema,
      deferExec: Type.Optional(Type.Boolean({ description: 'Sent by the public client; execution is never deferred here' })),
      postOnly: Type.Optional(Type.Boolean({ description: 'GTC/GTD only: refuse the order instead of letting it cross the book' })),
    },
    { additionalProperties: false },
  );
}

/** POST /orders: 1 to 15 entries (the size is checked by the service so the 400 names the limit). */
export function postOrdersBodySchema(opts: { compat: boolean }) {
  return Type.Array(postOrderBodySchema(opts), { description: '1 to 15 POST /order bodies' });
}

export const PlacementResultSchema = Type.Object({
  success: Type.Boolean(),
  error_msg: Type.String({ description: 'Empty when nothing to report' }),
  order_hashes: Type.Array(Type.String(), { description: 'Always empty' }),
  error_code: Type.Union([Type.String(), Type.Null()], { description: 'Placement error code (interface §7), also a warning on an accepted order' }),
  order_id: Type.Union([Type.String(), Type.Null()], { description: 'ULID of the stored order' }),
  status: StringEnum(['live', 'matched', 'delayed', 'unmatched'] as const, 'live: resting; matched: filled at least partly on entry; unmatched: nothing matched and nothing rests'),
});
export type PlacementResultJson = Static<typeof PlacementResultSchema>;

export const PlacementRejectionSchema = Type.Intersect([
  PlacementResultSchema,
  Type.Object({ error: Type.String({ description: 'Same as error_code' }), message: Type.String({ description: 'Same as error_msg' }) }),
]);

export const OrderRecordSchema = Type.Object({
  id: Type.String({ description: 'ULID' }),
  status: StringEnum(['open', 'partially_filled', 'filled', 'cancelled'] as const, 'Order status'),
  market: Type.String({ description: 'Condition id' }),
  outcome: Type.String({ description: '<conditionId>:<outcomeIndex>' }),
  assetId: Type.String({ description: 'Token id' }),
  makerAddress: Type.String({ description: 'Funding wallet (the order maker)' }),
  owner: Type.String({ description: 'Address of the API key owner' }),
  price: Type.String({ description: 'Limit price' }),
  side: SideSchema,
  originalSize: Type.String({ description: 'Shares' }),
  sizeMatched: Type.String({ description: 'Shares matched so far' }),
  expiration: Type.String({ description: 'Unix seconds as signed ("0" = none)' }),
  type: OrderTypeSchema,
  associateTrades: Type.Array(Type.String()),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});
export type OrderRecordJson = Static<typeof OrderRecordSchema>;

export const OrderIdParams = Type.Object({ id: OrderIdSchema });

export const LookupBodySchema = Type.Array(
  Type.Object({ orderId: Type.Optional(Type.String({ maxLength: 100, description: 'ULID, case-insensitive; blank → entry 400 order_id_cannot_be_empty' })) }),
  { description: '1 to 500 entries' },
);

export const LookupResponseSchema = Type.Array(
  Type.Object({
    order_id: Type.String(),
    status: Type.Integer({ description: '200, 400, 404 or 500' }),
    order: Type.Optional(OrderRecordSchema),
    error: Type.Optional(Type.String({ description: 'order_id_cannot_be_empty, order_not_found or internal_error' })),
    message: Type.Optional(Type.String({ description: 'The internal failure (status 500)' })),
  }),
);

export const CancelOrderBody = Type.Object(
  { orderID: Type.Optional(OrderIdSchema), orderId: Type.Optional(OrderIdSchema) },
  { additionalProperties: false, description: 'orderID (public TS/Python clients) or orderId (Rust client)' },
);
export const CancelOrdersBody = Type.Array(OrderIdSchema, { maxItems: 3000, description: 'Order ids; duplicates are ignored' });
export const CancelMarketBody = Type.Object(
  { market: Type.Optional(ConditionIdSchema), asset_id: Type.Optional(UintStringSchema('Token id')) },
  { additionalProperties: false, description: 'market, asset_id, or both' },
);
export const CancelResultSchema = Type.Object({
  canceled: Type.Array(Type.String()),
  not_canceled: Type.Record(Type.String(), Type.String(), { description: 'id → reason' }),
});
export type CancelResultJson = Static<typeof CancelResultSchema>;

export const OpenOrdersQuery = Type.Object({
  id: Type.Optional(OrderIdSchema),
  market: Type.Optional(ConditionIdSchema),
  asset_id: Type.Optional(UintStringSchema('Token id')),
  next_cursor: Type.Optional(Type.String({ maxLength: 40, description: 'base64 offset; "MA==" first' })),
});

export const QueueQuery = Type.Object({
  market: Type.Optional(ConditionIdSchema),
  asset_id: Type.Optional(UintStringSchema('Token id')),
});

export const QueueEntrySchema = Type.Object({
  order_id: Type.String({ description: 'ULID (0x order hash in the polymarket profile)' }),
  market: Type.String({ description: 'Condition id' }),
  asset_id: Type.String({ description: 'Token id' }),
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  price: Type.String({ description: 'The order\'s limit price, in its own outcome\'s terms' }),
  size_remaining: Type.String({ description: 'Shares still open on the order' }),
  ahead: Type.String({ description: 'Shares resting before it at this price (time priority): they trade first' }),
  level_size: Type.String({ description: 'Shares resting at this price in all, its own included (the size GET /book shows for this token and price)' }),
});
export type QueueEntryJson = Static<typeof QueueEntrySchema>;
export const QueueListSchema = Type.Array(QueueEntrySchema, { description: "The caller's resting orders, oldest first" });

export const TradesQuery = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 100 })),
  maker_address: Type.Optional(AddressSchema),
  market: Type.Optional(ConditionIdSchema),
  asset_id: Type.Optional(UintStringSchema('Token id')),
  before: Type.Optional(Type.Integer({ minimum: 0, description: 'Unix seconds, inclusive' })),
  after: Type.Optional(Type.Integer({ minimum: 0, description: 'Unix seconds, inclusive' })),
  next_cursor: Type.Optional(Type.String({ maxLength: 40 })),
});

export const pageOf = (item: TSchema, description: string) =>
  Type.Object({
    limit: Type.Integer(),
    count: Type.Integer(),
    next_cursor: Type.String({ description: 'base64 offset of the next page; "LTE=" after the last page' }),
    data: Type.Array(item, { description }),
  });

export const MakerOrderSchema = Type.Object({
  order_id: Type.String(),
  owner: Type.String(),
  maker_address: Type.String(),
  matched_amount: Type.String(),
  price: Type.String({ description: "Price on the maker's token" }),
  fee_rate_bps: Type.String(),
  asset_id: Type.String(),
  outcome: Type.String(),
  outcome_index: Type.Integer(),
  side: SideSchema,
});

export const TradeRecordSchema = Type.Object({
  id: Type.String(),
  taker_order_id: Type.String(),
  market: Type.String(),
  asset_id: Type.String({ description: "Taker's token" }),
  side: SideSchema,
  size: Type.String(),
  fee_rate_bps: Type.String(),
  fee: Type.Optional(
    Type.String({ description: "The reader's fee on this fill in collateral (decisions §10): the taker pays size × rate × (p × (1 − p))^exponent of the market's fee_schedule, rounded half-up to 5 decimals; 0 for the maker" }),
  ),
  rebate: Type.Optional(Type.String({ description: "The maker's rebate on this fill (fee_schedule.rebateRate × the fill's fee-equivalent), on the maker's row when paid" })),
  price: Type.String({ description: "Execution price on the taker's token" }),
  status: Type.String({ description: 'CONFIRMED (settled immediately)' }),
  match_time: Type.String({ description: 'Unix seconds' }),
  last_update: Type.String({ description: 'Unix seconds' }),
  outcome: Type.String({ description: "Outcome label of the taker's token" }),
  outcome_index: Type.Integer(),
  bucket_index: Type.Integer(),
  owner: Type.String({ description: "Taker's API key owner" }),
  maker_address: Type.String({ description: "Taker's funding wallet" }),
  transaction_hash: Type.String({ description: 'Synthetic settlement hash (0x + 64 hex), shared by the fills of one taker order' }),
  trader_side: StringEnum(['TAKER', 'MAKER'] as const, 'Which side the caller was on'),
  type: StringEnum(['NORMAL', 'MINT', 'MERGE'] as const, 'Settlement kind'),
  maker_orders: Type.Array(MakerOrderSchema),
});
export type TradeRecordJson = Static<typeof TradeRecordSchema>;

export const OpenOrdersPageSchema = pageOf(OrderRecordSchema, 'Resting orders, oldest first');
export const OrderHistoryEntrySchema = Type.Composite([
  OrderRecordSchema,
  Type.Object({ cancelReason: Type.Union([Type.String(), Type.Null()], { description: 'Why a cancelled order ended: "cancelled by owner", "expired", "market resolved", "FAK remainder cancelled"…; null otherwise' }) }),
]);
export type OrderHistoryEntryJson = Static<typeof OrderHistoryEntrySchema>;
export const OrderHistoryPageSchema = pageOf(OrderHistoryEntrySchema, 'Every order of the caller (open, filled, cancelled, expired), newest first');
export const OrderHistoryQuery = Type.Object({
  next_cursor: Type.Optional(Type.String({ maxLength: 40, description: 'base64 offset; "MA==" first' })),
});
export const TradesPageSchema = pageOf(TradeRecordSchema, 'Trades, newest first');

export const BalanceAllowanceQuery = Type.Object({
  asset_type: StringEnum(['COLLATERAL', 'CONDITIONAL'] as const, 'COLLATERAL or CONDITIONAL'),
  token_id: Type.Optional(Type.String({ description: 'Token id; required for CONDITIONAL' })),
  signature_type: Type.Optional(Type.Integer({ minimum: -1, maximum: 2, description: '0 = EOA (default), 1 = proxy wallet, 2 = Safe: whose balance' })),
});

export const BalanceAllowanceSchema = Type.Object({
  balance: Type.String({ description: '6-decimal integer string' }),
  allowance: Type.String({ description: 'Equal to balance (paper money)' }),
  reserved: Type.String({ description: 'Held by open orders; available = balance − reserved' }),
  allowances: Type.Record(Type.String(), Type.String(), { description: 'Per exchange contract (the Rust client reads this)' }),
});
export type BalanceAllowanceJson = Static<typeof BalanceAllowanceSchema>;

export const RedeemBody = Type.Object({ conditionId: ConditionIdSchema }, { additionalProperties: false });
export const RedeemResultSchema = Type.Object({
  conditionId: Type.String(),
  winningOutcomeIndex: Type.Integer(),
  payout: Type.String({ description: 'Collateral paid, decimal units' }),
  positions: Type.Array(
    Type.Object({ address: Type.String(), asset: Type.String(), outcomeIndex: Type.Integer(), size: Type.String(), payout: Type.String() }),
  ),
});
