import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import {
  ClobMarketInfoSchema,
  ConditionIdParams,
  CursorQuery,
  DropNotificationsQuery,
  HeartbeatBody,
  HeartbeatRejection,
  HeartbeatResponse,
  MarketByTokenResponse,
  NotificationsQuery,
  NotificationsResponse,
  OrderScoringQuery,
  OrderScoringResponse,
  OrdersScoringBody,
  OrdersScoringResponse,
  SamplingMarketsPageSchema,
  SamplingSimplifiedMarketsPageSchema,
  SimplifiedMarketsPageSchema,
  TokenIdParams,
  VersionResponse,
} from '../../protocol/schemas/compat.js';
import { isUlid, normalizeUlid } from '../../protocol/ulid.js';
import type { Identity } from '../../services/auth/authService.js';
import type { EngineContext } from '../engineContext.js';
import { requireL2 } from '../l2Guard.js';
import { emptyBodyIsObject } from './emptyBodyIsObject.js';

const MARKET_TAG = ['market data'];
const ACCOUNT_TAG = ['orders'];
const SECURITY = [{ l2: [] }];
const MAX_NOTIFICATION_IDS = 100;
const NOTIFICATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

function identityOf(req: FastifyRequest): Identity {
  const id: Identity | undefined = req.identity;
  if (!id) throw new ApiError('missing_auth_headers', 'This route needs L2 authentication headers (SERVICE_ADDRESS, SERVICE_SIGNATURE, SERVICE_TIMESTAMP, SERVICE_API_KEY, SERVICE_PASSPHRASE).');
  return id;
}

/** An order id as the client sent it, checked to be a ULID; `where` names it in the 400. */
function orderIdOf(raw: string, field: string, code: 'invalid_query' | 'invalid_field'): string {
  if (/^0x[0-9a-fA-F]{64}$/.test(raw)) return raw; // an order hash (decisions §6)
  const id = normalizeUlid(raw);
  if (!isUlid(id)) {
    throw new ApiError(code, `'${field}' must be an order id (a 26-character ULID, as returned in order_id by POST /order, or the 0x order hash); got ${JSON.stringify(raw.slice(0, 100))}.`, {
      details: { field },
    });
  }
  return id;
}

/**
 * Routes the public clients call beyond the contract (trading-api.md §9.2, §9.3, §12): the v2 client's
 * health, version and compact market reads, the simplified and sampling market listings,
 * notifications, order scoring and the heartbeat switch. Choices are written down in docs/api.md and
 * docs/api-orders.md.
 */
export function compatRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const listings = ctx.listings;
  const guard = requireL2(ctx, { basePath: '' });
  const l2 = { preValidation: guard };

  // ── public ──────────────────────────────────────────────────────────────────────────────────────

  app.get('/ok', { schema: { tags: MARKET_TAG, summary: 'Health check of clob-client-v2: the JSON string "OK" (as GET /)' } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send('"OK"'),
  );

  // What clob-client-v2 signs (`version ?? 2`): config.orderVersion (--order-version). Both protocols are
  // verified whatever it says, so a client that cached the other version still trades.
  app.get(
    '/version',
    { schema: { tags: MARKET_TAG, summary: 'Order protocol the exchange asks clob-client-v2 to sign: 1 or 2 (--order-version); V1 and V2 orders are both accepted', response: { 200: VersionResponse } } },
    async () => ({ version: ctx.config.orderVersion }),
  );

  app.get(
    '/markets-by-token/:token_id',
    { schema: { tags: MARKET_TAG, summary: 'Condition id of the market that trades a token', params: TokenIdParams, response: { 200: MarketByTokenResponse } } },
    async (req) => listings.conditionOfToken((req.params as { token_id: string }).token_id),
  );

  app.get(
    '/clob-markets/:condition_id',
    { schema: { tags: MARKET_TAG, summary: 'Compact market info (tokens, tick, min size, neg risk, fees)', params: ConditionIdParams, response: { 200: ClobMarketInfoSchema } } },
    async (req) => listings.clobMarket((req.params as { condition_id: string }).condition_id),
  );

  app.get(
    '/simplified-markets',
    { schema: { tags: MARKET_TAG, summary: 'Simplified market records, cursor-paged like GET /markets', querystring: CursorQuery, response: { 200: SimplifiedMarketsPageSchema } } },
    async (req) => listings.simplifiedPage((req.query as { next_cursor?: string }).next_cursor),
  );

  app.get(
    '/sampling-markets',
    { schema: { tags: MARKET_TAG, summary: 'Markets that accept orders now (no rewards program here), cursor-paged', querystring: CursorQuery, response: { 200: SamplingMarketsPageSchema } } },
    async (req) => listings.samplingPage((req.query as { next_cursor?: string }).next_cursor),
  );

  app.get(
    '/sampling-simplified-markets',
    {
      schema: {
        tags: MARKET_TAG,
        summary: 'Markets that accept orders now, simplified records, cursor-paged',
        querystring: CursorQuery,
        response: { 200: SamplingSimplifiedMarketsPageSchema },
      },
    },
    async (req) => listings.samplingSimplifiedPage((req.query as { next_cursor?: string }).next_cursor),
  );

  // ── L2 ──────────────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/notifications',
    { ...l2, schema: { tags: ACCOUNT_TAG, security: SECURITY, summary: "The caller's notifications: always [] (this exchange sends none)", querystring: NotificationsQuery, response: { 200: NotificationsResponse } } },
    async (req) => {
      identityOf(req);
      return [];
    },
  );

  app.delete(
    '/notifications',
    {
      ...l2,
      schema: {
        tags: ACCOUNT_TAG,
        security: SECURITY,
        summary: 'Drop notifications by id (?ids=a,b): answers [] as the public service does; there are none to drop here',
        querystring: DropNotificationsQuery,
        response: { 200: NotificationsResponse },
      },
    },
    async (req) => {
      identityOf(req);
      const raw = (req.query as { ids: string }).ids;
      const ids = raw.split(',').map((s) => s.trim());
      if (raw.trim() === '' || ids.length > MAX_NOTIFICATION_IDS) {
        throw new ApiError('invalid_query', `Query parameter 'ids' must list 1 to ${MAX_NOTIFICATION_IDS} notification ids separated by commas (ids=a,b); got ${ids.length === 1 ? 'none' : ids.length}.`, {
          details: { field: 'ids' },
        });
      }
      const bad = ids.find((id) => !NOTIFICATION_ID.test(id));
      if (bad !== undefined) {
        throw new ApiError('invalid_query', `Query parameter 'ids' holds ${JSON.stringify(bad.slice(0, 100))}, which is not a notification id (1 to 128 letters, digits, '-' or '_'); separate ids with commas.`, {
          details: { field: 'ids' },
        });
      }
      return [];
    },
  );

  app.get(
    '/order-scoring',
    {
      ...l2,
      schema: { tags: ACCOUNT_TAG, security: SECURITY, summary: 'Whether an order scores for liquidity rewards: always false here', querystring: OrderScoringQuery, response: { 200: OrderScoringResponse } },
    },
    async (req) => {
      identityOf(req);
      const id = orderIdOf((req.query as { order_id: string }).order_id, 'order_id', 'invalid_query');
      ctx.orders.get(id); // 404 order_not_found for an id no order has
      return { scoring: false };
    },
  );

  app.post(
    '/orders-scoring',
    {
      ...l2,
      schema: { tags: ACCOUNT_TAG, security: SECURITY, summary: 'Scoring of several orders: {"<id>": false} per id', body: OrdersScoringBody, response: { 200: OrdersScoringResponse } },
    },
    async (req) => {
      identityOf(req);
      const sent = req.body as string[];
      const out: Record<string, boolean> = {};
      const unknown: string[] = [];
      sent.forEach((raw, i) => {
        const id = orderIdOf(raw, `[${i}]`, 'invalid_field');
        try {
          ctx.orders.get(id);
        } catch (e) {
          if (e instanceof ApiError && e.code === 'order_not_found') unknown.push(raw);
          else throw e;
        }
        out[raw] = false;
      });
      if (unknown.length > 0) {
        throw new ApiError('order_not_found', `No order has id ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ` (and ${unknown.length - 10} more)` : ''}. Order ids are the ULIDs returned as order_id by POST /order.`, {
          details: { unknown },
        });
      }
      return out;
    },
  );

  app.post(
    '/v1/heartbeats',
    {
      preValidation: [guard, emptyBodyIsObject],
      schema: {
        tags: ACCOUNT_TAG,
        security: SECURITY,
        summary: "Heartbeat (dead man's switch): without one within 10 s, all of the key owner's resting orders are cancelled",
        body: HeartbeatBody,
        response: { 200: HeartbeatResponse, 400: HeartbeatRejection },
      },
    },
    async (req) => ctx.heartbeats.beat(identityOf(req), (req.body as { heartbeat_id?: string | null }).heartbeat_id),
  );
}
