import { formatUnits, parseUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import type { AgentLimits } from '../../protocol/agentTypes.js';

export type { AgentLimits };

export const DEFAULT_LIMITS: AgentLimits = { maxOrderNotional: '1000', maxOpenOrders: 50, maxOrdersPerMinute: 60 };

function positiveInt(v: unknown, field: string, max: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1 || v > max) {
    throw new ApiError('invalid_field', `limits.${field} must be an integer from 1 to ${max}; got ${JSON.stringify(v)}.`, { details: { field: `limits.${field}` } });
  }
  return v;
}

/** Limits from an operator's request body: each field optional (the default), each checked. */
export function checkedLimits(raw: unknown): AgentLimits {
  if (raw === undefined) return { ...DEFAULT_LIMITS };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ApiError('invalid_field', 'limits must be an object {maxOrderNotional, maxOpenOrders, maxOrdersPerMinute}.', { details: { field: 'limits' } });
  const r = raw as Record<string, unknown>;
  const out = { ...DEFAULT_LIMITS };
  if (r.maxOrderNotional !== undefined) {
    const units = typeof r.maxOrderNotional === 'string' ? parseUnits(r.maxOrderNotional) : undefined;
    if (units === undefined || units <= 0n) throw new ApiError('invalid_field', `limits.maxOrderNotional must be a positive decimal string of collateral, e.g. "500"; got ${JSON.stringify(r.maxOrderNotional)}.`, { details: { field: 'limits.maxOrderNotional' } });
    out.maxOrderNotional = formatUnits(units);
  }
  if (r.maxOpenOrders !== undefined) out.maxOpenOrders = positiveInt(r.maxOpenOrders, 'maxOpenOrders', 10_000);
  if (r.maxOrdersPerMinute !== undefined) out.maxOrdersPerMinute = positiveInt(r.maxOrdersPerMinute, 'maxOrdersPerMinute', 10_000);
  return out;
}

/** Order placements of one agent in the last wall minute (a sliding window). */
export class PlacementWindow {
  private readonly times: number[] = [];

  /** Counts a placement at `now` when the window has room; false when the limit is reached. */
  take(now: number, perMinute: number): boolean {
    while (this.times.length > 0 && this.times[0]! <= now - 60_000) this.times.shift();
    if (this.times.length >= perMinute) return false;
    this.times.push(now);
    return true;
  }

  /** Seconds until the oldest placement leaves the window. */
  retryAfter(now: number): number {
    return this.times.length === 0 ? 0 : Math.max(1, Math.ceil((this.times[0]! + 60_000 - now) / 1000));
  }
}
