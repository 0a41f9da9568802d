/**
 * The newcomer's first order: a small marketable buy (FAK at the best ask, the market's minimum size) on
 * the first open market whose book can fill it, so the first order ends in a fill, not a resting order.
 */
import type { BookSnapshot, Market } from '../api/types.js';
import { toMicros } from '../format.js';

export interface FirstOrderPlan {
  market: Market;
  tokenId: string;
  outcome: string;
  price: string;
  size: string;
}

/** The cheapest ask that holds at least `minSize` shares; undefined when the book cannot fill it. */
export function bestFillableAsk(book: Pick<BookSnapshot, 'asks'>, minSize: number): { price: string; size: string } | undefined {
  const need = toMicros(String(minSize));
  if (need === undefined) return undefined;
  let best: { price: string; size: string; p: bigint } | undefined;
  for (const a of book.asks) {
    const p = toMicros(a.price);
    const s = toMicros(a.size);
    if (p === undefined || s === undefined || s < need || p <= 0n) continue;
    if (!best || p < best.p) best = { price: a.price, size: a.size, p };
  }
  return best && { price: best.price, size: best.size };
}

/** Markets a first order can go to: open and accepting orders, the currently selected one first. */
export function candidateMarkets(markets: readonly Market[], preferred: string | undefined): Market[] {
  const open = markets.filter((m) => m.active && !m.closed && m.accepting_orders);
  return [...open.filter((m) => m.condition_id === preferred), ...open.filter((m) => m.condition_id !== preferred)];
}

/** Walks the candidates' books (both outcomes) and plans the first fillable buy. */
export async function planFirstOrder(markets: readonly Market[], preferred: string | undefined, book: (tokenId: string) => Promise<Pick<BookSnapshot, 'asks'>>): Promise<FirstOrderPlan | undefined> {
  for (const m of candidateMarkets(markets, preferred).slice(0, 20)) {
    for (const t of m.tokens) {
      const ask = bestFillableAsk(await book(t.token_id), m.minimum_order_size);
      if (ask) return { market: m, tokenId: t.token_id, outcome: t.outcome, price: ask.price, size: String(m.minimum_order_size) };
    }
  }
  return undefined;
}
