import type { Infra } from '../infra.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';

/** What the data service uses: the database, the markets, and the order service's books and last trades (wired by engine/engine.ts). */
export type DataDeps = Pick<Infra, 'db'> & {
  readonly markets: Pick<MarketService, 'byCondition' | 'list'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade'>;
};
