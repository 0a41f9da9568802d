import { formatUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import type { ClobMarketInfoJson, SimplifiedMarketJson } from '../../protocol/schemas/compat.js';
import type { MarketDataDeps } from './marketDataService.js';
import { decodeCursor, encodeCursor, END_CURSOR, MARKETS_PAGE_SIZE, type MarketDataService, type Page } from './marketDataService.js';
import type { Market } from './marketService.js';
import type { PublicMarket } from './publicMarket.js';

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;

/** Wire numbers are parsed from exact decimal strings, never computed in floating point. */
const num = (micro: bigint): number => Number(formatUnits(micro));

/**
 * The compact market info of GET /clob-markets/{condition_id} (trading-api.md §12). `fd` is the fee
 * schedule's rate and exponent (clob-client-v2 sizes market BUYs with them), `tbf` the base fee; no rewards.
 */
export function clobMarketInfo(m: Market): ClobMarketInfoJson {
  return {
    c: m.conditionId,
    t: [
      { t: m.tokenIds[0], o: m.outcomes[0] },
      { t: m.tokenIds[1], o: m.outcomes[1] },
    ],
    mts: num(m.tickSize),
    nr: m.negRisk,
    mos: num(m.minOrderSize),
    fd: m.feeSchedule.rate === 0n ? { r: 0, e: 0 } : { r: num(m.feeSchedule.rate), e: m.feeSchedule.exponent },
    r: null,
    mbf: 0,
    tbf: m.feeRateBps,
  };
}

/** The simplified record of /simplified-markets (data-api.md §6.1): the listing fields of the full record. */
export function simplifiedMarket(pm: PublicMarket): SimplifiedMarketJson {
  return {
    condition_id: pm.condition_id,
    tokens: pm.tokens,
    rewards: pm.rewards,
    active: pm.active,
    closed: pm.closed,
    archived: pm.archived,
    accepting_orders: pm.accepting_orders,
    mirror: pm.mirror,
  };
}

/**
 * "Sampling" markets are the public service's reward-eligible ones. This exchange runs no rewards
 * program, so the set is what a market maker samples them for: the markets that accept orders right
 * now (open, not resolved, neither the market's nor the global breaker engaged).
 */
export function isSampling(pm: PublicMarket): boolean {
  return pm.accepting_orders && pm.enable_order_book;
}

/** One cursor page over `items` (the /markets paging: base64 offsets, "LTE=" after the last page). */
export function pageOf<T>(items: readonly T[], cursor: string | undefined): Page<T> {
  const offset = decodeCursor(cursor);
  if (offset < 0) return { limit: MARKETS_PAGE_SIZE, count: 0, next_cursor: END_CURSOR, data: [] };
  const data = items.slice(offset, offset + MARKETS_PAGE_SIZE);
  const next = offset + MARKETS_PAGE_SIZE < items.length ? encodeCursor(offset + MARKETS_PAGE_SIZE) : END_CURSOR;
  return { limit: MARKETS_PAGE_SIZE, count: data.length, next_cursor: next, data };
}

/**
 * The market reads the public clients call beyond GET /markets: token → condition lookup, the compact
 * market info, and the simplified and sampling listings. Same order (oldest market first), page size
 * and cursors as GET /markets.
 */
export class MarketListings {
  constructor(
    private readonly ctx: Pick<MarketDataDeps, 'markets'>,
    private readonly data: MarketDataService,
  ) {}

  /** GET /markets-by-token/{token_id}: 400 for a malformed id, 404 token_not_found for an unknown one. */
  conditionOfToken(tokenId: string): { condition_id: string } {
    return { condition_id: this.data.token(tokenId).market.conditionId };
  }

  /** GET /clob-markets/{condition_id}: 400 for a malformed id, 404 market_not_found for an unknown one. */
  clobMarket(conditionId: string): ClobMarketInfoJson {
    if (!CONDITION_ID.test(conditionId)) {
      throw new ApiError('invalid_query', `Path parameter 'condition_id' must be a condition id (0x + 64 hex), as listed in GET /markets; got ${JSON.stringify(conditionId.slice(0, 100))}.`, {
        details: { field: 'condition_id', in: 'path' },
      });
    }
    return clobMarketInfo(this.data.market(conditionId));
  }

  simplifiedPage(cursor: string | undefined): Page<SimplifiedMarketJson> {
    return this.mapped(pageOf(this.ctx.markets.list(), cursor), (m) => simplifiedMarket(this.data.publicMarket(m)));
  }

  samplingPage(cursor: string | undefined): Page<PublicMarket> {
    return pageOf(this.sampling(), cursor);
  }

  samplingSimplifiedPage(cursor: string | undefined): Page<SimplifiedMarketJson> {
    return this.mapped(pageOf(this.sampling(), cursor), simplifiedMarket);
  }

  private sampling(): PublicMarket[] {
    return this.ctx.markets
      .list()
      .map((m) => this.data.publicMarket(m))
      .filter(isSampling);
  }

  private mapped<A, B>(page: Page<A>, f: (a: A) => B): Page<B> {
    return { ...page, data: page.data.map(f) };
  }
}
