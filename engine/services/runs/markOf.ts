import { ONE } from '../../protocol/amounts.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';
import type { Mark } from './runLedger.js';

/** A token's mark: the mid, else the last trade, else (resolved) its payout. The run report and the agents' report share it. */
export function markOf(deps: { readonly markets: Pick<MarketService, 'byToken'>; readonly orders: Pick<OrderService, 'book' | 'lastTrade'> }): Mark {
  return (tokenId) => {
    const hit = deps.markets.byToken(tokenId);
    if (!hit) return undefined;
    const { market, outcomeIndex } = hit;
    if (market.winner !== null && market.winner !== undefined) return market.winner === outcomeIndex ? ONE : 0n;
    const book = deps.orders.book(market.conditionId);
    const bid = book?.bestBid();
    const ask = book?.bestAsk();
    if (bid !== undefined && ask !== undefined) {
      const yesMid = BigInt(bid + ask) / 2n;
      return outcomeIndex === 0 ? yesMid : ONE - yesMid;
    }
    return deps.orders.lastTrade(tokenId)?.price;
  };
}
