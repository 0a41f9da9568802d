import { formatUnits } from '../../protocol/amounts.js';
import type { OrderRow } from '../../store/orderRepo.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { PlacementResult } from './placementResult.js';
import type { TradeRecord } from './tradeRecord.js';

/**
 * The polymarket profile's shapes (decisions §6): what the stock clients' `OpenOrder` and `OrderResponse`
 * types read. The order id there is the order's 0x EIP-712 hash; the ULID stays accepted as an id.
 */
export type PublicOrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED';

export interface PublicOrderRecord {
  id: string;
  status: PublicOrderStatus;
  owner: string;
  maker_address: string;
  market: string;
  asset_id: string;
  side: OrderRow['side'];
  original_size: string;
  size_matched: string;
  price: string;
  outcome: string;
  expiration: string;
  order_type: OrderRow['orderType'];
  associate_trades: string[];
  /** Unix seconds. */
  created_at: number;
}

export interface PublicPlacement extends PlacementResult {
  errorMsg: string;
  orderID: string;
  makingAmount: string;
  takingAmount: string;
  transactionsHashes: string[];
  tradeIDs: string[];
}

/** A resting order (also partly filled) is LIVE, a filled one MATCHED, a cancelled or expired one CANCELED. */
export function publicStatus(s: OrderRow['status']): PublicOrderStatus {
  if (s === 'filled') return 'MATCHED';
  if (s === 'cancelled') return 'CANCELED';
  return 'LIVE';
}

export function toPublicOrderRecord(o: OrderRow, tradeIds: string[], outcomes: readonly [string, string] | undefined): PublicOrderRecord {
  return {
    id: o.digest,
    status: publicStatus(o.status),
    owner: o.owner,
    maker_address: o.maker,
    market: o.conditionId,
    asset_id: o.tokenId,
    side: o.side,
    original_size: formatUnits(o.originalSize),
    size_matched: formatUnits(o.sizeMatched),
    price: formatUnits(o.price),
    outcome: outcomes?.[o.outcomeIndex] ?? String(o.outcomeIndex),
    expiration: String(o.expiration),
    order_type: o.orderType,
    associate_trades: tradeIds,
    created_at: Math.floor(o.createdAt / 1000),
  };
}

/**
 * The public placement answer beside the snake_case fields: what the order gave (`makingAmount`) and got
 * (`takingAmount`) in the trades it took at placement, at the makers' prices, as decimal strings.
 */
export function toPublicPlacement(r: PlacementResult, order: OrderRow | undefined, taken: TradeRow[]): PublicPlacement {
  let shares = 0n;
  let collateral = 0n;
  for (const t of taken) {
    shares += t.size;
    collateral += (t.size * t.price) / 1_000_000n;
  }
  const matched = taken.length > 0;
  const buy = order?.side === 'BUY';
  return {
    ...r,
    errorMsg: r.error_msg,
    orderID: order?.digest ?? '',
    makingAmount: matched ? formatUnits(buy ? collateral : shares) : '',
    takingAmount: matched ? formatUnits(buy ? shares : collateral) : '',
    transactionsHashes: [...new Set(taken.map((t) => t.transactionHash).filter((h) => h !== ''))],
    tradeIDs: taken.map((t) => t.id),
  };
}

/** A trade record with its orders named by their 0x hashes, as the open-order records name them. */
export function withOrderHashes(t: TradeRecord, hashOf: (orderId: string) => string): TradeRecord {
  return {
    ...t,
    taker_order_id: hashOf(t.taker_order_id),
    maker_orders: t.maker_orders.map((m) => ({ ...m, order_id: hashOf(m.order_id) })),
  };
}
