import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import type { Infra } from '../infra.js';
import type { AuthService } from '../auth/authService.js';
import { SlidingLog } from './slidingLog.js';

export interface RateWindow {
  limit: number;
  windowMs: number;
}

/** The interface §8 table. Every class also counts against `general` (the trading API's overall limit). */
export const RATE_CLASSES = {
  general: [{ limit: 5000, windowMs: 10_000 }],
  health: [{ limit: 50, windowMs: 10_000 }],
  book: [{ limit: 200, windowMs: 10_000 }],
  books: [{ limit: 80, windowMs: 10_000 }],
  price: [{ limit: 200, windowMs: 10_000 }],
  prices: [{ limit: 80, windowMs: 10_000 }],
  midpoint: [{ limit: 200, windowMs: 10_000 }],
  pricesHistory: [{ limit: 100, windowMs: 10_000 }],
  trades: [{ limit: 150, windowMs: 10_000 }],
  // Burst and sustained windows both apply.
  postOrder: [
    { limit: 2400, windowMs: 10_000 },
    { limit: 24_000, windowMs: 600_000 },
  ],
  deleteOrder: [
    { limit: 2400, windowMs: 10_000 },
    { limit: 24_000, windowMs: 600_000 },
  ],
} as const satisfies Record<string, readonly RateWindow[]>;

export type RateClass = keyof typeof RATE_CLASSES;

const ROUTE_CLASSES: Record<string, RateClass> = {
  'GET /': 'health',
  'GET /book': 'book',
  'POST /books': 'books',
  'GET /price': 'price',
  'POST /prices': 'prices',
  'GET /midpoint': 'midpoint',
  'GET /prices-history': 'pricesHistory',
  'GET /trades': 'trades',
  'POST /order': 'postOrder',
  'DELETE /order': 'deleteOrder',
};

/** What the rate limiter uses: the clock, its config, and whether a key is live (auth service). */
export type RateLimiterDeps = Pick<Infra, 'clock' | 'wallClock' | 'config'> & { readonly auth: Pick<AuthService, 'isLiveKey'> };

/** The class of a request, or null for traffic the table does not limit (data service, terminal files). */
export function classify(method: string, path: string): RateClass | null {
  if (path === '/data-api' || path.startsWith('/data-api/')) return null; // interface §8: none enforced yet
  if (path === '/app' || path.startsWith('/app/')) return null; // the terminal's static files
  return ROUTE_CLASSES[`${method} ${path}`] ?? 'general';
}

export type Admission =
  | { ok: true; delayMs: number; limit: number; remaining: number; resetMs: number; policy: string }
  | { ok: false; retryAfterSec: number; limit: number; policy: string };

interface Counted {
  log: SlidingLog;
  w: RateWindow;
}

/**
 * Sliding-window rate limits per API key (SERVICE_API_KEY), else per client IP (interface §8,
 * decisions §3). A request over a limit is QUEUED: it waits until every window it counts in admits it.
 * Each window's queue holds at most one window's worth of requests per client; past that the answer is
 * 429 rate_limited with Retry-After.
 *
 * Windows are sliding logs of admission times. A queued request's time is its scheduled start, and a
 * window counts every time after its start, future ones included, so no window ever holds more than its
 * limit however requests of different classes interleave.
 */
export class RateLimiter {
  private readonly logs = new Map<string, SlidingLog>();
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private admissions = 0;
  private stopped = false;

  private readonly sleep: (ms: number) => Promise<void>;

  /** `sleep` is replaceable so tests can observe queueing without waiting. */
  constructor(
    private readonly ctx: RateLimiterDeps,
    sleep?: (ms: number) => Promise<void>,
  ) {
    this.sleep = sleep ?? ((ms) => this.realSleep(ms));
  }

  get enabled(): boolean {
    return this.ctx.config.rateLimits && !this.stopped;
  }

  /** Decides when a request of `cls` from `client` may run, and records it. Pure except for the logs. */
  admit(client: string, cls: RateClass, nowMs = (this.ctx.wallClock ?? this.ctx.clock).nowMs()): Admission {
    const counted: Counted[] = [];
    const add = (name: RateClass) =>
      RATE_CLASSES[name].forEach((w, i) => {
        const key = `${client}\u0000${name}\u0000${i}`;
        let log = this.logs.get(key);
        if (!log) this.logs.set(key, (log = new SlidingLog()));
        log.prune(nowMs - w.windowMs);
        counted.push({ log, w });
      });
    add(cls);
    if (cls !== 'general') add('general');
    const policy = counted.map((c) => `${c.w.limit};w=${c.w.windowMs / 1000}`).join(', ');

    // Earliest start: for each window, once the limit-th most recent slot has left it.
    let start = nowMs;
    for (const { log, w } of counted) if (log.size >= w.limit) start = Math.max(start, log.at(log.size - w.limit) + w.windowMs);

    if (start > nowMs) {
      // Bounded queue: at most one window's worth of queued (future) slots per window and client.
      for (const { log, w } of counted) {
        const queued = log.countAfter(nowMs);
        if (queued >= w.limit) {
          const freesAt = log.at(log.size - w.limit);
          return { ok: false, retryAfterSec: Math.max(1, Math.ceil((freesAt - nowMs) / 1000)), limit: w.limit, policy };
        }
      }
    }

    for (const c of counted) c.log.insert(start);
    if (++this.admissions % 4096 === 0) this.sweep(nowMs);

    // Report, as of now, the window closest to its limit (queued slots count as used).
    let limit = counted[0]!.w.limit;
    let remaining = Number.POSITIVE_INFINITY;
    let resetMs = 0;
    for (const { log, w } of counted) {
      const used = log.countAfter(nowMs - w.windowMs);
      const left = Math.max(0, w.limit - used);
      if (left < remaining) {
        remaining = left;
        limit = w.limit;
        // Remaining grows by one when this slot leaves the window.
        resetMs = Math.max(0, log.at(log.size - Math.min(used, w.limit)) + w.windowMs - nowMs);
      }
    }
    return { ok: true, delayMs: start - nowMs, limit, remaining, resetMs, policy };
  }

  /** Fastify onRequest hook: classifies, queues (by sleeping) or rejects, and sets the headers. */
  readonly hook = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!this.enabled) return;
    const cls = classify(req.method, req.routeOptions?.url ?? req.url.split('?')[0]!);
    if (cls === null) return;
    const a = this.admit(clientKey(req, (k) => this.ctx.auth.isLiveKey(k)), cls);
    if (!a.ok) {
      throw new ApiError(
        'rate_limited',
        `Too many requests from this client are already queued (limit ${a.policy}). Retry after ${a.retryAfterSec} s and keep below these limits (docs/api.md, Rate limits).`,
        // The 429 carries the same headers as an admitted answer, so a client's usage meter stays whole.
        { headers: { 'retry-after': String(a.retryAfterSec), 'x-ratelimit-limit': String(a.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(a.retryAfterSec), 'x-ratelimit-policy': a.policy } },
      );
    }
    void reply.headers({
      'x-ratelimit-limit': String(a.limit),
      'x-ratelimit-remaining': String(a.remaining),
      'x-ratelimit-reset': String(Math.ceil(a.resetMs / 1000)),
      'x-ratelimit-policy': a.policy,
      'x-ratelimit-queued-ms': String(a.delayMs),
    });
    if (a.delayMs > 0) await this.sleep(a.delayMs);
  };

  /** Releases every queued request at once (shutdown must not wait for queues to drain). */
  stop(): void {
    this.stopped = true;
    for (const s of this.sleepers) {
      clearTimeout(s.timer);
      s.resolve();
    }
    this.sleepers.clear();
  }

  /** Drops logs that no longer hold a slot, so idle clients cost nothing. */
  private sweep(nowMs: number): void {
    for (const [key, log] of this.logs) {
      const cls = key.split('\u0000')[1] as RateClass;
      const i = Number(key.split('\u0000')[2]);
      log.prune(nowMs - RATE_CLASSES[cls][i]!.windowMs);
      if (log.size === 0) this.logs.delete(key);
    }
  }

  private realSleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const s = { timer: setTimeout(() => (this.sleepers.delete(s), resolve()), ms), resolve };
      this.sleepers.add(s);
    });
  }
}

/**
 * Per API key when the request carries a key this exchange issued and has not revoked, else per client
 * IP. A made-up key per request (the header is the client's to choose) would otherwise be a fresh
 * bucket each time: unknown keys share the client's address bucket instead.
 */
export function clientKey(req: FastifyRequest, isLiveKey: (apiKey: string) => boolean): string {
  const key = req.headers['service_api_key'] ?? req.headers['poly_api_key'];
  const k = Array.isArray(key) ? key[0] : key;
  return k && isLiveKey(k) ? `key:${k}` : `ip:${req.ip}`;
}
