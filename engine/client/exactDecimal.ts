/**
 * Exact non-negative rationals for the amount math of the public clients (trading-api.md §8), which
 * they do in floats. Here every step is exact (bigint numerator / denominator), so the results are the
 * ones the float code intends, without its representation errors.
 */
import { OrderBuildError } from './clientHttpError.js';

export interface Rational {
  n: bigint;
  d: bigint;
}

const DECIMAL_RE = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal string or a JS number (through its shortest decimal form, e.g. 0.1 → "0.1"). */
export function toRational(x: string | number, what = 'value'): Rational {
  const text = typeof x === 'number' ? (Number.isFinite(x) ? String(x) : '') : x.trim();
  const m = DECIMAL_RE.exec(text);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw new OrderBuildError(`${what} must be a non-negative decimal number (got ${JSON.stringify(x)}).`);
  const digits = (m[1] ?? '') + (m[2] ?? '');
  const exp = -(m[2] ?? '').length + Number(m[3] ?? 0);
  let n = BigInt(digits || '0');
  let d = 1n;
  if (exp >= 0) n *= 10n ** BigInt(exp);
  else d = 10n ** BigInt(-exp);
  return reduce({ n, d });
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

function reduce(r: Rational): Rational {
  const g = gcd(r.n, r.d) || 1n;
  return { n: r.n / g, d: r.d / g };
}

export const mul = (a: Rational, b: Rational): Rational => reduce({ n: a.n * b.n, d: a.d * b.d });
export const div = (a: Rational, b: Rational): Rational => {
  if (b.n === 0n) throw new OrderBuildError('division by a zero price');
  return reduce({ n: a.n * b.d, d: a.d * b.n });
};
export const sub = (a: Rational, b: Rational): Rational => reduce({ n: a.n * b.d - b.n * a.d, d: a.d * b.d });
export const cmp = (a: Rational, b: Rational): number => {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
};

/** Number of decimals of x; Infinity when its expansion does not terminate. */
export function decimalPlaces(x: Rational): number {
  let d = x.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  return d === 1n ? Math.max(twos, fives) : Infinity;
}

const scale = (k: number) => 10n ** BigInt(k);

/** Half-up rounding to k decimals (the public roundNormal). */
export function roundNormal(x: Rational, k: number): Rational {
  if (decimalPlaces(x) <= k) return x;
  const s = scale(k);
  return reduce({ n: (2n * x.n * s + x.d) / (2n * x.d), d: s });
}

/** Floor to k decimals (the public roundDown). */
export function roundDown(x: Rational, k: number): Rational {
  if (decimalPlaces(x) <= k) return x;
  const s = scale(k);
  return reduce({ n: (x.n * s) / x.d, d: s });
}

/** Ceiling to k decimals (the public roundUp). */
export function roundUp(x: Rational, k: number): Rational {
  if (decimalPlaces(x) <= k) return x;
  const s = scale(k);
  return reduce({ n: (x.n * s + x.d - 1n) / x.d, d: s });
}

/** The public clients' amount fit: round up at amountDp+4 (their float clean-up), then down to amountDp. */
export function fit(x: Rational, amountDp: number): Rational {
  let r = x;
  if (decimalPlaces(r) > amountDp) {
    r = roundUp(r, amountDp + 4);
    if (decimalPlaces(r) > amountDp) r = roundDown(r, amountDp);
  }
  return r;
}

/** x in 6-decimal base units (x must have at most 6 decimals after the rounding above). */
export function toBaseUnits(x: Rational): bigint {
  return (x.n * 1_000_000n) / x.d;
}

/** Decimal text of x (terminating expansions only). */
export function formatRational(x: Rational): string {
  const k = decimalPlaces(x);
  if (!Number.isFinite(k)) throw new Error('non-terminating decimal');
  const s = scale(k);
  const v = (x.n * s) / x.d;
  if (k === 0) return v.toString();
  const t = v.toString().padStart(k + 1, '0');
  return (t.slice(0, -k) + '.' + t.slice(-k)).replace(/\.?0+$/, '');
}
