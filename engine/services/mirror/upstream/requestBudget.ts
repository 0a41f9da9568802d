import { systemClock, type Clock } from '../../clock.js';

/**
 * The mirror's request budget per upstream host: at most `requests` in any `windowMs` of wall time
 * (decisions §11: wall time protects the outside world, whatever the exchange clock does).
 *
 * The public limits (reference §1, §2.8, per 10 s): Gamma `/markets` 300, `/public-search` 350, general 4,000;
 * CLOB `/book` 1,500, tick size 200, general 9,000. 100 per 10 s per host stays below the smallest of
 * them (200) by half, and still covers a resync of 50 mirrored markets at once plus the 60 s polls.
 * A request over budget waits for a slot (queued in order); one that would wait longer than its
 * deadline, or find the queue full, is refused instead, so the budget is never exceeded.
 */
export const UPSTREAM_BUDGET = Object.freeze({ requests: 100, windowMs: 10_000, maxQueued: 200 });

export interface BudgetLimits {
  readonly requests: number;
  readonly windowMs: number;
  readonly maxQueued: number;
}

export class RequestBudget {
  /** Wall ms of the requests granted within the last window, oldest first. */
  private readonly granted: number[] = [];
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly limits: BudgetLimits = UPSTREAM_BUDGET,
    private readonly wall: Clock = systemClock,
  ) {}

  /** Resolves when a request may go now; false when it would have to wait past `maxWaitMs` or the queue is full. */
  acquire(maxWaitMs: number): Promise<boolean> {
    if (this.queued >= this.limits.maxQueued) return Promise.resolve(false);
    this.queued++;
    // One waiter at a time, in arrival order: each sees the window its predecessors left.
    const deadline = this.wall.nowMs() + maxWaitMs;
    const turn = this.tail.then(() => this.take(deadline));
    this.tail = turn.then(() => undefined);
    return turn.finally(() => this.queued--);
  }

  /** Requests granted within the current window (for tests and the status line). */
  inWindow(): number {
    this.expire(this.wall.nowMs());
    return this.granted.length;
  }

  /** `deadline`: wall ms by which the request must be on its way (its wait in the queue counts). */
  private async take(deadline: number): Promise<boolean> {
    for (;;) {
      const now = this.wall.nowMs();
      this.expire(now);
      if (this.granted.length < this.limits.requests) {
        this.granted.push(now);
        return true;
      }
      const freeAt = this.granted[0]! + this.limits.windowMs;
      if (freeAt > deadline) return false;
      await new Promise((r) => setTimeout(r, Math.max(1, freeAt - now)));
    }
  }

  private expire(now: number): void {
    while (this.granted.length > 0 && this.granted[0]! + this.limits.windowMs <= now) this.granted.shift();
  }
}
