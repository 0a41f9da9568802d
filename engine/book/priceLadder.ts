/**
 * One side's non-empty price levels, sorted worst → best: `keys[i]` is sign × price (bids +1, asks −1, so
 * "better" is always "greater") and `levels[i]` the level's slot in the book's level storage. The best level
 * is the last entry, so reading it, and popping it when matching empties it, are O(1).
 *
 * Both arrays are Int32Arrays: a search probes a small contiguous array that stays in cache. New orders land
 * mostly a few levels from the touch, i.e. near the end, so a search gallops down from the best end
 * (O(log d) for a price d levels from the touch) and an insertion shifts only the entries above it.
 *
 * Why not an array or bitset over the whole price range: prices are integer micro-units in (0, PRICE_ONE),
 * a million of them, so direct indexing would cost megabytes per book whatever its depth, and a process
 * holds thousands of books. A deep book has hundreds of levels, where this costs a few kilobytes.
 */
export class PriceLadder {
  keys = new Int32Array(16);
  levels = new Int32Array(16);
  /** Number of levels. */
  n = 0;

  constructor(readonly sign: 1 | -1) {}

  /** Index of `key`, or −1 − the index where it would be inserted. */
  find(key: number): number {
    const keys = this.keys;
    const n = this.n;
    if (n === 0 || keys[n - 1]! < key) return -1 - n;
    // Gallop down from the best end: keys[hi] ≥ key, and the lower bound lies in (lo, hi].
    let hi = n - 1;
    let step = 1;
    let lo = hi - 1;
    while (lo >= 0 && keys[lo]! >= key) {
      hi = lo;
      step <<= 1;
      lo = hi - step;
    }
    let l = lo < 0 ? 0 : lo + 1;
    let h = hi;
    while (l < h) {
      const mid = (l + h) >>> 1;
      if (keys[mid]! < key) l = mid + 1;
      else h = mid;
    }
    return keys[l] === key ? l : -1 - l;
  }

  insertAt(at: number, key: number, level: number): void {
    if (this.n === this.keys.length) this.grow();
    const keys = this.keys;
    const levels = this.levels;
    // Usually a handful of entries near the touch: a plain loop beats copyWithin's call overhead.
    for (let i = this.n; i > at; i--) {
      keys[i] = keys[i - 1]!;
      levels[i] = levels[i - 1]!;
    }
    keys[at] = key;
    levels[at] = level;
    this.n++;
  }

  removeAt(at: number): void {
    const keys = this.keys;
    const levels = this.levels;
    const n = --this.n;
    for (let i = at; i < n; i++) {
      keys[i] = keys[i + 1]!;
      levels[i] = levels[i + 1]!;
    }
  }

  private grow(): void {
    const keys = new Int32Array(this.keys.length * 2);
    const levels = new Int32Array(this.levels.length * 2);
    keys.set(this.keys);
    levels.set(this.levels);
    this.keys = keys;
    this.levels = levels;
  }
}
