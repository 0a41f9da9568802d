import { formatUnits } from '../../../engine/protocol/amounts.js';
import { toMicros } from '../format.js';
import type { BookLevel, BookSnapshot } from '../api/types.js';

export interface LadderRow {
  price: string;
  size: string;
  /** Shares from the best price up to and including this level. */
  cumulative: string;
  /** Bar width, 0..100, of the cumulative depth against the deeper side shown. */
  depthPct: number;
}

export interface Ladder {
  /** Top to bottom: highest ask first, best (lowest) ask last, next to the spread. */
  asks: LadderRow[];
  /** Top to bottom: best (highest) bid first. */
  bids: LadderRow[];
  bestBid?: string;
  bestAsk?: string;
  spread?: string;
  mid?: string;
}

/**
 * Builds the displayed ladder from a snapshot. On the wire bids ascend and asks descend, so the best
 * price of each side is the LAST element (the public clients' convention); the ladder puts both best
 * prices next to the spread row. Depth is summed in micro-units (bigint), never floats.
 */
export function bookLadder(book: Pick<BookSnapshot, 'bids' | 'asks'>, depth = 12): Ladder {
  const bestFirstBids = [...book.bids].reverse().slice(0, depth);
  const bestFirstAsks = [...book.asks].reverse().slice(0, depth);
  const bidRows = cumulate(bestFirstBids);
  const askRows = cumulate(bestFirstAsks);
  const maxDepth = [bidRows.at(-1)?.cum ?? 0n, askRows.at(-1)?.cum ?? 0n].reduce((a, b) => (a > b ? a : b), 0n);
  const toRow = (r: { level: BookLevel; cum: bigint }): LadderRow => ({
    price: r.level.price,
    size: r.level.size,
    cumulative: formatUnits(r.cum),
    depthPct: maxDepth > 0n ? Number((r.cum * 10000n) / maxDepth) / 100 : 0,
  });

  const ladder: Ladder = { asks: askRows.map(toRow).reverse(), bids: bidRows.map(toRow) };
  const bb = bestFirstBids[0] ? toMicros(bestFirstBids[0].price) : undefined;
  const ba = bestFirstAsks[0] ? toMicros(bestFirstAsks[0].price) : undefined;
  if (bb !== undefined) ladder.bestBid = formatUnits(bb);
  if (ba !== undefined) ladder.bestAsk = formatUnits(ba);
  if (bb !== undefined && ba !== undefined) {
    ladder.spread = formatUnits(ba - bb);
    ladder.mid = formatUnits((ba + bb) / 2n);
  }
  return ladder;
}

function cumulate(levels: BookLevel[]): { level: BookLevel; cum: bigint }[] {
  let cum = 0n;
  return levels.map((level) => {
    cum += toMicros(level.size) ?? 0n;
    return { level, cum };
  });
}
