import { SteppedClock, wallDelayMs, type Clock } from '../clock.js';

/** setTimeout refuses delays above 2^31−1 ms (~24.8 days); longer waits re-arm on wake-up. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Tracks GTD deadlines and keeps ONE timer armed for the earliest of them (not one per order).
 * The timer only wakes the service up; the service asks `due(now)` which orders are past their
 * deadline, so a clock that tests move by hand works as well as the system clock. On a stepped clock
 * (fast and stepped runs) the wake-up is an alarm the advance driver fires in exchange-time order.
 */
export class ExpiryTimer {
  private readonly deadlines = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor: number | undefined;
  private stopped = false;
  /** Cached earliest deadline; undefined with `dirty` means "recompute" (placements ask on every call). */
  private earliest: number | undefined;
  private dirty = false;

  constructor(
    private readonly clock: Clock,
    /** Expires what is due; a stepped clock's driver awaits what it returns (the commit). */
    private readonly onDue: () => unknown,
  ) {}

  /** Registers an order that must leave the book once the clock reaches `atMs`. */
  add(id: string, atMs: number): void {
    this.deadlines.set(id, atMs);
    if (!this.dirty && (this.earliest === undefined || atMs < this.earliest)) this.earliest = atMs;
    if (this.armedFor === undefined || atMs < this.armedFor) this.arm();
  }

  remove(id: string): void {
    const at = this.deadlines.get(id);
    if (at === undefined) return;
    this.deadlines.delete(id);
    if (at === this.earliest) this.dirty = true;
  }

  /** Ids whose deadline is ≤ nowMs, earliest first. */
  due(nowMs: number): string[] {
    const out: Array<[string, number]> = [];
    for (const [id, at] of this.deadlines) if (at <= nowMs) out.push([id, at]);
    out.sort((a, b) => a[1] - b[1]);
    return out.map(([id]) => id);
  }

  /** The earliest pending deadline, if any. */
  next(): number | undefined {
    if (this.dirty) {
      let min: number | undefined;
      for (const at of this.deadlines.values()) if (min === undefined || at < min) min = at;
      this.earliest = min;
      this.dirty = false;
    }
    return this.earliest;
  }

  /** Re-arms the single timer for the earliest deadline (call after handling due orders). */
  arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
    if (this.clock instanceof SteppedClock) {
      const clock = this.clock;
      const next = this.stopped ? undefined : this.next();
      clock.setAlarm(this, next, async () => {
        clock.setAlarm(this, undefined, () => 0);
        const n = this.due(clock.nowMs()).length;
        await this.onDue();
        return n;
      });
      return;
    }
    if (this.stopped) return;
    const next = this.next();
    if (next === undefined) return;
    const delay = Math.min(wallDelayMs(this.clock, next), MAX_DELAY_MS);
    this.armedFor = next;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.armedFor = undefined;
      this.onDue();
    }, delay);
    this.timer.unref();
  }

  get size(): number {
    return this.deadlines.size;
  }

  stop(): void {
    this.stopped = true;
    if (this.clock instanceof SteppedClock) this.clock.setAlarm(this, undefined, () => 0);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
  }
}
