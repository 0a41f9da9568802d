import { ApiError } from '../../protocol/errors.js';
import { INTENSITY_RANGE, KNOB_RANGES, LATENCY_RANGE } from '../../protocol/schemas/scenario.js';
import type { Role } from './agents.js';

/** The ranges of protocol/schemas/scenario.ts, checked again where a change arrives without the schema (the service API). */
function outOfRange(field: string, v: unknown, range: string): never {
  throw new ApiError('invalid_field', `${field} must be a number in ${range}; got ${JSON.stringify(v)}.`, { details: { field } });
}

export function checkedIntensity(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= INTENSITY_RANGE.exclusiveMinimum || v > INTENSITY_RANGE.maximum) {
    outOfRange(field, v, field === 'intervalSeconds' ? '[0.1, 3600] (at most 600 actions a minute)' : `(0, ${INTENSITY_RANGE.maximum}] actions per minute`);
  }
  return v;
}

export function checkedLatency(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < LATENCY_RANGE.minimum || v > LATENCY_RANGE.maximum) outOfRange(field, v, `[0, ${LATENCY_RANGE.maximum}] ms`);
  return v;
}

/** Knob changes must be knobs of this participant, numbers within their documented range, sides BUY/SELL. */
export function checkedKnobs(role: Role, current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(patch)) {
    const field = `knobs.${k}`;
    if (!(k in current)) throw new ApiError('invalid_field', `${field} is not a knob of a ${role}; it has ${Object.keys(current).join(', ')}.`, { details: { field } });
    const r = (KNOB_RANGES as Record<string, { minimum: number; maximum: number; integer?: boolean }>)[k];
    if (r) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < r.minimum || v > r.maximum || (r.integer && !Number.isInteger(v))) outOfRange(field, v, `[${r.minimum}, ${r.maximum}]${r.integer ? ' (whole)' : ''}`);
    } else if (v !== 'BUY' && v !== 'SELL') throw new ApiError('invalid_field', `${field} must be "BUY" or "SELL".`, { details: { field } });
  }
  return patch;
}
