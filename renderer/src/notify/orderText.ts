import { formatUnits } from '../../../engine/protocol/amounts.js';
import { fixedDecimals, tickDecimals, toMicros } from '../format.js';

/** An order or a fill as a toast names it: side, size, outcome, price and the market's question. */
export interface OrderWords {
  side: string;
  size: string;
  outcome: string;
  price: string;
  question?: string;
  /** The market's tick, to show prices at its decimals. */
  tick?: string;
}

const priceText = (p: string, tick?: string) => fixedDecimals(p, tick ? tickDecimals(tick) : 2);
const market = (q?: string) => (q ? ` · ${q}` : '');

/** "BUY 10.00 Yes @ 0.40 · Will it rain?" — what a cancel or an expiry names instead of an id. */
export function orderText(o: OrderWords): string {
  return `${o.side} ${fixedDecimals(o.size, 2)} ${o.outcome} @ ${priceText(o.price, o.tick)}${market(o.question)}`;
}

/** "BUY 10.00 No @ avg 0.60 · Will it rain?" — a fill, at the size-weighted price of its trades. */
export function fillText(o: OrderWords): string {
  return `${o.side} ${fixedDecimals(o.size, 2)} ${o.outcome} @ avg ${priceText(o.price, o.tick)}${market(o.question)}`;
}

/** The size and size-weighted average price of fills, exact in micro-units; undefined without any. */
export function averageFill(fills: readonly { size: string; price: string }[]): { size: string; price: string } | undefined {
  let size = 0n;
  let notional = 0n;
  for (const f of fills) {
    const s = toMicros(f.size) ?? 0n;
    size += s;
    notional += s * (toMicros(f.price) ?? 0n);
  }
  return size > 0n ? { size: formatUnits(size), price: formatUnits(notional / size) } : undefined;
}

/** The reader's fills of one order among its trades: as the taker, or as one of the resting makers. */
export function fillsOfOrder(trades: readonly { taker_order_id: string; size: string; price: string; maker_orders: readonly { order_id: string; matched_amount: string; price: string }[] }[], orderId: string): { size: string; price: string }[] {
  const out: { size: string; price: string }[] = [];
  for (const t of trades) {
    if (t.taker_order_id === orderId) out.push({ size: t.size, price: t.price });
    else for (const m of t.maker_orders) if (m.order_id === orderId) out.push({ size: m.matched_amount, price: m.price });
  }
  return out;
}
