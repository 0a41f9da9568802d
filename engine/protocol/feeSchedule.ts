import { ONE, formatUnits, parseUnits } from './amounts.js';

/**
 * A market's fee schedule (decisions §10): the taker pays `shares × rate × (p × (1 − p))^exponent`,
 * rounded half-up to 5 decimals of collateral; where `rebateRate` > 0 the maker receives that share of
 * the fee-equivalent. Rates are 6-decimal fixed point (0.04 → 40_000n), never floats.
 */
export interface FeeSchedule {
  /** Fee rate, micro-units of one (0.072 → 72_000n). */
  readonly rate: bigint;
  /** Exponent of p × (1 − p); 1 on every public market seen so far. */
  readonly exponent: number;
  /** True: only takers pay (every public schedule so far). */
  readonly takerOnly: boolean;
  /** Maker's share of the fee-equivalent, micro-units of one (0.25 → 250_000n). */
  readonly rebateRate: bigint;
}

/** The wire form in market records: decimal strings for the rates. */
export interface FeeScheduleWire {
  rate: string;
  exponent: number;
  takerOnly: boolean;
  rebateRate: string;
}

/** Local markets default to no fee (decisions §10). */
export const NO_FEE: FeeSchedule = Object.freeze({ rate: 0n, exponent: 1, takerOnly: true, rebateRate: 0n });

/** A market created with only `feeRateBps: n` (decisions §10): `{rate: n/10000, exponent: 1, takerOnly: true, rebateRate: 0}`. */
export function feeScheduleFromBps(bps: number): FeeSchedule {
  return Object.freeze({ rate: (BigInt(bps) * ONE) / 10_000n, exponent: 1, takerOnly: true, rebateRate: 0n });
}

export function feeScheduleToWire(s: FeeSchedule): FeeScheduleWire {
  return { rate: formatUnits(s.rate), exponent: s.exponent, takerOnly: s.takerOnly, rebateRate: formatUnits(s.rebateRate) };
}

/**
 * Reads a schedule as the public Gamma market carries it (`{exponent: 1, rate: 0.04, takerOnly: true,
 * rebateRate: 0.25}`, JSON numbers) or as our wire form (decimal strings). Returns a reason on anything
 * else (negative, above 1, more than 6 decimals, non-integer exponent outside 0..4); never throws.
 */
export function parseFeeSchedule(v: unknown): FeeSchedule | { problem: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: 'fee schedule must be an object {rate, exponent, takerOnly, rebateRate}' };
  const o = v as Record<string, unknown>;
  const rate = rateOf(o.rate, 'rate');
  if (typeof rate !== 'bigint') return rate;
  const rebate = o.rebateRate === undefined || o.rebateRate === null ? 0n : rateOf(o.rebateRate, 'rebateRate');
  if (typeof rebate !== 'bigint') return rebate;
  const exponent = o.exponent === undefined || o.exponent === null ? 1 : o.exponent;
  if (typeof exponent !== 'number' || !Number.isInteger(exponent) || exponent < 0 || exponent > 4) return { problem: `fee schedule exponent must be an integer 0..4, not ${JSON.stringify(o.exponent)}` };
  const takerOnly = o.takerOnly === undefined || o.takerOnly === null ? true : o.takerOnly;
  if (typeof takerOnly !== 'boolean') return { problem: `fee schedule takerOnly must be a boolean, not ${JSON.stringify(o.takerOnly)}` };
  return Object.freeze({ rate, exponent, takerOnly, rebateRate: rebate });
}

function rateOf(v: unknown, name: string): bigint | { problem: string } {
  // A JSON number's shortest text is exactly what the upstream wrote (0.04 → "0.04"); exponents are refused below.
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : undefined;
  if (text === undefined || !/^\d+(\.\d{1,6})?$/.test(text)) return { problem: `fee schedule ${name} must be a decimal 0..1 with at most 6 decimals, not ${JSON.stringify(v)}` };
  const micro = parseUnits(text);
  if (micro === undefined) return { problem: `fee schedule ${name} is not a decimal: ${text}` };
  if (micro > ONE) return { problem: `fee schedule ${name} must be at most 1, not ${text}` };
  return micro;
}
