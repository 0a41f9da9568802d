import { SteppedClock, wallDelayMs, type Clock } from '../clock.js';

interface Waiting {
  readonly at: number;
  readonly start: () => Promise<unknown>;
}

/**
 * Holds work (an order's matching on a mirrored market) until exchange time reaches a deadline: the fill
 * latency of decisions §10. On the real or scaled clock each wait is a timer; on a stepped clock (fast and
 * stepped runs) the earliest deadline is ONE alarm the advance driver fires in exchange-time order, and it
 * waits for the work it released (the commit), so a replay gives the same fills every time.
 */
export class LatencyGate {
  /** Deadlines in order (equal deadlines keep arrival order). */
  private readonly waiting: Waiting[] = [];

  constructor(private readonly clock: Clock) {}

  /** Runs `work` once the clock reached `at` (at once when it already has) and answers what it answers. */
  run<T>(at: number, work: () => Promise<T>): Promise<T> {
    if (at <= this.clock.nowMs()) return work();
    return new Promise<T>((resolve, reject) => {
      const start = (): Promise<unknown> => {
        const p = work();
        p.then(resolve, reject);
        return p.catch(() => undefined);
      };
      const clock = this.clock;
      if (!(clock instanceof SteppedClock)) {
        setTimeout(() => void start(), wallDelayMs(clock, at));
        return;
      }
      let i = this.waiting.length;
      while (i > 0 && this.waiting[i - 1]!.at > at) i--;
      this.waiting.splice(i, 0, { at, start });
      this.arm(clock);
    });
  }

  private arm(clock: SteppedClock): void {
    const first = this.waiting[0];
    clock.setAlarm(this, first?.at, async () => {
      const now = clock.nowMs();
      const due: Waiting[] = [];
      while (this.waiting.length > 0 && this.waiting[0]!.at <= now) due.push(this.waiting.shift()!);
      this.arm(clock);
      // Released in deadline order; each runs its synchronous matching before the next starts. The
      // driver counts what alarms return as expiries: these are placements, counted by the order stream.
      await Promise.all(due.map((w) => w.start()));
      return 0;
    });
  }
}
