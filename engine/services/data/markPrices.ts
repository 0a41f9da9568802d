/**
 * Marks for valuing positions (data-api.md §5, §9.5): `curPrice` = payout if resolved, else the book
 * midpoint, else the last trade, else 0; `exitPrice` (what selling now fetches) = payout if resolved,
 * else the best bid, else curPrice. The book is kept in outcome-0 terms, so outcome 1 reads it mirrored.
 */
import { fromBookPrice, PRICE_ONE } from '../../book/types.js';
import type { DataDeps } from './dataDeps.js';
import type { MarketInfo } from './marketInfo.js';

export interface TokenMarks {
  /** Micro-units. */
  readonly curPrice: bigint;
  readonly exitPrice: bigint;
}

const ONE = BigInt(PRICE_ONE);

/** Marks for one read: each token is priced once, so every row of a response sees the same book. */
export class MarkPrices {
  private readonly cache = new Map<string, TokenMarks>();

  constructor(private readonly ctx: Pick<DataDeps, 'orders'>) {}

  of(info: MarketInfo, outcomeIndex: number): TokenMarks {
    const key = `${info.conditionId}:${outcomeIndex}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.compute(info, outcomeIndex);
      this.cache.set(key, hit);
    }
    return hit;
  }

  private compute(info: MarketInfo, outcomeIndex: number): TokenMarks {
    if (info.winner !== null) {
      const payout = info.winner === outcomeIndex ? ONE : 0n;
      return { curPrice: payout, exitPrice: payout };
    }
    if (outcomeIndex !== 0 && outcomeIndex !== 1) return { curPrice: 0n, exitPrice: 0n };
    const book = info.market ? this.ctx.orders.book(info.conditionId) : undefined;
    // A token's bid is the book's bid for outcome 0 and the mirrored ask for outcome 1.
    const rawBid = outcomeIndex === 0 ? book?.bestBid() : book?.bestAsk();
    const rawAsk = outcomeIndex === 0 ? book?.bestAsk() : book?.bestBid();
    const bid = rawBid === undefined ? undefined : BigInt(fromBookPrice(outcomeIndex, rawBid));
    const ask = rawAsk === undefined ? undefined : BigInt(fromBookPrice(outcomeIndex, rawAsk));
    let curPrice: bigint;
    if (bid !== undefined && ask !== undefined) {
      // Rounded up like GET /midpoint; ticks are ≥ 0.0001, so the half is exact anyway.
      curPrice = (bid + ask + 1n) / 2n;
    } else {
      const token = info.tokenId(outcomeIndex);
      const last = token ? this.ctx.orders.lastTrade(token) : undefined;
      curPrice = last ? BigInt(last.price) : 0n;
    }
    return { curPrice, exitPrice: bid ?? curPrice };
  }
}
