import type { AuthService } from '../auth/authService.js';
import type { Infra } from '../infra.js';
import type { MarketService } from '../markets/marketService.js';
import type { MidHistory } from '../markets/midHistory.js';
import type { OrderService } from '../orders/orderService.js';

/**
 * What the streams read: committed changes (the order service's `events` hook, the markets' and auth's
 * change listeners) and, for snapshots, books, last trades and order records. Nothing here writes.
 */
export type StreamDeps = Pick<Infra, 'clock' | 'config'> & {
  readonly auth: Pick<AuthService, 'onRevoke' | 'verifyCredentials'>;
  readonly markets: Pick<MarketService, 'onChange' | 'byCondition' | 'byToken'>;
  readonly orders: Pick<OrderService, 'events' | 'get' | 'book' | 'lastTrade'>;
  /** Each market's closing quote per minute, recorded after every book change (the candles' mid). */
  readonly mids: MidHistory;
};
