/**
 * Response shapes of the order routes in the polymarket profile (decisions §6): the public open-order
 * record and the public placement answer, as the stock clients' `OpenOrder` / `OrderResponse` read them.
 */
import { Type } from '@sinclair/typebox';
import { OrderTypeSchema, pageOf, PlacementResultSchema, SideSchema } from './orders.js';

export const PublicOrderRecordSchema = Type.Object({
  id: Type.String({ description: "The order's 0x EIP-712 hash (its ULID is accepted as an id too)" }),
  status: Type.Unsafe<'LIVE' | 'MATCHED' | 'CANCELED'>({ type: 'string', enum: ['LIVE', 'MATCHED', 'CANCELED'], description: 'LIVE while resting, MATCHED when filled, CANCELED' }),
  owner: Type.String({ description: 'Address of the API key owner' }),
  maker_address: Type.String({ description: 'Funding wallet (the order maker)' }),
  market: Type.String({ description: 'Condition id' }),
  asset_id: Type.String({ description: 'Token id' }),
  side: SideSchema,
  original_size: Type.String({ description: 'Shares' }),
  size_matched: Type.String({ description: 'Shares matched so far' }),
  price: Type.String({ description: 'Limit price' }),
  outcome: Type.String({ description: 'Outcome label, e.g. "Yes"' }),
  expiration: Type.String({ description: 'Unix seconds as signed ("0" = none)' }),
  order_type: OrderTypeSchema,
  associate_trades: Type.Array(Type.String()),
  created_at: Type.Integer({ description: 'Unix seconds' }),
});

export const PublicPlacementSchema = Type.Intersect([
  PlacementResultSchema,
  Type.Object({
    errorMsg: Type.String({ description: 'Same as error_msg' }),
    orderID: Type.String({ description: "The order's 0x EIP-712 hash; empty when refused" }),
    makingAmount: Type.String({ description: 'What the order gave in the trades matched at placement (decimal); empty when none' }),
    takingAmount: Type.String({ description: 'What the order got in those trades (decimal); empty when none' }),
    transactionsHashes: Type.Array(Type.String()),
    tradeIDs: Type.Array(Type.String()),
  }),
]);

export const PublicPlacementRejectionSchema = Type.Intersect([
  PublicPlacementSchema,
  Type.Object({ error: Type.String({ description: 'Same as error_code' }), message: Type.String({ description: 'Same as error_msg' }) }),
]);

export const PublicOpenOrdersPageSchema = pageOf(PublicOrderRecordSchema, 'Resting orders, oldest first');

export const PublicLookupResponseSchema = Type.Array(
  Type.Object({
    order_id: Type.String(),
    status: Type.Integer({ description: '200, 400, 404 or 500' }),
    order: Type.Optional(PublicOrderRecordSchema),
    error: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
  }),
);
