import { formatUnits } from '../../protocol/amounts.js';
import { renderBookSnapshot, type LevelsText } from '../../protocol/bookHash.js';
import { ApiError } from '../../protocol/errors.js';
import { fromBookPrice, type Level } from '../../book/types.js';
import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';
import { formatMicros } from './formatMicros.js';
import { candles, type Candle } from './candles.js';
import type { MidHistory } from './midHistory.js';
import type { Market, MarketService } from './marketService.js';
import { publicMarket, type PublicMarket } from './publicMarket.js';
import type { MirrorStatus } from '../mirror/mirrorTypes.js';

export type Side = 'BUY' | 'SELL';

/** A cursor page (trading-api.md §9.1): next_cursor is base64 of the next offset, "LTE=" after the last page. */
export interface Page<T> {
  limit: number;
  count: number;
  next_cursor: string;
  data: T[];
}

export const END_CURSOR = 'LTE=';
export const MARKETS_PAGE_SIZE = 1000;
/** The last trade price a token without trades reports (the public service's convention). */
const NO_TRADE_PRICE = '0.5';

const INTERVAL_SECONDS: Record<string, number | null> = {
  max: null,
  all: null,
  '1m': 30 * 86_400,
  '1w': 7 * 86_400,
  '1d': 86_400,
  '6h': 6 * 3_600,
  '1h': 3_600,
};

export function encodeCursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64');
}

/** Decodes a page cursor to an offset; "" and "MA==" are the start, "LTE=" the end (-1). */
export function decodeCursor(cursor: string | undefined, param = 'next_cursor'): number {
  if (cursor === undefined || cursor === '') return 0;
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (text === '-1') return -1;
  if (!/^\d{1,15}$/.test(text) || encodeCursor(Number(text)) !== cursor) {
    throw new ApiError('invalid_query', `Query parameter '${param}' must be a cursor returned by a previous page ("MA==" for the first page); got ${JSON.stringify(cursor)}.`, {
      details: { field: param },
    });
  }
  return Number(text);
}

/** What the market data reads use: markets and the order service's books, last trades and tape (wired by the composition root). */
export type MarketDataDeps = Pick<Infra, 'clock'> & {
  readonly markets: Pick<MarketService, 'byToken' | 'byCondition' | 'list' | 'isSystemPaused'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade' | 'priceSeries' | 'tradeTape'>;
  /** Each market's closing quote per minute (the streams record it after every book change). */
  readonly mids: MidHistory;
  /** The mirror status of a market's record (decisions §10): null for a local market. */
  readonly mirrors?: { recordStatus(m: Market): MirrorStatus | null };
};

/**
 * The public market-data reads (interface §4.3, decisions §3, trading-api.md §9.2): book snapshots,
 * prices, midpoints, spreads, last trades, price history, the trade tape and the market listing.
 * A binary market has one book in outcome-0 terms; outcome 1 sees it mirrored (price → 1 − price,
 * bids ↔ asks).
 */
export class MarketDataService {
  /**
   * The wire text of each book side as last rendered, with the levels it was rendered from. A side
   * whose levels are unchanged (compared value by value: the book has no version counter) reuses its
   * text and bytes, so a snapshot of a quiet deep book costs one level read and one hash.
   */
  private readonly sideCache = new Map<string, { levels: Float64Array; text: LevelsText }>();

  constructor(private readonly ctx: MarketDataDeps) {}

  token(tokenId: string, param = 'token_id'): { market: Market; outcomeIndex: 0 | 1 } {
    if (typeof tokenId !== 'string' || !/^\d{1,78}$/.test(tokenId)) {
      throw new ApiError('invalid_query', `'${param}' must be a decimal token id (uint256), as listed in GET /markets tokens[].token_id; got ${JSON.stringify(tokenId)}.`, {
        details: { field: param },
      });
    }
    // Leading zeros do not change a uint256: "0123" is token 123.
    const t = this.ctx.markets.byToken(tokenId.replace(/^0+(?=\d)/, ''));
    if (!t) {
      throw new ApiError('token_not_found', `No orderbook exists for the requested token id ${tokenId}. List markets and their token ids with GET /markets.`, {
        details: { field: param, token_id: tokenId },
      });
    }
    return t;
  }

  market(conditionId: string): Market {
    const m = this.ctx.markets.byCondition(conditionId);
    if (!m) throw new ApiError('market_not_found', `market not found: no market has condition id ${conditionId}. List markets with GET /markets.`);
    return m;
  }

  /** Best-first levels of the token's bid or ask side, in the token's own price terms. */
  private tokenLevels(market: Market, outcomeIndex: 0 | 1, side: 'bid' | 'ask', depth?: number): Level[] {
    const book = this.ctx.orders.book(market.conditionId);
    if (!book) return [];
    const bookSide = outcomeIndex === 0 ? side : side === 'bid' ? 'ask' : 'bid';
    const levels = book.levels(bookSide, depth);
    if (outcomeIndex === 0) return levels;
    return levels.map((l) => ({ price: fromBookPrice(1, l.price), size: l.size }));
  }

  private best(market: Market, outcomeIndex: 0 | 1, side: 'bid' | 'ask'): number | undefined {
    const book = this.ctx.orders.book(market.conditionId);
    if (!book) return undefined;
    const bookSide = outcomeIndex === 0 ? side : side === 'bid' ? 'ask' : 'bid';
    const p = bookSide === 'bid' ? book.bestBid() : book.bestAsk();
    return p === undefined ? undefined : fromBookPrice(outcomeIndex, p);
  }

  /** The snapshot's wire JSON, hash included (the key order is part of the protocol). */
  bookJson(tokenId: string, param = 'token_id'): string {
    const { market, outcomeIndex } = this.token(tokenId, param);
    return renderBookSnapshot({
      market: market.conditionId,
      asset_id: market.tokenIds[outcomeIndex],
      timestamp: String(this.ctx.clock.nowMs()),
      bids: this.sideText(market, outcomeIndex, 'bid'),
      asks: this.sideText(market, outcomeIndex, 'ask'),
      min_order_size: formatUnits(market.minOrderSize),
      tick_size: formatUnits(market.tickSize),
      neg_risk: market.negRisk,
      last_trade_price: this.lastTrade(tokenId).price,
    }).json;
  }

  /** One side of a token's book as wire text: best-first from the book, best LAST on the wire. */
  private sideText(market: Market, outcomeIndex: 0 | 1, side: 'bid' | 'ask'): LevelsText {
    const levels = this.tokenLevels(market, outcomeIndex, side);
    const key = market.conditionId + ':' + outcomeIndex + side;
    const cached = this.sideCache.get(key);
    if (cached && sameLevels(cached.levels, levels)) return cached.text;
    const text = wireLevels(levels);
    // A copy: the book may hand out arrays it later changes in place.
    const copy = new Float64Array(levels.length * 2);
    levels.forEach((l, i) => ((copy[2 * i] = l.price), (copy[2 * i + 1] = l.size)));
    this.sideCache.set(key, { levels: copy, text });
    return text;
  }

  booksJson(entries: ReadonlyArray<{ token_id: string }>): string {
    const parts = entries.map((e, i) => this.bookJson(e.token_id, `[${i}].token_id`));
    return '[' + parts.join(',') + ']';
  }

  /** BUY → the best bid (what a seller gets), SELL → the best ask (what a buyer pays). */
  price(tokenId: string, side: Side): string {
    const { market, outcomeIndex } = this.token(tokenId);
    const p = this.best(market, outcomeIndex, side === 'BUY' ? 'bid' : 'ask');
    if (p === undefined) {
      throw new ApiError(
        'no_liquidity',
        `No ${side === 'BUY' ? 'bids' : 'asks'} rest on the book of token ${tokenId}, so it has no ${side} price. See GET /book?token_id=${tokenId}.`,
      );
    }
    return formatMicros(p);
  }

  /** Batch prices: sides without liquidity are left out of the token's entry. */
  prices(entries: ReadonlyArray<{ token_id: string; side: Side }>): Record<string, Partial<Record<Side, string>>> {
    const out: Record<string, Partial<Record<Side, string>>> = {};
    entries.forEach((e, i) => {
      const { market, outcomeIndex } = this.token(e.token_id, `[${i}].token_id`);
      const p = this.best(market, outcomeIndex, e.side === 'BUY' ? 'bid' : 'ask');
      const entry = (out[e.token_id] ??= {});
      if (p !== undefined) entry[e.side] = formatMicros(p);
    });
    return out;
  }

  /** (best bid + best ask) / 2. Prices sit on ticks of at least 0.0001, so the half is exact in 6 decimals. */
  midpoint(tokenId: string, param = 'token_id'): string | undefined {
    const { market, outcomeIndex } = this.token(tokenId, param);
    const bid = this.best(market, outcomeIndex, 'bid');
    const ask = this.best(market, outcomeIndex, 'ask');
    if (bid === undefined || ask === undefined) return undefined;
    return formatUnits((BigInt(bid) + BigInt(ask) + 1n) / 2n);
  }

  requireMidpoint(tokenId: string): string {
    const mid = this.midpoint(tokenId);
    if (mid === undefined) throw new ApiError('no_liquidity', `The book of token ${tokenId} needs both a bid and an ask for a midpoint. See GET /book?token_id=${tokenId}.`);
    return mid;
  }

  spread(tokenId: string, param = 'token_id'): string | undefined {
    const { market, outcomeIndex } = this.token(tokenId, param);
    const bid = this.best(market, outcomeIndex, 'bid');
    const ask = this.best(market, outcomeIndex, 'ask');
    if (bid === undefined || ask === undefined) return undefined;
    return formatMicros(ask - bid);
  }

  requireSpread(tokenId: string): string {
    const s = this.spread(tokenId);
    if (s === undefined) throw new ApiError('no_liquidity', `The book of token ${tokenId} needs both a bid and an ask for a spread. See GET /book?token_id=${tokenId}.`);
    return s;
  }

  /** Batch midpoints or spreads keyed by token id; tokens whose book lacks a side are left out. */
  perToken(entries: ReadonlyArray<{ token_id: string }>, what: 'midpoint' | 'spread'): Record<string, string> {
    const out: Record<string, string> = {};
    entries.forEach((e, i) => {
      const v = what === 'midpoint' ? this.midpoint(e.token_id, `[${i}].token_id`) : this.spread(e.token_id, `[${i}].token_id`);
      if (v !== undefined) out[e.token_id] = v;
    });
    return out;
  }

  lastTrade(tokenId: string, param = 'token_id'): { price: string; side: string } {
    this.token(tokenId, param);
    const t = this.ctx.orders.lastTrade(tokenId);
    return t ? { price: formatUnits(t.price), side: t.side } : { price: NO_TRADE_PRICE, side: '' };
  }

  /**
   * Price history of a token: each `fidelity`-minute bucket that saw trades, stamped with the bucket's
   * start (unix seconds): `p` the last trade price (what the public service sends), plus open, high, low,
   * close, volume in shares and the book's closing mid `m`. Buckets without trades are left out.
   */
  pricesHistory(q: { market?: string; interval?: string; startTs?: string; endTs?: string; fidelity?: string }): { history: Candle[] } {
    if (q.market === undefined || q.market === '') {
      throw new ApiError('invalid_query', "Query parameter 'market' is required: the token id whose prices to chart (GET /markets tokens[].token_id).", { details: { field: 'market' } });
    }
    const { market, outcomeIndex } = this.token(q.market, 'market');
    const nowSec = Math.floor(this.ctx.clock.nowMs() / 1000);
    const fidelity = q.fidelity === undefined || q.fidelity === '' ? 1 : intParam(q.fidelity, 'fidelity', 1, 525_600);
    let start: number;
    let end: number;
    const hasRange = (q.startTs ?? '') !== '' || (q.endTs ?? '') !== '';
    if (q.interval !== undefined && q.interval !== '') {
      if (hasRange) throw new ApiError('invalid_query', "Use either 'interval' or 'startTs'/'endTs', not both.", { details: { field: 'interval' } });
      if (!(q.interval in INTERVAL_SECONDS)) {
        throw new ApiError('invalid_query', `Query parameter 'interval' must be one of ${Object.keys(INTERVAL_SECONDS).join(', ')}; got ${JSON.stringify(q.interval)}.`, { details: { field: 'interval' } });
      }
      const span = INTERVAL_SECONDS[q.interval];
      start = span === null || span === undefined ? 0 : nowSec - span;
      end = nowSec;
    } else {
      start = (q.startTs ?? '') === '' ? 0 : intParam(q.startTs!, 'startTs', 0, Number.MAX_SAFE_INTEGER);
      end = (q.endTs ?? '') === '' ? nowSec : intParam(q.endTs!, 'endTs', 0, Number.MAX_SAFE_INTEGER);
      if (end < start) throw new ApiError('invalid_query', `Query parameter 'endTs' (${end}) must not be before 'startTs' (${start}).`, { details: { field: 'endTs' } });
    }
    const mids = this.ctx.mids;
    // A bucket still open closes now: its mid is the current one.
    const history = candles(this.ctx.orders.priceSeries(q.market, start, end), fidelity * 60, (endSec) => mids.midBefore(market.conditionId, outcomeIndex, Math.min(endSec, nowSec + 1)));
    return { history };
  }

  /** The public trade tape, newest first, paged like the other lists. */
  trades(q: { market?: string; asset_id?: string; token_id?: string; limit?: string; next_cursor?: string }): Page<unknown> {
    const limit = q.limit === undefined || q.limit === '' ? 100 : intParam(q.limit, 'limit', 1, 500);
    const offset = decodeCursor(q.next_cursor);
    const tokenId = q.asset_id ?? q.token_id;
    let conditionId: string | undefined;
    if (tokenId !== undefined && tokenId !== '') {
      const t = this.token(tokenId, q.asset_id !== undefined ? 'asset_id' : 'token_id');
      if (q.market && q.market.toLowerCase() !== t.market.conditionId) {
        throw new ApiError('invalid_query', `Token ${tokenId} belongs to market ${t.market.conditionId}, not ${q.market}; drop one of the two filters.`, { details: { field: 'market' } });
      }
    } else if (q.market !== undefined && q.market !== '') {
      conditionId = this.market(q.market).conditionId;
    }
    if (offset < 0) return { limit, count: 0, next_cursor: END_CURSOR, data: [] };
    const rows = this.ctx.orders.tradeTape({
      ...(tokenId ? { tokenId } : {}),
      ...(conditionId ? { conditionId } : {}),
      limit: limit + 1,
      offset,
    }) as unknown[];
    const more = rows.length > limit;
    const data = more ? rows.slice(0, limit) : rows;
    return { limit, count: data.length, next_cursor: more ? encodeCursor(offset + limit) : END_CURSOR, data };
  }

  marketsPage(cursor: string | undefined): Page<PublicMarket> {
    const offset = decodeCursor(cursor);
    const all = this.ctx.markets.list();
    if (offset < 0) return { limit: MARKETS_PAGE_SIZE, count: 0, next_cursor: END_CURSOR, data: [] };
    const slice = all.slice(offset, offset + MARKETS_PAGE_SIZE);
    const next = offset + MARKETS_PAGE_SIZE < all.length ? encodeCursor(offset + MARKETS_PAGE_SIZE) : END_CURSOR;
    return { limit: MARKETS_PAGE_SIZE, count: slice.length, next_cursor: next, data: slice.map((m) => this.publicMarket(m)) };
  }

  publicMarket(m: Market): PublicMarket {
    return publicMarket(m, [this.tokenPrice(m, 0), this.tokenPrice(m, 1)], this.ctx.markets.isSystemPaused(), this.ctx.mirrors?.recordStatus(m) ?? null);
  }

  /** The listing's token price: payout once resolved, else midpoint, else last trade, else 0.5. */
  private tokenPrice(m: Market, outcomeIndex: 0 | 1): string {
    if (m.winner !== null) return m.winner === outcomeIndex ? '1' : '0';
    const bid = this.best(m, outcomeIndex, 'bid');
    const ask = this.best(m, outcomeIndex, 'ask');
    if (bid !== undefined && ask !== undefined) return formatUnits((BigInt(bid) + BigInt(ask) + 1n) / 2n);
    const t = this.ctx.orders.lastTrade(m.tokenIds[outcomeIndex]);
    return t ? formatUnits(t.price) : NO_TRADE_PRICE;
  }
}

function sameLevels(cached: Float64Array, levels: readonly Level[]): boolean {
  if (cached.length !== levels.length * 2) return false;
  for (let i = 0; i < levels.length; i++) if (cached[2 * i] !== levels[i]!.price || cached[2 * i + 1] !== levels[i]!.size) return false;
  return true;
}

/** Best-first levels as wire text, best LAST, built in one pass (no intermediate objects). */
function wireLevels(levels: readonly Level[]): LevelsText {
  let json = '[';
  for (let j = levels.length - 1; j >= 0; j--) {
    const l = levels[j]!;
    json += (j === levels.length - 1 ? '{"price":"' : ',{"price":"') + formatMicros(l.price) + '","size":"' + formatMicros(l.size) + '"}';
  }
  json += ']';
  return { json, bytes: Buffer.from(json, 'latin1') };
}

function intParam(text: string, name: string, min: number, max: number): number {
  if (!/^\d{1,16}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ApiError('invalid_query', `Query parameter '${name}' must be an integer from ${min} to ${max}; got ${JSON.stringify(text)}.`, { details: { field: name } });
  }
  return Number(text);
}
