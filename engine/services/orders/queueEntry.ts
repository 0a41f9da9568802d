import type { QueuePosition } from '../../book/types.js';
import { formatUnits } from '../../protocol/amounts.js';
import type { LiveOrder } from './liveOrder.js';

/** GET /data/orders/queue's entry: where one of the caller's resting orders stands at its price. */
export interface QueueEntry {
  order_id: string;
  market: string;
  asset_id: string;
  side: 'BUY' | 'SELL';
  /** The order's limit price in its own outcome's terms (as placed). */
  price: string;
  size_remaining: string;
  /** Shares resting before it at this price (time priority): they fill first. */
  ahead: string;
  /**
   * Shares resting at this price in all, its own included: the size GET /book shows for this token at
   * this price (one book per market, so the level also holds the other outcome's mirrored orders).
   */
  level_size: string;
}

export function toQueueEntry(id: string, o: LiveOrder, pos: QueuePosition): QueueEntry {
  return {
    order_id: id,
    market: o.conditionId,
    asset_id: o.tokenId,
    side: o.side,
    price: formatUnits(o.price),
    size_remaining: formatUnits(o.originalSize - o.sizeMatched),
    ahead: formatUnits(BigInt(pos.ahead)),
    level_size: formatUnits(BigInt(pos.levelSize)),
  };
}
