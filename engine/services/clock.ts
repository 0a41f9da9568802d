/** The services' only source of time, so tests can move it. The matching core never sees a clock. */
export interface Clock {
  nowMs(): number;
  /** Exchange milliseconds per wall millisecond (`--speed N`); timers divide their waits by it. Absent: 1. */
  readonly speed?: number;
}

/** How exchange time moves (decisions §11): with the wall clock (optionally N× faster), as fast as the work allows, or only when told. */
export type ClockMode = 'real' | 'fast' | 'stepped';

export const systemClock: Clock = { nowMs: () => Date.now() };

/** `--speed N`: exchange time starts at `startMs` and runs N times faster than the wall clock from there. */
export class ScaledClock implements Clock {
  private readonly wallStart: number;
  constructor(
    private readonly startMs: number,
    readonly speed: number,
    private readonly wall: Clock = systemClock,
  ) {
    this.wallStart = wall.nowMs();
  }
  nowMs(): number {
    return this.startMs + Math.floor((this.wall.nowMs() - this.wallStart) * this.speed);
  }
}

/** The wall-clock wait of a timer due at exchange time `atMs`. */
export function wallDelayMs(clock: Clock, atMs: number): number {
  return Math.max(0, (atMs - clock.nowMs()) / (clock.speed ?? 1));
}

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** What a stepped clock fires when time reaches it; answers how many things it processed. */
export type AlarmFire = () => Promise<number> | number;

/**
 * The clock of `fast` and `stepped` runs: time moves only when the advance driver moves it, and
 * services that would arm a wall-clock timer (GTD expiry) set an alarm here instead, which the driver
 * fires in time order between the participants' actions.
 */
export class SteppedClock extends ManualClock {
  private readonly alarms = new Map<object, { at: number; fire: AlarmFire }>();

  /** Sets (or with `at` undefined clears) the one alarm of `owner`. */
  setAlarm(owner: object, at: number | undefined, fire: AlarmFire): void {
    if (at === undefined) this.alarms.delete(owner);
    else this.alarms.set(owner, { at, fire });
  }

  /** The earliest alarm, if any. */
  nextAlarm(): { at: number; fire: AlarmFire } | undefined {
    let best: { at: number; fire: AlarmFire } | undefined;
    for (const a of this.alarms.values()) if (!best || a.at < best.at) best = a;
    return best;
  }
}
