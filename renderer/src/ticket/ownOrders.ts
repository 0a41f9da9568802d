import { formatUnits } from '../../../engine/protocol/amounts.js';
import { toMicros } from '../format.js';
import type { OrderRecord, QueueEntry } from '../api/types.js';

/**
 * The trader's remaining size per book level of one token, keyed `SIDE:price` with the price written
 * as the book writes it (formatUnits), so the ladder can mark its own orders.
 */
export function ownSizeByLevel(orders: Pick<OrderRecord, 'assetId' | 'side' | 'price' | 'originalSize' | 'sizeMatched'>[], tokenId: string | undefined): Map<string, string> {
  const sums = new Map<string, bigint>();
  for (const o of orders) {
    if (o.assetId !== tokenId) continue;
    const price = toMicros(o.price);
    const left = (toMicros(o.originalSize) ?? 0n) - (toMicros(o.sizeMatched) ?? 0n);
    if (price === undefined || left <= 0n) continue;
    const key = `${o.side}:${formatUnits(price)}`;
    sums.set(key, (sums.get(key) ?? 0n) + left);
  }
  return new Map([...sums].map(([k, v]) => [k, formatUnits(v)]));
}

/** Where the trader's first order at a level stands: shares ahead of it and the level's total. */
export interface LevelQueue {
  ahead: string;
  levelSize: string;
}

/**
 * The queue position of the trader's front-most order at each level of one token, keyed like
 * ownSizeByLevel (`SIDE:price`): "ahead X of Y" is what must trade before the trader's size starts filling.
 */
export function queueByLevel(entries: Pick<QueueEntry, 'asset_id' | 'side' | 'price' | 'ahead' | 'level_size'>[], tokenId: string | undefined): Map<string, LevelQueue> {
  const out = new Map<string, { ahead: bigint; levelSize: string }>();
  for (const e of entries) {
    const price = toMicros(e.price);
    const ahead = toMicros(e.ahead);
    if (e.asset_id !== tokenId || price === undefined || ahead === undefined) continue;
    const key = `${e.side}:${formatUnits(price)}`;
    const seen = out.get(key);
    if (!seen || ahead < seen.ahead) out.set(key, { ahead, levelSize: e.level_size });
  }
  return new Map([...out].map(([k, v]) => [k, { ahead: formatUnits(v.ahead), levelSize: v.levelSize }]));
}
