import { wallDelayMs, type Clock, type ManualClock } from '../clock.js';

/** What a job is, for the advance's counts (`POST /admin/clock/advance` answers them). */
export type JobKind = 'participant' | 'scenario' | 'tape' | 'marker';

/** Jobs allowed at one simulated instant before fast mode gives up (a whole market opening at once is a few dozen). */
export const STALL_JOBS = 100_000;

interface Job {
  at: number;
  seq: number;
  kind: JobKind;
  run: () => Promise<void> | void;
}

/**
 * The simulation's only timer, driven by the engine clock. Jobs run one at a time in (time, insertion)
 * order, so the sequence of participant actions is a function of the seed alone. Real time: one
 * setTimeout for the earliest job. Fast mode (a ManualClock): `runUntil` moves the clock from job to job
 * without waiting.
 */
export class SimScheduler {
  private readonly queue: Job[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private started = false;
  /** The job running now (a timer's drain or a fast/stepped advance), if any. */
  private running: Promise<void> | undefined;
  /** Jobs run so far, by kind. */
  readonly ran: Record<JobKind, number> = { participant: 0, scenario: 0, tape: 0, marker: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly manual?: ManualClock,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  /** Runs `run` at clock time `at` (ms). */
  at(at: number, run: Job['run'], kind: JobKind = 'participant'): void {
    const job = { at, seq: this.seq++, kind, run };
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const q = this.queue[mid]!;
      if (q.at < at || (q.at === at && q.seq < job.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, job);
    if (lo === 0) this.arm();
  }

  start(): void {
    this.started = true;
    this.arm();
  }

  /** Stops and forgets every job; a job already running goes on (`idle()` waits for it). */
  stop(): void {
    this.started = false;
    this.queue.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Resolves once no job is running (or after `timeoutMs`, so a job stuck on the network cannot hold a
   * shutdown): the engine awaits it after `stop()` so the last job's writes (a replay's final entry
   * closing its market and writing its report) happen before the stores close, not into closed ones.
   */
  async idle(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (let job = this.running; job; job = this.running) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([job, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
      if (this.running === job) return;
    }
  }

  /**
   * Fast mode: runs every job due up to `endMs`, setting the manual clock to each job's time, then to
   * endMs. Fails with a clear error when simulated time stops advancing (more than STALL_JOBS jobs at
   * one instant), instead of spinning for ever.
   */
  async runUntil(endMs: number): Promise<void> {
    if (!this.manual) throw new Error('runUntil needs a manual clock (fast mode)');
    let sameInstant = 0;
    while (this.queue.length > 0 && this.queue[0]!.at <= endMs) {
      if (this.queue[0]!.at > this.manual.nowMs()) sameInstant = 0;
      else if (++sameInstant > STALL_JOBS) {
        throw new Error(`simulated time stopped advancing at ${new Date(this.manual.nowMs()).toISOString()}: ${STALL_JOBS} jobs ran at that instant without the clock moving (a participant or scenario event rescheduling itself with no delay)`);
      }
      await this.runNext();
    }
    if (endMs > this.manual.nowMs()) this.manual.set(endMs);
  }

  /** The time of the earliest job, if any. */
  nextAt(): number | undefined {
    return this.queue[0]?.at;
  }

  /** Fast and stepped modes: runs the earliest job, first moving the manual clock to its time. */
  async runNext(): Promise<void> {
    if (!this.manual) throw new Error('runNext needs a manual clock (fast or stepped mode)');
    const job = this.queue.shift();
    if (!job) return;
    if (job.at > this.manual.nowMs()) this.manual.set(job.at);
    this.ran[job.kind]++;
    // Started synchronously, as before: stepped mode counts on the job having begun when this returns its promise.
    await this.track((async () => job.run())());
  }

  /** Runs the job as `running` until it settles (either way); answers its own outcome. */
  private async track(run: Promise<void>): Promise<void> {
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.running = settled;
    try {
      await run;
    } finally {
      if (this.running === settled) this.running = undefined;
    }
  }

  private arm(): void {
    if (this.manual || !this.started || this.draining) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.queue[0];
    if (!next) return;
    this.timer = setTimeout(() => void this.drain(), wallDelayMs(this.clock, next.at));
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    this.timer = undefined;
    this.draining = true;
    try {
      while (this.started && this.queue.length > 0 && this.queue[0]!.at <= this.clock.nowMs()) {
        const job = this.queue.shift()!;
        this.ran[job.kind]++;
        // Jobs handle their own errors; one that still throws must not stop the timer.
        await this.track(Promise.resolve().then(job.run)).catch(() => undefined);
      }
    } finally {
      this.draining = false;
      this.arm();
    }
  }
}
