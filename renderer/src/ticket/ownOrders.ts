import { formatUnits } from '../../../engine/protocol/amounts.js';
import { toMicros } from '../format.js';
import type { OrderRecord } from '../api/types.js';

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
