import type { OrderHandle } from '../../book/types.js';
import type { FeeSchedule } from '../../protocol/feeSchedule.js';
import type { OrderRow } from '../../store/orderRepo.js';

/**
 * An order that is on a book right now, as the service keeps it in memory. It is the stored row kept
 * current synchronously (so concurrent placements in one turn see each other); the row in SQLite
 * follows once the placement's group commit lands.
 *
 * `handle` is the book's name for it (fills name their maker by it, cancels send it): in memory only,
 * never stored or sent (a restart restores the books and gets new handles); −1 while it is not on a book.
 */
export type LiveOrder = OrderRow & { handle: OrderHandle };

/** The stored row of a live order: everything but its in-memory book handle. */
export function rowOf(o: LiveOrder): OrderRow {
  const { handle: _handle, ...row } = o;
  return row;
}

/** Who is calling: set by the L2 guard (lower-case address) and the API key that signed the request. */
export interface OrderIdentity {
  readonly address: string;
  readonly apiKey?: string;
}

/** What the service needs to know about a market to trade it (a structural view of the markets service's market). */
export interface TradableMarket {
  readonly conditionId: string;
  readonly tokenIds: readonly [string, string];
  readonly outcomes: readonly [string, string];
  readonly tickSize: bigint;
  readonly minOrderSize: bigint;
  readonly negRisk: boolean;
  readonly winner: 0 | 1 | null;
  /** No new orders: a mirrored market closed upstream or no longer followed (decisions §10); absent = open. */
  readonly closed?: boolean;
  /** Base fee in basis points, the least a V1 order's signed feeRateBps may be (decisions §10); absent = 0. */
  readonly feeRateBps?: number;
  /** The schedule fills pay by (decisions §10); absent = no fee. */
  readonly feeSchedule?: FeeSchedule;
}

/** Size still open on an order. */
export function remainingOf(o: Pick<OrderRow, 'originalSize' | 'sizeMatched'>): bigint {
  return o.originalSize - o.sizeMatched;
}

/**
 * Collateral a BUY must still hold back for `remaining` shares: the signed limit cost of that size,
 * rounded up (makerAmount / takerAmount is the exact limit, also for market orders whose implied price
 * is off the tick).
 */
export function buyReservationFor(o: Pick<OrderRow, 'makerAmount' | 'takerAmount'>, remaining: bigint): bigint {
  if (remaining <= 0n) return 0n;
  return (o.makerAmount * remaining + o.takerAmount - 1n) / o.takerAmount;
}

/** What an order holds back for its remaining size: collateral for a BUY, shares for a SELL. */
export function reservationFor(o: Pick<OrderRow, 'side' | 'makerAmount' | 'takerAmount'>, remaining: bigint): bigint {
  return o.side === 'BUY' ? buyReservationFor(o, remaining) : remaining > 0n ? remaining : 0n;
}

/** The asset an order reserves: collateral for a BUY, its token for a SELL. */
export function reservedAssetOf(o: Pick<OrderRow, 'side' | 'tokenId'>, collateral: string): string {
  return o.side === 'BUY' ? collateral : o.tokenId;
}
