/**
 * Admission times of one client in one rate-limit class, sorted ascending. Times may lie in the future:
 * a queued request holds its slot from the moment it is scheduled to run.
 */
export class SlidingLog {
  private times: number[] = [];
  private head = 0;

  get size(): number {
    return this.times.length - this.head;
  }

  /** The i-th retained time, oldest first. */
  at(i: number): number {
    return this.times[this.head + i]!;
  }

  /** Forgets times at or before `cutoff`: they no longer count in any window that can still admit. */
  prune(cutoff: number): void {
    while (this.head < this.times.length && this.times[this.head]! <= cutoff) this.head++;
    // Compact occasionally so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  /** Inserts keeping order (nearly always an append). */
  insert(t: number): void {
    let i = this.times.length;
    while (i > this.head && this.times[i - 1]! > t) i--;
    this.times.splice(i, 0, t);
  }

  /** Number of retained times strictly after `t`. */
  countAfter(t: number): number {
    let lo = this.head;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return this.times.length - lo;
  }
}
