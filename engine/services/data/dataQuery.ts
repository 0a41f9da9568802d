/**
 * Query-parameter parsing for the data service (data-api.md §3, §9.2–9.4, decisions §5).
 *
 * Bad parameters are a 400 `invalid_query` whose message names the parameter, the offending value and
 * what would be accepted: never a silent clamp or default. The parsers take the raw query object
 * (strings from the URL, or values already coerced by the route schema) so the service validates the
 * same way whether it is called over HTTP or directly.
 */
import { parseUnits } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';

export type RawQuery = Record<string, unknown>;

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const HASH64_RE = /^0x[0-9a-fA-F]{64}$/;
const INT_RE = /^-?\d+$/;

export function invalidQuery(param: string, message: string): ApiError {
  return new ApiError('invalid_query', message, { details: { field: param, in: 'querystring' } });
}

/** Renders a received value for an error message, short and unambiguous. */
function shown(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `'${s.length > 80 ? s.slice(0, 77) + '...' : s}'`;
}

/** The parameter's value as text, or undefined when absent. Repeated parameters are refused. */
function text(q: RawQuery, name: string): string | undefined {
  const v = q[name];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) {
    if (v.length === 1) return String(v[0]);
    throw invalidQuery(name, `Query parameter '${name}' was given ${v.length} times; send it once (lists are one comma-separated value).`);
  }
  return String(v);
}

export function requireParam(q: RawQuery, name: string, what: string): string {
  const v = text(q, name);
  if (v === undefined || v.trim() === '') {
    throw invalidQuery(name, `Query parameter '${name}' is required: ${what}.`);
  }
  return v;
}

/** An integer in [min, max]; `fallback` when absent. */
export function intParam(q: RawQuery, name: string, fallback: number, min: number, max: number): number {
  const v = text(q, name);
  if (v === undefined || v === '') return fallback;
  if (!INT_RE.test(v.trim())) {
    throw invalidQuery(name, `Query parameter '${name}' must be an integer from ${min} to ${max}; got ${shown(v)}.`);
  }
  const n = Number(v.trim());
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalidQuery(name, `Query parameter '${name}' must be an integer from ${min} to ${max}; got ${shown(v)}.`);
  }
  return n;
}

/** An optional integer ≥ min (unix seconds, event ids). */
export function optionalIntParam(q: RawQuery, name: string, min: number, what: string): number | undefined {
  const v = text(q, name);
  if (v === undefined || v === '') return undefined;
  const n = Number(v.trim());
  if (!INT_RE.test(v.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw invalidQuery(name, `Query parameter '${name}' must be ${what}; got ${shown(v)}.`);
  }
  return n;
}

/**
 * A non-negative decimal amount (shares or collateral) as 6-dp micro-units. More than 6 decimals is
 * refused rather than rounded, so a threshold means exactly what was typed.
 */
export function amountParam(q: RawQuery, name: string, fallback: bigint | undefined): bigint | undefined {
  const v = text(q, name);
  if (v === undefined || v === '') return fallback;
  const trimmed = v.trim();
  const units = parseUnits(trimmed.startsWith('+') ? trimmed.slice(1) : trimmed);
  if (units === undefined) {
    throw invalidQuery(name, `Query parameter '${name}' must be a number ≥ 0 with at most 6 decimals (e.g. 1 or 0.5); got ${shown(v)}.`);
  }
  return units;
}

/** true/false (also 1/0); `fallback` when absent. */
export function boolParam(q: RawQuery, name: string, fallback: boolean): boolean {
  const v = text(q, name);
  if (v === undefined || v === '') return fallback;
  const t = v.trim().toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw invalidQuery(name, `Query parameter '${name}' must be true or false; got ${shown(v)}.`);
}

/**
 * One of `values` (case-insensitive), mapping the public clients' aliases (CASH_PNL → CASHPNL, ...).
 * Returns the canonical spelling.
 */
export function enumParam<T extends string>(
  q: RawQuery,
  name: string,
  values: readonly T[],
  fallback: T,
  aliases: Readonly<Record<string, string>> = {},
): T {
  const v = text(q, name);
  if (v === undefined || v === '') return fallback;
  const up = v.trim().toUpperCase();
  const canonical = aliases[up] ?? up;
  const hit = values.find((x) => x === canonical);
  if (hit === undefined) {
    throw invalidQuery(name, `Query parameter '${name}' must be one of ${values.join(', ')}; got ${shown(v)}.`);
  }
  return hit;
}

/** A comma-separated list of enum values (activity `type`). */
export function enumListParam<T extends string>(q: RawQuery, name: string, values: readonly T[]): T[] | undefined {
  const v = text(q, name);
  if (v === undefined || v.trim() === '') return undefined;
  const out: T[] = [];
  for (const item of v.split(',')) {
    const up = item.trim().toUpperCase();
    const hit = values.find((x) => x === up);
    if (hit === undefined) {
      throw invalidQuery(name, `Query parameter '${name}' holds ${shown(item.trim())}; each comma-separated item must be one of ${values.join(', ')}.`);
    }
    if (!out.includes(hit)) out.push(hit);
  }
  return out;
}

/** A wallet address in any case, returned lower case. */
export function addressParam(q: RawQuery, name: string, required: boolean): string | undefined {
  const v = required ? requireParam(q, name, 'a wallet address, 0x followed by 40 hex digits') : text(q, name);
  if (v === undefined || v === '') return undefined;
  const t = v.trim();
  if (!ADDRESS_RE.test(t)) {
    throw invalidQuery(name, `Query parameter '${name}' must be a wallet address, 0x followed by 40 hex digits; got ${shown(v)}.`);
  }
  return t.toLowerCase();
}

/** A comma-separated list of condition ids (0x + 64 hex), lower-cased, duplicates dropped, order kept. */
export function conditionListParam(q: RawQuery, name: string, required: boolean): string[] | undefined {
  const v = required
    ? requireParam(q, name, 'one or more condition ids, each 0x followed by 64 hex digits, comma-separated')
    : text(q, name);
  if (v === undefined || v.trim() === '') return undefined;
  const out: string[] = [];
  for (const item of v.split(',')) {
    const t = item.trim();
    if (!HASH64_RE.test(t)) {
      throw invalidQuery(
        name,
        `Query parameter '${name}' holds ${shown(t)}, which is not a condition id; each comma-separated item must be 0x followed by 64 hex digits.`,
      );
    }
    const lower = t.toLowerCase();
    if (!out.includes(lower)) out.push(lower);
  }
  return out;
}

/** A comma-separated list of event ids (integers ≥ 1), duplicates dropped, order kept. */
export function eventIdListParam(q: RawQuery, name: string): string[] | undefined {
  const v = text(q, name);
  if (v === undefined || v.trim() === '') return undefined;
  const out: string[] = [];
  for (const item of v.split(',')) {
    const t = item.trim();
    if (!/^\d+$/.test(t) || BigInt(t) < 1n) {
      throw invalidQuery(name, `Query parameter '${name}' holds ${shown(t)}; each comma-separated item must be an event id, an integer ≥ 1.`);
    }
    const canon = BigInt(t).toString();
    if (!out.includes(canon)) out.push(canon);
  }
  return out;
}

/** `market` and `eventId` filter the same thing two ways; the public API refuses both at once. */
export function marketOrEvent(q: RawQuery): { markets?: string[]; eventIds?: string[] } {
  const markets = conditionListParam(q, 'market', false);
  const eventIds = eventIdListParam(q, 'eventId');
  if (markets && eventIds) {
    throw invalidQuery('market', "Query parameters 'market' and 'eventId' are mutually exclusive; filter by one of them.");
  }
  return { ...(markets ? { markets } : {}), ...(eventIds ? { eventIds } : {}) };
}

/** A free-text filter with a length cap. */
export function textParam(q: RawQuery, name: string, maxLength: number): string | undefined {
  const v = text(q, name);
  if (v === undefined || v === '') return undefined;
  if (v.length > maxLength) {
    throw invalidQuery(name, `Query parameter '${name}' must be at most ${maxLength} characters; got ${v.length}.`);
  }
  return v;
}

/** `start`/`end` in unix seconds, with start ≤ end. */
export function timeWindow(q: RawQuery): { start?: number; end?: number } {
  const start = optionalIntParam(q, 'start', 0, 'unix seconds, an integer ≥ 0');
  const end = optionalIntParam(q, 'end', 0, 'unix seconds, an integer ≥ 0');
  if (start !== undefined && end !== undefined && start > end) {
    throw invalidQuery('start', `Query parameter 'start' (${start}) must not be after 'end' (${end}).`);
  }
  return { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) };
}
