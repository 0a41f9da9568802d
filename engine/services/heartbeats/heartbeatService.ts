import { randomUUID } from 'node:crypto';
import { ApiError } from '../../protocol/errors.js';
import type { Identity } from '../auth/authService.js';
import type { Infra } from '../infra.js';
import type { OrderService } from '../orders/orderService.js';

/** Without a heartbeat for this long, an armed API key's owner loses every resting order (trading-api.md §9.3). */
export const HEARTBEAT_TIMEOUT_MS = 10_000;
/** After a failed cancel-all the switch tries again this much later (the orders are still resting). */
const RETRY_MS = 1_000;
/** setTimeout refuses delays above 2^31−1 ms. */
const MAX_DELAY_MS = 2 ** 31 - 1;

interface Session {
  readonly id: string;
  readonly apiKey: string;
  readonly address: `0x${string}`;
  lastBeatMs: number;
}

/** What the switch did for one silent key: kept to explain a later beat that still carries the dead id. */
export interface SwitchFired {
  apiKey: string;
  address: string;
  heartbeatId: string;
  firedAtMs: number;
  /** Ids of the orders the switch cancelled. */
  canceled: string[];
}

/** What the heartbeat service uses: the clock and the order service's cancel-all (wired by engine/engine.ts). */
export type HeartbeatDeps = Pick<Infra, 'clock' | 'wallClock' | 'ids'> & { readonly orders: Pick<OrderService, 'cancelAll'> };

/**
 * The heartbeat "dead man's switch" (POST /v1/heartbeats). The first heartbeat of an API key opens a
 * session and arms the switch; each later heartbeat must come within HEARTBEAT_TIMEOUT_MS of the
 * previous one, or every resting order of the key's owner is cancelled through the order service's
 * cancel-all. A key that never sent a heartbeat is never touched.
 *
 * Time comes only from the wall clock (ctx.wallClock: a client's heartbeat cadence is wall time, decisions §11). One timer is armed for the earliest deadline and only wakes the
 * service up: `sweep()` decides from the clock what is due, so tests drive it with a ManualClock.
 * Sessions live in memory: a restarted engine starts disarmed (its clients' sessions end with it).
 */
export class HeartbeatService {
  /** Live sessions by API key. */
  private readonly sessions = new Map<string, Session>();
  /** The last firing per API key, so a beat with that dead id gets a 400 that says what happened. */
  private readonly fired = new Map<string, SwitchFired>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor: number | undefined;
  private stopped = false;
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: HeartbeatDeps,
    private readonly timeoutMs: number = HEARTBEAT_TIMEOUT_MS,
  ) {}

  /**
   * One heartbeat of `identity`'s API key. `previousId` null (or "") opens the key's session, or joins
   * the live one (so clients that never thread the id, like clob-client-v2's default, keep it alive).
   * Any other value must be the key's live session id, else 400 invalid_heartbeat_id naming why.
   */
  async beat(identity: Identity, previousId: string | null | undefined): Promise<{ heartbeat_id: string }> {
    // A switch that is already due fires before this beat counts: a late beat never rescues the orders.
    await this.sweep();
    const now = (this.ctx.wallClock ?? this.ctx.clock).nowMs();
    const key = identity.apiKey;
    const live = this.sessions.get(key);
    if (previousId === null || previousId === undefined || previousId === '') {
      if (live) {
        live.lastBeatMs = now;
        return { heartbeat_id: live.id };
      }
      const session: Session = { id: this.ctx.ids?.uuid('heartbeat') ?? randomUUID(), apiKey: key, address: identity.address, lastBeatMs: now };
      this.sessions.set(key, session);
      this.fired.delete(key);
      this.arm();
      return { heartbeat_id: session.id };
    }
    if (live && live.id === previousId) {
      live.lastBeatMs = now;
      return { heartbeat_id: live.id };
    }
    throw this.invalidId(key, previousId, live);
  }

  private invalidId(apiKey: string, sent: string, live: Session | undefined): ApiError {
    const shown = JSON.stringify(sent.slice(0, 100));
    const past = this.fired.get(apiKey);
    let why: string;
    if (live) {
      why = `${shown} is not this API key's heartbeat session; its live session is ${live.id} (returned here as heartbeat_id): send that one.`;
    } else if (past && past.heartbeatId === sent) {
      why =
        `session ${shown} expired at ${new Date(past.firedAtMs).toISOString()}: no heartbeat came within ${this.timeoutMs / 1000} s, ` +
        `so ${past.canceled.length} resting order(s) of ${past.address} were cancelled. Send {"heartbeat_id":null} to start a new session.`;
    } else {
      why = `${shown} is not a heartbeat session of this API key (it has none running). Send {"heartbeat_id":null} to start one.`;
    }
    return new ApiError('invalid_heartbeat_id', `Invalid Heartbeat ID: ${why}`, { body: { heartbeat_id: live?.id ?? null } });
  }

  /**
   * Fires the switch of every session whose last heartbeat is more than the timeout ago: cancels all
   * resting orders of its owner. The timer calls it; tests with a ManualClock call it after moving the
   * clock. Returns what fired.
   */
  async sweep(): Promise<SwitchFired[]> {
    const now = (this.ctx.wallClock ?? this.ctx.clock).nowMs();
    const due: Session[] = [];
    for (const s of this.sessions.values()) if (now - s.lastBeatMs > this.timeoutMs) due.push(s);
    // Removed before any await, so concurrent sweeps never fire one session twice.
    for (const s of due) this.sessions.delete(s.apiKey);
    const work = Promise.all(due.map((s) => this.fire(s, now)));
    this.inflight.add(work);
    try {
      const results = await work;
      return results.filter((r): r is SwitchFired => r !== undefined);
    } finally {
      this.inflight.delete(work);
      this.arm();
    }
  }

  private async fire(s: Session, now: number): Promise<SwitchFired | undefined> {
    try {
      const result = await this.ctx.orders.cancelAll({ address: s.address, apiKey: s.apiKey });
      const fired: SwitchFired = { apiKey: s.apiKey, address: s.address, heartbeatId: s.id, firedAtMs: now, canceled: result.canceled };
      this.fired.set(s.apiKey, fired);
      return fired;
    } catch {
      // The orders still rest: keep the session armed and retry shortly, unless the key started a new one meanwhile.
      if (!this.stopped && !this.sessions.has(s.apiKey)) this.sessions.set(s.apiKey, { ...s, lastBeatMs: now - this.timeoutMs + RETRY_MS });
      return undefined;
    }
  }

  /** Keys with an armed switch (for tests and the docs' "who is watched"). */
  get size(): number {
    return this.sessions.size;
  }

  /** (Re)arms the one timer for the earliest deadline. A beat only moves a deadline later, so it leaves an armed timer be. */
  private arm(): void {
    if (this.stopped) return;
    let earliest: number | undefined;
    for (const s of this.sessions.values()) {
      const at = s.lastBeatMs + this.timeoutMs + 1;
      if (earliest === undefined || at < earliest) earliest = at;
    }
    if (earliest === undefined) {
      this.clearTimer();
      return;
    }
    if (this.timer && this.armedFor !== undefined && this.armedFor <= earliest) return;
    this.clearTimer();
    const delay = Math.min(Math.max(0, earliest - (this.ctx.wallClock ?? this.ctx.clock).nowMs()), MAX_DELAY_MS);
    this.armedFor = earliest;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.armedFor = undefined;
      void this.sweep();
    }, delay);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
  }

  /** Stops watching (engine shutdown): clears the timer and waits for a cancel-all already under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await Promise.allSettled([...this.inflight]);
  }
}
