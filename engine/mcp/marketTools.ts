import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { formatUnits } from '../protocol/amounts.js';
import { feeScheduleToWire } from '../protocol/feeSchedule.js';
import type { Market } from '../services/markets/marketService.js';
import type { MirrorStatus } from '../services/mirror/mirrorTypes.js';
import { defineTool, ToolRefusal, type ToolDeps } from './toolKit.js';

const tokenId = z.string().min(1).describe('Token id of one outcome (get_market lists them)');

export function marketState(deps: ToolDeps, m: Market): 'open' | 'paused' | 'closed' | 'resolved' {
  if (m.winner !== null) return 'resolved';
  if (m.closed || !m.acceptingOrders) return 'closed';
  return deps.ctx.markets.pauseState(m.conditionId) ? 'paused' : 'open';
}

/** A market with its trading rules, as the tools show it. */
export function marketRules(deps: ToolDeps, m: Market) {
  return {
    conditionId: m.conditionId,
    question: m.question,
    slug: m.slug,
    outcomes: m.outcomes.map((name, i) => ({ name, tokenId: m.tokenIds[i] })),
    tickSize: formatUnits(m.tickSize),
    minOrderSize: formatUnits(m.minOrderSize),
    feeRateBps: m.feeRateBps,
    feeSchedule: feeScheduleToWire(m.feeSchedule),
    negRisk: m.negRisk,
    endDate: m.endDate,
    state: marketState(deps, m),
    winner: m.winner === null ? null : m.outcomes[m.winner],
    /** Where a mirrored market's public depth comes from and how fresh it is (decisions §10); null for a local market. */
    mirror: deps.ctx.mirrors.recordStatus(m),
  };
}

/** `, mirrored from public (live, last event 120 ms ago)`: the mirror part of a one-line summary. */
export function mirrorText(mirror: MirrorStatus | null): string {
  if (!mirror) return '';
  const age = mirror.lastEventAgeMs === null ? 'no event yet' : `last event ${mirror.lastEventAgeMs} ms ago`;
  return `, mirrored from ${mirror.source} (${mirror.upstreamState}, ${age})`;
}

/** A market named by its condition id, one of its token ids or its slug. */
export function findMarket(deps: ToolDeps, ref: string): { market: Market; outcomeIndex?: 0 | 1 } {
  const byCondition = deps.ctx.markets.byCondition(ref.toLowerCase());
  if (byCondition) return { market: byCondition };
  const byToken = deps.ctx.markets.byToken(ref);
  if (byToken) return byToken;
  const bySlug = deps.ctx.markets.list().find((m) => m.slug === ref);
  if (bySlug) return { market: bySlug };
  throw new ToolRefusal(`No market has the condition id, token id or slug ${JSON.stringify(ref)}. Call list_markets for the markets that exist (search_public_markets and mirror_market for public ones).`);
}

export function tokenOf(deps: ToolDeps, token: string): { market: Market; outcomeIndex: 0 | 1 } {
  const hit = deps.ctx.markets.byToken(token);
  if (!hit) throw new ToolRefusal(`No market trades the token id ${JSON.stringify(token)}. Call get_market for a market's token ids.`);
  return hit;
}

/** Discovery and market data: markets and their rules, books, prices, history, trades. */
/** One outcome token's book, best levels first, `depth` levels a side (get_book and the book resource). */
export function bookOf(deps: ToolDeps, tokenId: string, depth: number) {
  tokenOf(deps, tokenId);
  const book = JSON.parse(deps.ctx.marketData.bookJson(tokenId)) as { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }>; tick_size: string; min_order_size: string; timestamp: string };
  // The wire book lists bids and asks from the worst price to the best (interface §3); best first here.
  return { tokenId, bids: book.bids.slice(-depth).reverse(), asks: book.asks.slice(-depth).reverse(), tickSize: book.tick_size, minOrderSize: book.min_order_size, timestamp: Number(book.timestamp) };
}

export function registerMarketTools(server: McpServer, deps: ToolDeps): void {
  const data = deps.ctx.marketData;

  defineTool(server, deps, 'list_markets', {
    title: 'List or search markets',
    description:
      "Markets of this sandbox exchange with their rules and state: local ones and mirrored ones (a public market's copy, or a replayed tape's; `mirror` says where its depth comes from and how fresh it is). Filter by words of the question (query), by state and by kind. Public markets not mirrored yet: search_public_markets.",
    input: {
      query: z.string().max(200).optional().describe('Words the question must contain (case-insensitive)'),
      state: z.enum(['open', 'paused', 'closed', 'resolved', 'any']).default('any'),
      kind: z.enum(['local', 'mirrored', 'any']).default('any').describe('local markets, mirrored ones (public mirrors and replays), or both'),
      limit: z.number().int().min(1).max(200).default(50),
    },
  }, ({ query, state, kind, limit }) => {
    const words = (query ?? '').toLowerCase().split(/\s+/).filter((w) => w !== '');
    const all = deps.ctx.markets
      .list()
      .map((m) => marketRules(deps, m))
      .filter((m) => (state === 'any' || m.state === state) && (kind === 'any' || (kind === 'mirrored') === (m.mirror !== null)) && words.every((w) => m.question.toLowerCase().includes(w) || m.slug.includes(w)));
    const markets = all.slice(0, limit);
    return { summary: `${all.length} market(s) match${all.length > markets.length ? `, first ${markets.length} shown` : ''}.`, data: { total: all.length, markets } };
  });

  defineTool(server, deps, 'get_market', {
    title: 'One market and its rules',
    description:
      'A market by condition id, token id or slug: outcomes and token ids, tick size, minimum order size, fee schedule (taker pays shares × rate × (p(1−p))^exponent; feeRateBps is the base fee orders sign), end date, state (open, paused, closed, resolved), and for a mirrored market its mirror status (source, upstreamState live/stale/closed, lastEventAgeMs).',
    input: { market: z.string().min(1).describe('Condition id, token id or slug') },
  }, ({ market }) => {
    const m = marketRules(deps, findMarket(deps, market).market);
    return { summary: `${m.question} — ${m.state}, tick ${m.tickSize}, min size ${m.minOrderSize}, fee ${m.feeRateBps} bps, ends ${m.endDate ?? 'never'}${mirrorText(m.mirror)}.`, data: m };
  });

  defineTool(server, deps, 'get_book', {
    title: 'Order book',
    description: "The order book of one outcome token, best levels first, in that token's prices.",
    input: { token_id: tokenId, depth: z.number().int().min(1).max(100).default(10) },
  }, ({ token_id, depth }) => {
    const book = bookOf(deps, token_id, depth);
    return { summary: `best bid ${book.bids[0]?.price ?? 'none'} × ${book.bids[0]?.size ?? 0}, best ask ${book.asks[0]?.price ?? 'none'} × ${book.asks[0]?.size ?? 0}.`, data: book };
  });

  defineTool(server, deps, 'get_price', {
    title: 'Prices, midpoint and spread',
    description: 'Best bid, best ask, midpoint, spread and last trade of one outcome token.',
    input: { token_id: tokenId },
  }, ({ token_id }) => {
    tokenOf(deps, token_id);
    const bid = orNull(() => data.price(token_id, 'BUY'));
    const ask = orNull(() => data.price(token_id, 'SELL'));
    const mid = data.midpoint(token_id) ?? null;
    const spread = data.spread(token_id) ?? null;
    const last = deps.ctx.orders.lastTrade(token_id);
    const d = { tokenId: token_id, bestBid: bid, bestAsk: ask, midpoint: mid, spread, lastTrade: last ? { price: formatUnits(last.price), side: last.side } : null };
    return { summary: `bid ${bid ?? 'none'}, ask ${ask ?? 'none'}, mid ${mid ?? 'none'}, spread ${spread ?? 'none'}.`, data: d };
  });

  defineTool(server, deps, 'get_price_history', {
    title: 'Price history',
    description: 'Candles of one outcome token (trades, closed at the midpoint where no trade happened).',
    input: { token_id: tokenId, interval: z.enum(['1h', '6h', '1d', '1w', '1m', 'max']).default('1d'), fidelity_minutes: z.number().int().min(1).max(525_600).default(1) },
  }, ({ token_id, interval, fidelity_minutes }) => {
    const { history } = data.pricesHistory({ market: token_id, interval, fidelity: String(fidelity_minutes) });
    return { summary: `${history.length} candle(s) over ${interval}.`, data: { tokenId: token_id, history } };
  });

  defineTool(server, deps, 'get_recent_trades', {
    title: 'Recent trades',
    description: 'The public trade tape of a market or one of its tokens, newest first.',
    input: { market: z.string().min(1).describe('Condition id or token id'), limit: z.number().int().min(1).max(200).default(20) },
  }, ({ market, limit }) => {
    const hit = findMarket(deps, market);
    const rows = deps.ctx.orders.tradeTape({ ...(hit.outcomeIndex === undefined ? { conditionId: hit.market.conditionId } : { tokenId: market }), limit, offset: 0 });
    return { summary: `${rows.length} recent trade(s).`, data: { trades: rows as unknown as Record<string, unknown>[] } };
  });
}

/** A price the book may not have (no_liquidity): null instead of a refusal. */
function orNull(read: () => string): string | null {
  try {
    return read();
  } catch {
    return null;
  }
}
