import { formatUnits } from '../../protocol/amounts.js';
import type { OrderRow } from '../../store/orderRepo.js';

/** The order record of interface §2.4 (camelCase; decimal strings; ISO times). */
export interface OrderRecord {
  id: string;
  status: OrderRow['status'];
  market: string;
  outcome: string;
  assetId: string;
  makerAddress: string;
  owner: string;
  price: string;
  side: OrderRow['side'];
  originalSize: string;
  sizeMatched: string;
  expiration: string;
  type: OrderRow['orderType'];
  associateTrades: string[];
  createdAt: string;
  updatedAt: string;
}

export function toOrderRecord(o: OrderRow, tradeIds: string[]): OrderRecord {
  return {
    id: o.id,
    status: o.status,
    market: o.conditionId,
    outcome: `${o.conditionId}:${o.outcomeIndex}`,
    assetId: o.tokenId,
    makerAddress: o.maker,
    owner: o.owner,
    price: formatUnits(o.price),
    side: o.side,
    originalSize: formatUnits(o.originalSize),
    sizeMatched: formatUnits(o.sizeMatched),
    expiration: String(o.expiration),
    type: o.orderType,
    associateTrades: tradeIds,
    createdAt: new Date(o.createdAt).toISOString(),
    updatedAt: new Date(o.updatedAt).toISOString(),
  };
}
