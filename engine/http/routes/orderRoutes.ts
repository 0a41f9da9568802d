import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PostOrderBody } from '../../protocol/eip712.js';
import { ApiError } from '../../protocol/errors.js';
import {
  BalanceAllowanceQuery,
  BalanceAllowanceSchema,
  CancelMarketBody,
  CancelOrderBody,
  CancelOrdersBody,
  CancelResultSchema,
  LookupBodySchema,
  LookupResponseSchema,
  OpenOrdersPageSchema,
  OrderHistoryPageSchema,
  OrderHistoryQuery,
  OpenOrdersQuery,
  OrderIdParams,
  OrderRecordSchema,
  PlacementRejectionSchema,
  PlacementResultSchema,
  postOrderBodySchema,
  postOrdersBodySchema,
  QueueEntrySchema,
  QueueListSchema,
  QueueQuery,
  RedeemBody,
  RedeemResultSchema,
  TradesPageSchema,
  TradesQuery,
} from '../../protocol/schemas/orders.js';
import { PublicLookupResponseSchema, PublicOpenOrdersPageSchema, PublicOrderRecordSchema, PublicPlacementRejectionSchema, PublicPlacementSchema } from '../../protocol/schemas/publicOrders.js';
import type { EngineContext } from '../engineContext.js';
import type { OrderIdentity, PlacementResult } from '../../services/orders/orderService.js';
import { requireL2 } from '../l2Guard.js';
import { emptyBodyIsObject } from './emptyBodyIsObject.js';
import { emptyStringIsAbsent } from './emptyStringIsAbsent.js';

const TAG = ['orders'];
const SECURITY = [{ l2: [] }];

/** The caller set by the L2 guard. */
export function identityOf(req: FastifyRequest): OrderIdentity {
  const id: OrderIdentity | undefined = req.identity;
  if (!id) throw new ApiError('missing_auth_headers', 'This route needs L2 authentication headers (SERVICE_ADDRESS, SERVICE_SIGNATURE, SERVICE_TIMESTAMP, SERVICE_API_KEY, SERVICE_PASSPHRASE).');
  return id;
}

/**
 * POST /order's answer: 201 with the placement result (decisions §3), or 200 in the polymarket profile, whose
 * stock Python clients raise on any other success status (§6); 400 with it plus `error`/`message` when refused.
 */
export function placementReply(result: PlacementResult, compat: boolean): { status: 200 | 201 | 400; body: object } {
  if (result.success) return { status: compat ? 200 : 201, body: result };
  return { status: 400, body: { ...result, error: result.error_code, message: result.error_msg } };
}

/** The placement result in the profile's shape: with the public fields (orderID = order hash) in the polymarket profile. */
export function profilePlacement(ctx: EngineContext, result: PlacementResult): PlacementResult {
  return ctx.config.profile === 'polymarket' ? ctx.orders.publicPlacement(result) : result;
}

function sendPlacement(reply: FastifyReply, result: PlacementResult, compat: boolean): FastifyReply {
  const r = placementReply(result, compat);
  return reply.code(r.status).send(r.body);
}

/**
 * Order placement, cancels, lookups, balances and redemption (interface §4.2, decisions §3, §5).
 * Thin: schemas validate, the order service decides.
 */
export function orderRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const compat = ctx.config.profile === 'polymarket';
  // preValidation: an unauthenticated caller gets its 401 before any body validation.
  const guard = requireL2(ctx, { basePath: '' });
  const l2 = { preValidation: guard };

  app.post(
    '/order',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: compat ? 'Place a signed order (200 accepted; 400 with the placement result when refused)' : 'Place a signed order (201 accepted; 400 with the placement result when refused)',
        body: postOrderBodySchema({ compat }),
        response: compat ? { 200: PublicPlacementSchema, 400: PublicPlacementRejectionSchema } : { 201: PlacementResultSchema, 400: PlacementRejectionSchema },
      },
    },
    async (req, reply) => sendPlacement(reply, profilePlacement(ctx, await ctx.orders.place(identityOf(req), req.body as PostOrderBody)), compat),
  );

  app.post(
    '/orders',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: 'Place 1 to 15 signed orders; one placement result per entry, in order (200)',
        body: postOrdersBodySchema({ compat }),
        response: { 200: { type: 'array', items: compat ? PublicPlacementSchema : PlacementResultSchema } },
      },
    },
    async (req) => (await ctx.orders.placeBatch(identityOf(req), req.body as PostOrderBody[])).map((r) => profilePlacement(ctx, r)),
  );

  app.delete(
    '/order',
    {
      preValidation: [guard, emptyBodyIsObject],
      schema: { tags: TAG, security: SECURITY, summary: 'Cancel one order: {"orderID"} (or {"orderId"})', body: CancelOrderBody, response: { 200: CancelResultSchema } },
    },
    async (req) => {
      const b = req.body as { orderID?: string; orderId?: string };
      const id = b.orderID ?? b.orderId;
      if (id === undefined || id.trim() === '') {
        throw new ApiError('invalid_field', "Field 'orderID' is required: the id (order_id) of the order to cancel.", { details: { field: 'orderID', in: 'body', problem: 'is required' } });
      }
      return ctx.orders.cancel(identityOf(req), [id]);
    },
  );

  app.delete(
    '/orders',
    { ...l2, schema: { tags: TAG, security: SECURITY, summary: 'Cancel several orders: a JSON array of ids', body: CancelOrdersBody, response: { 200: CancelResultSchema } } },
    async (req) => {
      // A blank body reaches here unvalidated (fastify validates only a body that exists): it is not a list of ids.
      if (!Array.isArray(req.body)) {
        throw new ApiError('invalid_field', 'DELETE /orders takes a JSON array of order ids, e.g. ["0x…"]; the body was empty or not an array.', { details: { field: 'body', in: 'body', problem: 'must be a JSON array of order ids' } });
      }
      return ctx.orders.cancel(identityOf(req), req.body as string[]);
    },
  );

  app.delete(
    '/cancel-all',
    { ...l2, schema: { tags: TAG, security: SECURITY, summary: "Cancel all of the caller's resting orders", response: { 200: CancelResultSchema } } },
    async (req) => ctx.orders.cancelAll(identityOf(req)),
  );

  app.delete(
    '/cancel-market-orders',
    {
      preValidation: compat ? [guard, emptyBodyIsObject, emptyStringIsAbsent(CancelMarketBody)] : [guard, emptyBodyIsObject],
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: "Cancel the caller's resting orders of one market and/or token",
        body: CancelMarketBody,
        response: { 200: CancelResultSchema },
      },
    },
    async (req) => ctx.orders.cancelMarket(identityOf(req), req.body as { market?: string; asset_id?: string }),
  );

  app.get(
    '/data/order/:id',
    {
      schema: {
        tags: TAG,
        summary: 'One order record by ULID or 0x order hash (no authentication)',
        params: OrderIdParams,
        response: { 200: compat ? PublicOrderRecordSchema : OrderRecordSchema },
      },
    },
    async (req) => ctx.orders.record((req.params as { id: string }).id),
  );

  app.post(
    '/data/orders/lookup',
    {
      schema: {
        tags: TAG,
        summary: 'Look up 1 to 500 orders; always 207 with one entry per request entry',
        body: LookupBodySchema,
        response: { 207: compat ? PublicLookupResponseSchema : LookupResponseSchema },
      },
    },
    async (req, reply) => reply.code(207).send(ctx.orders.lookup(req.body as Array<{ orderId?: string }>)),
  );

  app.get(
    '/data/orders',
    { ...l2, schema: { tags: TAG, security: SECURITY, summary: "The caller's resting orders, paged by next_cursor", querystring: OpenOrdersQuery, response: { 200: compat ? PublicOpenOrdersPageSchema : OpenOrdersPageSchema } } },
    async (req) => ctx.orders.listOpen(identityOf(req), req.query as { id?: string; market?: string; asset_id?: string; next_cursor?: string }),
  );

  app.get(
    '/data/orders/history',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: "The caller's order history: every order (open, filled, cancelled, expired) newest first, with the cancel reason, paged by next_cursor",
        querystring: OrderHistoryQuery,
        response: { 200: OrderHistoryPageSchema },
      },
    },
    async (req) => ctx.orders.history(identityOf(req), req.query as { next_cursor?: string }),
  );

  app.get(
    '/data/orders/queue',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: "Queue position of each of the caller's resting orders: shares ahead at its price (time priority) and the level's total",
        querystring: QueueQuery,
        response: { 200: QueueListSchema },
      },
    },
    async (req) => ctx.orders.queuePositions(identityOf(req), req.query as { market?: string; asset_id?: string }),
  );

  app.get(
    '/data/order/:id/queue',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: "Queue position of one of the caller's resting orders (404 order_not_found if not theirs, 409 order_not_resting once off the book)",
        params: OrderIdParams,
        response: { 200: QueueEntrySchema },
      },
    },
    async (req) => ctx.orders.queuePosition(identityOf(req), (req.params as { id: string }).id),
  );

  app.get(
    '/data/trades',
    {
      ...l2,
      schema: { tags: TAG, security: SECURITY, summary: "The caller's trades (taker or maker), newest first, paged by next_cursor", querystring: TradesQuery, response: { 200: TradesPageSchema } },
    },
    async (req) => ctx.orders.listTrades(identityOf(req), req.query as Parameters<EngineContext['orders']['listTrades']>[1]),
  );

  const balanceHandler = async (req: FastifyRequest) => {
    const q = req.query as { asset_type: 'COLLATERAL' | 'CONDITIONAL'; token_id?: string; signature_type?: number };
    return ctx.orders.balanceAllowance(identityOf(req), q.asset_type, q.token_id === '' ? undefined : q.token_id, q.signature_type);
  };
  app.get(
    '/balance-allowance',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: 'Paper balance, allowance (= balance) and what open orders reserve, as 6-decimal integer strings',
        querystring: BalanceAllowanceQuery,
        response: { 200: BalanceAllowanceSchema },
      },
    },
    balanceHandler,
  );
  app.get(
    '/balance-allowance/update',
    {
      ...l2,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: 'Public-client compatibility: nothing to refresh (paper balances are always current); answers like GET /balance-allowance',
        querystring: BalanceAllowanceQuery,
        response: { 200: BalanceAllowanceSchema },
      },
    },
    balanceHandler,
  );

  app.post(
    '/redeem',
    {
      ...l2,
      schema: { tags: TAG, security: SECURITY, summary: "Redeem the caller's positions in a resolved market for collateral", body: RedeemBody, response: { 200: RedeemResultSchema } },
    },
    async (req) => ctx.orders.redeem(identityOf(req), (req.body as { conditionId: string }).conditionId),
  );
}
