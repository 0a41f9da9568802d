import type { TradeRecord } from '../api/types.js';
import { averageFill } from '../notify/orderText.js';

/** The reader's own side of a fill: what every trade view and export shows (issue 23, item 2). */
export interface MyFill {
  role: 'MAKER' | 'TAKER';
  side: string;
  outcome: string;
  price: string;
  size: string;
}

/**
 * A trade record's top-level side, outcome, price and size are the taker's. A maker's own leg is its
 * resting order among `maker_orders` (those the reader placed; one trade can hit several of them at
 * once: their sizes add up and the price is the size-weighted average). Without an address, or when no
 * leg names it, the first maker leg stands in.
 */
export function myFill(t: TradeRecord, address?: string): MyFill {
  if (t.trader_side !== 'MAKER' || !t.maker_orders?.length) return { role: 'TAKER', side: t.side, outcome: t.outcome, price: t.price, size: t.size };
  const me = address?.toLowerCase();
  const own = t.maker_orders.filter((m) => m.maker_address.toLowerCase() === me);
  const legs = own.length ? own : [t.maker_orders[0]!];
  const first = legs[0]!;
  if (legs.length === 1) return { role: 'MAKER', side: first.side, outcome: first.outcome, price: first.price, size: first.matched_amount };
  const avg = averageFill(legs.map((l) => ({ size: l.matched_amount, price: l.price })));
  return { role: 'MAKER', side: first.side, outcome: first.outcome, price: avg?.price ?? first.price, size: avg?.size ?? first.matched_amount };
}
