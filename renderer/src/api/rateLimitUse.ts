import { create } from 'zustand';

/** One answer's X-RateLimit-* headers: the window closest to its limit for that request's class. */
export interface RateReading {
  limit: number;
  remaining: number;
  /** The window's length in seconds (from X-RateLimit-Policy), how long the reading stays meaningful. */
  windowSec: number;
  policy: string;
  atMs: number;
}

export interface RateUse {
  used: number;
  limit: number;
  /** used / limit, 0..1. */
  share: number;
  /** Above 80 % the status bar turns to the warning colour. */
  warn: boolean;
}

export const WARN_SHARE = 0.8;

/** Reads a response's rate-limit headers; undefined when the answer was not limited (data service, files). */
export function readRateHeaders(headers: Headers, nowMs: number): RateReading | undefined {
  const limit = Number(headers.get('x-ratelimit-limit'));
  const remaining = Number(headers.get('x-ratelimit-remaining'));
  if (!headers.has('x-ratelimit-limit') || !Number.isFinite(limit) || limit <= 0 || !Number.isFinite(remaining)) return undefined;
  const policy = headers.get('x-ratelimit-policy') ?? `${limit};w=10`;
  // The reported window is the policy entry with this limit, e.g. "200;w=10, 5000;w=10" → 10 s.
  const m = new RegExp(`(?:^|,\\s*)${limit};w=(\\d+)`).exec(policy);
  return { limit, remaining: Math.max(0, Math.min(limit, remaining)), windowSec: m ? Number(m[1]) : 10, policy, atMs: nowMs };
}

/**
 * The use to show: of the readings whose window has not slid past yet, the one closest to its limit
 * (each class has its own window, so the tightest one is what throttles this client next).
 */
export function currentRateUse(readings: Iterable<RateReading>, nowMs: number): RateUse | undefined {
  let best: RateUse | undefined;
  for (const r of readings) {
    if (nowMs - r.atMs > r.windowSec * 1000) continue;
    const used = r.limit - r.remaining;
    const share = used / r.limit;
    if (!best || share > best.share) best = { used, limit: r.limit, share, warn: share > WARN_SHARE };
  }
  return best;
}

interface RateStore {
  /** The latest reading per policy (one per rate class). */
  readings: Record<string, RateReading>;
  record(r: RateReading): void;
}

export const useRateLimitStore = create<RateStore>((set) => ({
  readings: {},
  record: (r) => set((s) => ({ readings: { ...s.readings, [r.policy]: r } })),
}));

/** Notes a response's rate-limit headers in the store the status bar reads. */
export function observeRateLimit(res: Response): void {
  const r = readRateHeaders(res.headers, Date.now());
  if (r) useRateLimitStore.getState().record(r);
}

/** fetch for the client library: the same call, with every answer's rate-limit use recorded. */
export const rateLimitFetch: typeof fetch = async (...args) => {
  const res = await globalThis.fetch(...args);
  observeRateLimit(res);
  return res;
};
