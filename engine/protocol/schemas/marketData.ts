/**
 * Request and response shapes of the public market-data routes (interface §4.3, decisions §3,
 * trading-api.md §9.2). Query values are declared as strings and checked by the service, so a bad value
 * gets a 400 that names the parameter and says what is expected.
 */
import { Type } from '@sinclair/typebox';

const TokenId = Type.String({ description: 'Token id (decimal uint256) from GET /markets tokens[].token_id' });
const Decimal = (description: string) => Type.String({ description });

export const TokenQuery = Type.Object({ token_id: TokenId });
/** /fee-rate takes token_id (the public clients send it) but the fee does not depend on it. */
export const FeeRateQuery = Type.Object({ token_id: Type.Optional(TokenId) });

export const PriceQuery = Type.Object({
  token_id: TokenId,
  side: Type.String({ description: 'BUY → best bid, SELL → best ask' }),
});

export const BooksBody = Type.Array(Type.Object({ token_id: TokenId, side: Type.Optional(Type.Union([Type.Literal('BUY'), Type.Literal('SELL')], { description: 'BUY or SELL (ignored: a snapshot has both sides)' })) }), {
  minItems: 1,
  maxItems: 500,
});
export const PricesBody = Type.Array(Type.Object({ token_id: TokenId, side: Type.String({ description: 'BUY or SELL' }) }), { minItems: 1, maxItems: 500 });
export const TokensBody = Type.Array(Type.Object({ token_id: TokenId }), { minItems: 1, maxItems: 500 });

const Level = Type.Object({ price: Decimal('Price'), size: Decimal('Remaining shares at this price') });

export const BookSnapshotSchema = Type.Object(
  {
    market: Type.String({ description: 'Condition id' }),
    asset_id: TokenId,
    timestamp: Type.String({ description: 'Unix milliseconds' }),
    hash: Type.String({ description: 'SHA-1 hex of this JSON (in this key order) with "hash":""' }),
    bids: Type.Array(Level, { description: 'Ascending: best bid LAST' }),
    asks: Type.Array(Level, { description: 'Descending: best ask LAST' }),
    min_order_size: Decimal('Minimum order size in shares'),
    tick_size: Decimal('Price increment'),
    neg_risk: Type.Boolean(),
    last_trade_price: Decimal('"0.5" before the first trade'),
  },
  { description: 'Order book snapshot; key order is part of the protocol' },
);

export const PriceResponse = Type.Object({ price: Decimal('Best bid (BUY) or best ask (SELL)') });
export const PricesResponse = Type.Record(Type.String(), Type.Object({ BUY: Type.Optional(Type.String()), SELL: Type.Optional(Type.String()) }), {
  description: 'Keyed by token id; a side with no resting orders is left out',
});
export const MidpointResponse = Type.Object({ mid: Decimal('(best bid + best ask) / 2') });
export const SpreadResponse = Type.Object({ spread: Decimal('best ask − best bid') });
export const PerTokenResponse = Type.Record(Type.String(), Type.String(), { description: 'Keyed by token id; tokens whose book lacks a side are left out' });
export const LastTradeResponse = Type.Object({ price: Decimal('Last trade price, "0.5" before any trade'), side: Type.String({ description: 'BUY, SELL or "" before any trade' }) });
export const LastTradesResponse = Type.Array(Type.Object({ token_id: TokenId, price: Type.String(), side: Type.String() }));

export const PricesHistoryQuery = Type.Object({
  market: Type.Optional(Type.String({ description: 'Token id (yes, the parameter is named market)' })),
  interval: Type.Optional(Type.String({ description: 'max, all, 1m (month), 1w, 1d, 6h, 1h; default max' })),
  startTs: Type.Optional(Type.String({ description: 'Unix seconds' })),
  endTs: Type.Optional(Type.String({ description: 'Unix seconds; default now' })),
  fidelity: Type.Optional(Type.String({ description: 'Bucket width in minutes; default 1' })),
});
export const PricesHistoryResponse = Type.Object({
  history: Type.Array(
    Type.Object({
      t: Type.Integer({ description: 'Bucket start, unix seconds' }),
      p: Type.Number({ description: 'Last trade price of the bucket (the field stock clients read)' }),
      o: Type.Number({ description: 'Open: first trade price of the bucket' }),
      h: Type.Number({ description: 'High trade price' }),
      l: Type.Number({ description: 'Low trade price' }),
      c: Type.Number({ description: 'Close: last trade price (= p)' }),
      v: Type.Number({ description: 'Volume: shares traded in the bucket' }),
      m: Type.Optional(Type.Number({ description: "The book's midpoint at the bucket's close; absent when the book was one-sided or no quote was recorded since the engine started" })),
    }),
  ),
});

export const TradesQuery = Type.Object({
  market: Type.Optional(Type.String({ description: 'Condition id' })),
  asset_id: Type.Optional(TokenId),
  token_id: Type.Optional(TokenId),
  limit: Type.Optional(Type.String({ description: '1..500, default 100' })),
  next_cursor: Type.Optional(Type.String({ description: 'Cursor of the previous page; "MA==" for the first' })),
});

export const MarketsQuery = Type.Object({ next_cursor: Type.Optional(Type.String({ description: 'Cursor of the previous page; "MA==" (or "") for the first' })) });
export const ConditionParams = Type.Object({ condition_id: Type.String({ description: '0x + 64 hex' }) });

export const ConfigResponse = Type.Object({
  chainId: Type.Integer(),
  exchangeTime: Type.Integer({ description: 'Exchange time, unix ms (decisions §11): the simulated time in fast and stepped runs, wall time otherwise' }),
  rpcUrl: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Local chain JSON-RPC URL, null without a chain' }),
  ws: Type.String({ description: 'Base URL of the streams: <ws>/market, <ws>/user and <ws>/live-data (docs/api-streams.md)' }),
  contracts: Type.Object({
    exchange: Type.String({ description: 'verifyingContract of V1 orders (domain version "1"), plain markets' }),
    negRiskExchange: Type.String({ description: 'verifyingContract of V1 orders, neg-risk markets' }),
    exchangeV2: Type.String({ description: 'verifyingContract of V2 orders (domain version "2"), plain markets' }),
    negRiskExchangeV2: Type.String({ description: 'verifyingContract of V2 orders, neg-risk markets' }),
    collateral: Type.String(),
    conditionalTokens: Type.String(),
    safeFactory: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    safeSingleton: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    multiSend: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    proxyFactory: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    relayHub: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
  }),
});
