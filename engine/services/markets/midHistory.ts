import type { Clock } from '../clock.js';
import type { OrderService } from '../orders/orderService.js';
import { ONE } from '../../protocol/amounts.js';

/** A month and a half of minutes: the longest chart range (1M) with room. */
const MAX_MINUTES = 45 * 24 * 60;

/**
 * The closing quote of each minute per market, in memory: what `/prices-history` reads for each bucket's
 * mid `m`. Kept as best bid + best ask on outcome 0, so either outcome's mid rounds exactly as GET
 * /midpoint does. Recorded whenever a book changes (one entry per minute, the last one wins); a restart
 * starts it afresh (a bucket with no quote recorded simply has no `m`).
 */
export class MidHistory {
  /** Per market the minutes and their best bid + best ask (micro-units; numbers: recorded on every book change, so no bigint per change). */
  private readonly byMarket = new Map<string, { minutes: number[]; mids: number[] }>();

  /** `bidPlusAsk`: outcome 0's best bid + best ask in micro-units (an integer below 2,000,000), undefined when one-sided. */
  record(conditionId: string, nowSec: number, bidPlusAsk: number | undefined): void {
    const minute = Math.floor(nowSec / 60) * 60;
    let h = this.byMarket.get(conditionId);
    if (!h) this.byMarket.set(conditionId, (h = { minutes: [], mids: [] }));
    const i = h.minutes.length - 1;
    // A one-sided book has no mid: -1 keeps the minute, so an old mid is not carried past it.
    const value = bidPlusAsk ?? -1;
    if (i >= 0 && h.minutes[i] === minute) h.mids[i] = value;
    else {
      h.minutes.push(minute);
      h.mids.push(value);
      if (h.minutes.length > MAX_MINUTES) {
        h.minutes.splice(0, h.minutes.length - MAX_MINUTES);
        h.mids.splice(0, h.mids.length - MAX_MINUTES);
      }
    }
  }

  /** The mid of an outcome last recorded before `endSec` (micro-units), if the book was two-sided then. */
  midBefore(conditionId: string, outcomeIndex: 0 | 1, endSec: number): bigint | undefined {
    const h = this.byMarket.get(conditionId);
    if (!h) return undefined;
    let lo = 0;
    let hi = h.minutes.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (h.minutes[mid]! < endSec) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const recorded = found < 0 ? undefined : h.mids[found];
    if (recorded === undefined || recorded < 0) return undefined;
    const sum = BigInt(recorded);
    // Outcome 1's bid and ask are 1 − outcome 0's ask and bid; half up, as GET /midpoint rounds.
    return ((outcomeIndex === 0 ? sum : 2n * ONE - sum) + 1n) / 2n;
  }
}

/** Records a market's current quote after its book changed. */
export function recordMid(mids: MidHistory, orders: Pick<OrderService, 'book'>, clock: Clock, conditionId: string): void {
  const book = orders.book(conditionId);
  if (!book) return;
  const bid = book.bestBid();
  const ask = book.bestAsk();
  // The book is in outcome 0's terms already.
  mids.record(conditionId, Math.floor(clock.nowMs() / 1000), bid === undefined || ask === undefined ? undefined : bid + ask);
}
