import { PRICE_ONE } from '../../book/types.js';
import type { BookLevelText } from '../../protocol/bookHash.js';
import { formatMicros } from '../markets/formatMicros.js';
import type { LevelChanges } from './priceChangeText.js';

/**
 * A side's levels (token terms, best first) with each level's wire JSON `{"price":"…","size":"…"}`,
 * those WORST first (the wire order), so the side's JSON is one join of them.
 */
interface Levels {
  prices: number[];
  sizes: number[];
  pieces: string[];
}

/** Removed prices of the side being moved (they are listed after the changed ones): reused, as moves never overlap. */
const removed: string[] = [];

/**
 * One side of an asset's book as its stream subscribers were last told, in the token's terms, best first,
 * kept with its wire JSON: each level's text and the side's levels joined (worst first, as GET /book
 * writes them). A move re-formats only the levels that changed, and the asset's hash reuses the JSON of a
 * side that did not move. The levels are written into a second set of arrays and swapped, so a move
 * allocates only the texts of the changed levels and the side's JSON.
 */
export class PublishedSide {
  private current: Levels = { prices: [], sizes: [], pieces: [] };
  private spare: Levels = { prices: [], sizes: [], pieces: [] };
  /** The levels' wire JSON, worst first, without the brackets of the array (one flat string, read by every hash of the asset). */
  levelsJson = '';

  constructor(readonly side: 'BUY' | 'SELL') {}

  /** The best price (micro-units), undefined when the side is empty. */
  best(): number | undefined {
    return this.current.prices[0];
  }

  /** The levels as wire levels, best LAST (as GET /book). */
  wire(): BookLevelText[] {
    const { prices, sizes } = this.current;
    const out: BookLevelText[] = [];
    for (let i = prices.length - 1; i >= 0; i--) out.push({ price: formatMicros(prices[i]!), size: formatMicros(sizes[i]!) });
    return out;
  }

  /**
   * Moves the side to the levels `prices`/`sizes` (the book's outcome-0 terms, best first; `mirror` for
   * outcome 1, whose side is the other book side with prices 1 − p, still best first) and adds its level
   * changes to `changes`: changed or new levels in the new order, then the removed ones (size "0") in the
   * old order. One merge walk, as both lists are sorted the same way. False when nothing changed.
   */
  moveTo(prices: readonly number[], sizes: readonly number[], mirror: boolean, changes: LevelChanges): boolean {
    if (this.holds(prices, sizes, mirror)) return false;
    const from = this.current;
    const to = this.spare;
    // +1 when a higher price is better (bids), -1 when a lower one is (asks).
    const dir = this.side === 'BUY' ? 1 : -1;
    const oldCount = from.prices.length;
    const newCount = prices.length;
    to.pieces.length = newCount;
    let gone = 0;
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < oldCount || j < newCount) {
      const np = j < newCount ? tokenPrice(prices[j]!, mirror) : 0;
      const op = i < oldCount ? from.prices[i]! : 0;
      if (j < newCount && (i === oldCount || (np - op) * dir > 0)) {
        this.put(to, k++, newCount, np, sizes[j++]!, changes);
      } else if (i < oldCount && (j === newCount || (op - np) * dir > 0)) {
        removed[gone++] = formatMicros(op);
        i++;
      } else {
        if (sizes[j] !== from.sizes[i]) this.put(to, k++, newCount, np, sizes[j]!, changes);
        else {
          to.prices[k] = op;
          to.sizes[k] = from.sizes[i]!;
          to.pieces[newCount - 1 - k++] = from.pieces[oldCount - 1 - i]!;
        }
        i++;
        j++;
      }
    }
    for (let r = 0; r < gone; r++) changes.add(removed[r]!, '0', this.side);
    to.prices.length = k;
    to.sizes.length = k;
    this.current = to;
    this.spare = from;
    // Flat (a join, not a rope of concatenations): hashing reads it without copying it first.
    this.levelsJson = to.pieces.join(',');
    return true;
  }

  /** True when the side already shows exactly these levels (the common case for the side an event did not touch). */
  private holds(prices: readonly number[], sizes: readonly number[], mirror: boolean): boolean {
    const cur = this.current;
    if (cur.prices.length !== prices.length) return false;
    for (let j = 0; j < prices.length; j++) {
      if (cur.sizes[j] !== sizes[j] || cur.prices[j] !== tokenPrice(prices[j]!, mirror)) return false;
    }
    return true;
  }

  /** Writes the new level `k` (best first) of `count`, and notes it as a change. */
  private put(to: Levels, k: number, count: number, price: number, size: number, changes: LevelChanges): void {
    const p = formatMicros(price);
    const s = formatMicros(size);
    to.prices[k] = price;
    to.sizes[k] = size;
    to.pieces[count - 1 - k] = '{"price":"' + p + '","size":"' + s + '"}';
    changes.add(p, s, this.side);
  }
}

function tokenPrice(bookPrice: number, mirror: boolean): number {
  return mirror ? PRICE_ONE - bookPrice : bookPrice;
}
