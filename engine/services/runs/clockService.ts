import { ApiError } from '../../protocol/errors.js';
import { ManualClock, SteppedClock, type Clock, type ClockMode } from '../clock.js';
import type { SimulationService } from '../participants/simulationService.js';
import type { RunRecorder } from './runRecorder.js';

/** What the clock service drives: the exchange clock and the simulation's scheduler (participants, scenario events). */
export interface ClockDeps {
  readonly clock: Clock;
  readonly sim: Pick<SimulationService, 'scheduler' | 'participants'>;
}

/** What one advance ran (decisions §11). */
export interface Processed {
  participantOrders: number;
  scenarioEvents: number;
  tapeEvents: number;
  expiries: number;
}

export interface ClockStatus {
  mode: ClockMode;
  /** Exchange time, unix ms. */
  now: number;
  /** Exchange time when the run started, unix ms. */
  startedAt: number;
  /** Where the run's report and trade export go (fast and stepped runs). */
  runDir?: string;
}

/** Steps at one exchange millisecond before a run is declared stuck (a knob that schedules work with no wait). */
export const STALL_STEPS = 100_000;
/** The longest single advance: one year of exchange time. */
export const MAX_ADVANCE_MS = 366 * 24 * 3_600_000;
const MINUTE_MS = 60_000;
/** How long an advance waits for writes already under way to answer before it starts anyway. */
export const WRITE_DRAIN_MS = 5_000;

/**
 * Exchange time (decisions §11). In `stepped` mode time stands still until `advance`, which runs every
 * participant action, scenario event and GTD expiry due up to the target in exchange-time order (expiries
 * first at equal times, so an order due at t is gone before anyone acts at t), moving the clock from one
 * to the next, and samples the run's equity at every exchange minute. `fast` runs use the same driver
 * with no waits. While an advance runs, `advancing` is true and the HTTP layer refuses writes with
 * `409 clock_advancing`; reads see the state of the last committed step.
 */
export class ClockService {
  private busy = false;
  /** Writes admitted and not answered yet: an advance starts once they are, so none lands mid-advance. */
  private writes = 0;
  private settled: Array<() => void> = [];

  constructor(
    private readonly ctx: ClockDeps,
    readonly mode: ClockMode,
    readonly startedAt: number,
    readonly recorder?: RunRecorder,
  ) {}

  get advancing(): boolean {
    return this.busy;
  }

  /** A write request starts: false during an advance (the caller answers 409 clock_advancing), else counted until `writeDone`. */
  beginWrite(): boolean {
    if (this.busy) return false;
    this.writes++;
    return true;
  }

  writeDone(): void {
    this.writes = Math.max(0, this.writes - 1);
    if (this.writes === 0) for (const wake of this.settled.splice(0)) wake();
  }

  status(): ClockStatus {
    return { mode: this.mode, now: this.ctx.clock.nowMs(), startedAt: this.startedAt, ...(this.recorder ? { runDir: this.recorder.dir } : {}) };
  }

  /** `POST /admin/clock/advance`: `{seconds}` or `{until}` (unix ms), stepped mode only. */
  async advance(body: { seconds?: unknown; until?: unknown }): Promise<{ now: number; processed: Processed }> {
    if (this.mode !== 'stepped') {
      throw new ApiError('clock_not_stepped', `The exchange clock runs in '${this.mode}' mode; only an engine started with --clock stepped advances on request.`);
    }
    if (this.busy) throw new ApiError('clock_advancing', 'An advance is running; send the next one when it has answered.');
    const now = this.ctx.clock.nowMs();
    const until = targetOf(body, now);
    this.busy = true;
    try {
      await this.writesSettled();
      const processed = await this.runUntil(until);
      this.recorder?.write();
      return { now: this.ctx.clock.nowMs(), processed };
    } finally {
      this.busy = false;
    }
  }

  /** Runs everything due up to `until` (unix ms) on a manual clock, then leaves the clock there. */
  async runUntil(until: number): Promise<Processed> {
    const clock = this.ctx.clock;
    if (!(clock instanceof ManualClock)) throw new Error('running exchange time ahead needs a manual clock (--clock fast or stepped)');
    const stepped = clock instanceof SteppedClock ? clock : undefined;
    const sched = this.ctx.sim.scheduler;
    const ran = { ...sched.ran };
    const ordersBefore = this.participantOrders();
    let expiries = 0;
    let nextMinute = this.recorder ? (Math.floor(clock.nowMs() / MINUTE_MS) + 1) * MINUTE_MS : Infinity;
    let at = clock.nowMs();
    let sameMs = 0;
    for (;;) {
      const jobAt = sched.nextAt() ?? Infinity;
      const alarm = stepped?.nextAlarm();
      const alarmAt = alarm?.at ?? Infinity;
      const t = Math.min(jobAt, alarmAt, nextMinute);
      if (t > until) break;
      if (t > clock.nowMs()) clock.set(t);
      if (alarm && alarmAt === t) expiries += await alarm.fire();
      else if (t === nextMinute) {
        this.recorder!.sample(t);
        nextMinute += MINUTE_MS;
      } else await sched.runNext();
      if (clock.nowMs() !== at) {
        at = clock.nowMs();
        sameMs = 0;
      } else if (++sameMs > STALL_STEPS) {
        throw new ApiError(
          'clock_stalled',
          `The exchange clock stalled: simulated time stopped advancing at ${new Date(at).toISOString()}: ${STALL_STEPS} actions ran at that one millisecond. A participant's intensity is too high or its latencyMs too low (GET /admin/sim); lower it and advance again.`,
          { details: { at } },
        );
      }
    }
    if (until > clock.nowMs()) clock.set(until);
    return {
      participantOrders: this.participantOrders() - ordersBefore,
      scenarioEvents: sched.ran.scenario - ran.scenario,
      tapeEvents: sched.ran.tape - ran.tape,
      expiries,
    };
  }

  /** Resolves once no admitted write is still running (or after WRITE_DRAIN_MS, so a lost count cannot block advances). */
  private writesSettled(): Promise<void> {
    if (this.writes === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.writes = 0;
        resolve();
      }, WRITE_DRAIN_MS);
      timer.unref();
      this.settled.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private participantOrders(): number {
    let n = 0;
    for (const p of this.ctx.sim.participants()) n += p.orders;
    return n;
  }
}

function targetOf(body: { seconds?: unknown; until?: unknown }, now: number): number {
  const hasSeconds = body.seconds !== undefined;
  if (hasSeconds === (body.until !== undefined)) {
    throw new ApiError('invalid_field', 'Send either {"seconds": <number ≥ 0>} or {"until": <unix ms ≥ now>}, not both or neither.', { details: { field: 'seconds' } });
  }
  if (hasSeconds) {
    const s = body.seconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s * 1000 > MAX_ADVANCE_MS) {
      throw new ApiError('invalid_field', `seconds must be a JSON number from 0 to ${MAX_ADVANCE_MS / 1000} (one advance covers at most a year); got ${JSON.stringify(s)}.`, { details: { field: 'seconds' } });
    }
    return now + Math.round(s * 1000);
  }
  const u = body.until;
  if (typeof u !== 'number' || !Number.isInteger(u) || u < now || u - now > MAX_ADVANCE_MS) {
    throw new ApiError('invalid_field', `until must be an integer of unix milliseconds from now (${now}, GET /admin/clock) to a year ahead; got ${JSON.stringify(u)}.`, { details: { field: 'until' } });
  }
  return u;
}
