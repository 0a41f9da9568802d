import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  BookSnapshotSchema,
  BooksBody,
  ConditionParams,
  ConfigResponse,
  FeeRateQuery,
  LastTradeResponse,
  LastTradesResponse,
  MarketsQuery,
  MidpointResponse,
  PerTokenResponse,
  PriceQuery,
  PriceResponse,
  PricesBody,
  PricesHistoryQuery,
  PricesHistoryResponse,
  PricesResponse,
  SpreadResponse,
  TokenQuery,
  TokensBody,
  TradesQuery,
} from '../../protocol/schemas/marketData.js';
import { MarketsPageSchema, PublicMarketSchema } from '../../protocol/schemas/markets.js';
import { formatUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import { publicRpcUrl } from './rpcProxyRoutes.js';
import type { EngineContext } from '../engineContext.js';
import type { Side } from '../../services/markets/marketDataService.js';

const TAG = ['market data'];

function side(value: unknown, field: string): Side {
  const s = typeof value === 'string' ? value.toUpperCase() : '';
  if (s !== 'BUY' && s !== 'SELL') {
    throw new ApiError('invalid_query', `'${field}' must be BUY (best bid) or SELL (best ask); got ${JSON.stringify(value)}.`, { details: { field } });
  }
  return s;
}

/** Sends JSON the service already serialised (the book's bytes are what its hash covers). */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Public market data (interface §4.3, decisions §3 "Market data not shown", trading-api.md §9.2). */
export function marketDataRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const data = ctx.marketData;

  app.get('/', { schema: { tags: TAG, summary: 'Health check: the JSON string "OK"' } }, async (_req, reply) => sendJson(reply, '"OK"'));

  app.get('/time', { schema: { tags: TAG, summary: 'Server time as a bare integer of unix seconds' } }, async () => Math.floor((ctx.wallClock ?? ctx.clock).nowMs() / 1000)); // wall time: stock clients sign with it (decisions §11)

  app.get('/book', { schema: { tags: TAG, summary: 'Order book snapshot of one token', querystring: TokenQuery, response: { 200: BookSnapshotSchema } } }, async (req, reply) => {
    const q = req.query as { token_id: string };
    return sendJson(reply, data.bookJson(q.token_id));
  });

  app.post('/books', { schema: { tags: TAG, summary: 'Snapshots of several tokens, one per entry', body: BooksBody, response: { 200: { type: 'array', items: BookSnapshotSchema } } } }, async (req, reply) => {
    return sendJson(reply, data.booksJson(req.body as Array<{ token_id: string }>));
  });

  app.get('/price', { schema: { tags: TAG, summary: 'BUY → best bid, SELL → best ask', querystring: PriceQuery, response: { 200: PriceResponse } } }, async (req) => {
    const q = req.query as { token_id: string; side: string };
    return { price: data.price(q.token_id, side(q.side, 'side')) };
  });

  app.post('/prices', { schema: { tags: TAG, summary: 'Best prices of several tokens', body: PricesBody, response: { 200: PricesResponse } } }, async (req) => {
    const body = req.body as Array<{ token_id: string; side: string }>;
    return data.prices(body.map((e, i) => ({ token_id: e.token_id, side: side(e.side, `[${i}].side`) })));
  });

  app.get('/midpoint', { schema: { tags: TAG, summary: 'Midpoint of best bid and best ask', querystring: TokenQuery, response: { 200: MidpointResponse } } }, async (req) => {
    return { mid: data.requireMidpoint((req.query as { token_id: string }).token_id) };
  });

  app.post('/midpoints', { schema: { tags: TAG, summary: 'Midpoints keyed by token id', body: TokensBody, response: { 200: PerTokenResponse } } }, async (req) => {
    return data.perToken(req.body as Array<{ token_id: string }>, 'midpoint');
  });

  app.get('/spread', { schema: { tags: TAG, summary: 'Best ask minus best bid', querystring: TokenQuery, response: { 200: SpreadResponse } } }, async (req) => {
    return { spread: data.requireSpread((req.query as { token_id: string }).token_id) };
  });

  app.post('/spreads', { schema: { tags: TAG, summary: 'Spreads keyed by token id', body: TokensBody, response: { 200: PerTokenResponse } } }, async (req) => {
    return data.perToken(req.body as Array<{ token_id: string }>, 'spread');
  });

  app.get('/last-trade-price', { schema: { tags: TAG, summary: 'Last trade price and taker side', querystring: TokenQuery, response: { 200: LastTradeResponse } } }, async (req) => {
    return data.lastTrade((req.query as { token_id: string }).token_id);
  });

  app.post('/last-trades-prices', { schema: { tags: TAG, summary: 'Last trade of several tokens', body: TokensBody, response: { 200: LastTradesResponse } } }, async (req) => {
    return (req.body as Array<{ token_id: string }>).map((e, i) => ({ token_id: e.token_id, ...data.lastTrade(e.token_id, `[${i}].token_id`) }));
  });

  app.get('/prices-history', { schema: { tags: TAG, summary: 'Price history of a token (market=<token id>)', querystring: PricesHistoryQuery, response: { 200: PricesHistoryResponse } } }, async (req) => {
    return data.pricesHistory(req.query as Record<string, string | undefined>);
  });

  app.get('/trades', { schema: { tags: TAG, summary: 'Public trade tape, newest first, cursor-paged', querystring: TradesQuery } }, async (req) => {
    return data.trades(req.query as Record<string, string | undefined>);
  });

  app.get('/markets', { schema: { tags: TAG, summary: 'Markets, cursor-paged', querystring: MarketsQuery, response: { 200: MarketsPageSchema } } }, async (req) => {
    return data.marketsPage((req.query as { next_cursor?: string }).next_cursor);
  });

  app.get('/markets/:condition_id', { schema: { tags: TAG, summary: 'One market', params: ConditionParams, response: { 200: PublicMarketSchema } } }, async (req) => {
    return data.publicMarket(data.market((req.params as { condition_id: string }).condition_id));
  });

  app.get('/tick-size', { schema: { tags: TAG, summary: 'Minimum tick size of the token’s market', querystring: TokenQuery } }, async (req) => {
    const { market } = data.token((req.query as { token_id: string }).token_id);
    // A number whose toString() is the clients' ROUNDING_CONFIG key, parsed from the exact decimal.
    return { minimum_tick_size: Number(formatUnits(market.tickSize)) };
  });

  app.get('/neg-risk', { schema: { tags: TAG, summary: 'Whether the token’s market is neg-risk', querystring: TokenQuery } }, async (req) => {
    return { neg_risk: data.token((req.query as { token_id: string }).token_id).market.negRisk };
  });

  app.get('/fee-rate', { schema: { tags: TAG, summary: 'Base fee of the token’s market in bps (what a signed V1 order’s feeRateBps must be at least; fills pay the market’s fee_schedule)', querystring: FeeRateQuery } }, async (req) => {
    const q = req.query as { token_id?: string };
    // The base fee of the token's market (decisions §10: n for a schedule built from n bps, else rate × 10000); without a token, the fee-free default.
    if (q.token_id !== undefined && q.token_id !== '') return { base_fee: data.token(q.token_id).market.feeRateBps };
    return { base_fee: 0 };
  });

  app.get('/config', { schema: { tags: TAG, summary: 'Chain id, RPC URL and contract addresses for signing', response: { 200: ConfigResponse } } }, async (req) => {
    const c = ctx.chain.contracts;
    return {
      chainId: ctx.chain.chainId,
      exchangeTime: ctx.clock.nowMs(),
      // The engine's allowlisted proxy, never the node itself (whose cheat methods set any balance).
      rpcUrl: ctx.chain.enabled && ctx.chain.rpcUrl ? publicRpcUrl(req.protocol, req.headers.host) : null,
      ws: `ws://${req.headers.host ?? `${ctx.config.host}:${ctx.config.port}`}/ws`,
      contracts: {
        exchange: c.exchange,
        negRiskExchange: c.negRiskExchange,
        exchangeV2: c.exchangeV2,
        negRiskExchangeV2: c.negRiskExchangeV2,
        collateral: c.collateral,
        conditionalTokens: c.conditionalTokens,
        safeFactory: c.safeFactory,
        safeSingleton: c.safeSingleton,
        multiSend: c.multiSend,
        proxyFactory: c.proxyFactory,
        relayHub: c.relayHub,
      },
    };
  });
}
