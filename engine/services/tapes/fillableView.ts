import { createOrderBook } from '../../book/orderBook.js';
import { PRICE_ONE, toBookTerms, type BookSide, type MarketBook, type OrderHandle, type TimeInForce } from '../../book/types.js';
import type { MarketDecoder, PublicBookEvent, TapeEntry } from '../mirror/mirrorTypes.js';
import { PublicDepth } from '../orders/publicDepth.js';

/** One user order as the store kept it, for re-running against the tape. */
export interface ReplayOrder {
  readonly id: string;
  readonly account: string;
  readonly outcomeIndex: 0 | 1;
  readonly side: 'BUY' | 'SELL';
  /** Micro-units of its own outcome. */
  readonly price: number;
  readonly size: number;
  readonly orderType: 'GTC' | 'GTD' | 'FOK' | 'FAK';
  /** Exchange time the order arrived (before any latency), unix ms. */
  readonly arrivedAt: number;
  /** Exchange time it left the book without filling all (a cancel, an expiry), if it did. */
  readonly cancelledAt: number | null;
}

/** What one order got in a re-run: shares, and their cost in its own outcome's prices (micro-units × shares / 1e6). */
export interface OrderFill {
  filled: number;
  /** Σ price × size over its fills, in micro-units of collateral. */
  notional: bigint;
}

/** A played tape entry: when it played on the exchange clock. */
export interface TimedEntry {
  readonly at: number;
  readonly entry: TapeEntry;
}

/**
 * The "fillable" view of a replay: the user's orders re-matched against the same tape with another
 * latency, in an in-memory book that uses the engine's own pieces (the matching core and the order
 * service's public layer, PublicDepth) and the same print walk as the order service. Fast (no store,
 * no settlement) and, for a replay where only these orders traded locally, the same fills the engine made
 * at the engine's latency (replayReport.test.ts checks it). It leaves out what it cannot know: orders the
 * exchange refused are not stored, so are not re-run; fees and balance checks are not applied.
 *
 * Order of events at one millisecond, as in the engine: an order delayed by a latency is matched before
 * the tape entries of that millisecond (the clock's alarm fires first); an order with no latency arrives
 * between advances, after the entries already played at that time.
 */
export function fillableAt(decoder: MarketDecoder, entries: readonly TimedEntry[], orders: readonly ReplayOrder[], latencyMs: number): Map<string, OrderFill> {
  const book = createOrderBook();
  const depth = new PublicDepth(book);
  const resting = new Map<OrderHandle, ReplayOrder>();
  const handles = new Map<string, OrderHandle>();
  const out = new Map<string, OrderFill>(orders.map((o) => [o.id, { filled: 0, notional: 0n }]));
  const credit = (o: ReplayOrder, bookPrice: number, size: number) => {
    const f = out.get(o.id)!;
    f.filled += size;
    f.notional += BigInt(o.outcomeIndex === 0 ? bookPrice : PRICE_ONE - bookPrice) * BigInt(size);
  };

  type Step = { at: number; rank: number; seq: number; run: () => void };
  const steps: Step[] = [];
  let seq = 0;
  const orderRank = latencyMs > 0 ? 0 : 2;
  for (const e of entries) steps.push({ at: e.at, rank: 1, seq: seq++, run: () => applyEvents(decoder.decode(e.entry).events) });
  for (const o of orders) {
    const at = o.arrivedAt + latencyMs;
    steps.push({ at, rank: orderRank, seq: seq++, run: () => place(o) });
    if (o.cancelledAt !== null) {
      steps.push({
        at: Math.max(o.cancelledAt, at),
        rank: 3,
        seq: seq++,
        run: () => {
          const h = handles.get(o.id);
          if (h !== undefined && resting.has(h)) {
            book.cancel(h);
            resting.delete(h);
          }
        },
      });
    }
  }
  steps.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  for (const s of steps) s.run();
  return out;

  function place(o: ReplayOrder): void {
    const terms = toBookTerms(o.outcomeIndex, o.side, o.price);
    const tif: TimeInForce = o.orderType === 'GTD' ? 'GTC' : o.orderType;
    const r = book.place({ side: terms.side, price: terms.price, size: o.size, tif });
    for (const f of r.fills) {
      credit(o, f.price, f.size);
      if (depth.owns(f.makerHandle)) depth.takerFilled(f.makerHandle, f.size, f.makerRemaining);
      else fillMaker(f.makerHandle, f.price, f.size, f.makerRemaining);
    }
    if (r.rested) {
      resting.set(r.handle, o);
      handles.set(o.id, r.handle);
    }
  }

  function fillMaker(handle: OrderHandle, price: number, size: number, remaining: number): void {
    const maker = resting.get(handle);
    if (!maker) return;
    credit(maker, price, size);
    if (remaining === 0) resting.delete(handle);
  }

  function applyEvents(events: readonly PublicBookEvent[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'snapshot':
          depth.snapshot(e.bids.filter((l) => isLevel(l.price, l.size)), e.asks.filter((l) => isLevel(l.price, l.size)));
          break;
        case 'level':
          if (isLevel(e.price, e.size)) depth.update(e.side, e.price, e.size);
          break;
        case 'print':
          if (isLevel(e.price, e.size) && e.size > 0 && depth.live) print(book, e.aggressor, e.price, e.size);
          break;
        default:
          depth.drop();
      }
    }
  }

  function print(b: MarketBook, aggressor: BookSide, price: number, size: number): void {
    const r = b.place({ side: aggressor, price, size, tif: 'FAK' });
    if (r.fills.length === 0) return;
    let lo = PRICE_ONE;
    let hi = 0;
    for (const f of r.fills) {
      lo = Math.min(lo, f.price);
      hi = Math.max(hi, f.price);
      if (depth.owns(f.makerHandle)) depth.printed(f.makerHandle, f.size, f.makerRemaining);
      else fillMaker(f.makerHandle, f.price, f.size, f.makerRemaining);
    }
    depth.reconcileRange(aggressor === 'bid' ? 'ask' : 'bid', lo, hi);
  }
}

function isLevel(price: number, size: number): boolean {
  return Number.isInteger(price) && price > 0 && price < PRICE_ONE && Number.isSafeInteger(size) && size >= 0;
}
