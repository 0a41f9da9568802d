import { PRICE_ONE } from '../../../book/types.js';

/**
 * Upstream decimals (reference §7.3: strings on the book and the market channel, numbers on CLOB
 * `/markets` and Gamma) to integer micro-units. Parsed from text, never through a float sum, so
 * "0.430" and "0.43" are the same 430_000.
 */
const DECIMAL = /^(\d{1,16})(?:\.(\d+))?$/;

/** `{ floor: true }` for the hot paths, so no options object is allocated per call. */
export const FLOOR = Object.freeze({ floor: true });

/** A non-negative decimal string to micro-units, flooring beyond 6 decimals (`floor`) or refusing them. */
export function microOf(text: string, opts?: { floor?: boolean }): number | undefined {
  // One pass over the characters (no match array, no substrings): every price and size of every frame
  // comes through here. Integer parts above 9 digits go to the grammar below, whose Number() is exact.
  const n = text.length;
  let i = 0;
  let int = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    int = int * 10 + (c - 48);
  }
  if (i === 0) return undefined;
  if (i > 9) return microOfGrammar(text, opts);
  if (i === n) return int * 1_000_000;
  if (text.charCodeAt(i) !== 46 || i + 1 === n) return undefined;
  const start = i + 1;
  let frac = 0;
  let beyond = false;
  for (i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    if (i - start < 6) frac = frac * 10 + (c - 48);
    else if (c !== 48) beyond = true;
  }
  if (beyond && !opts?.floor) return undefined;
  for (let k = n - start; k < 6; k++) frac *= 10;
  return int * 1_000_000 + frac;
}

/** microOf by the grammar itself (the reference the fast pass above is tested against). */
export function microOfGrammar(text: string, opts?: { floor?: boolean }): number | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const frac = m[2] ?? '';
  if (frac.length > 6 && !opts?.floor && /[1-9]/.test(frac.slice(6))) return undefined;
  const micro = Number(m[1]) * 1_000_000 + Number((frac + '000000').slice(0, 6));
  return Number.isSafeInteger(micro) ? micro : undefined;
}

/**
 * A JSON number as the upstream wrote it (0.001, 5) to micro-units: its shortest text is the
 * upstream's text (the same argument as feeSchedule.ts), so no float arithmetic is involved.
 */
export function microOfNumber(v: number): number | undefined {
  if (!Number.isFinite(v) || v < 0) return undefined;
  const text = String(v);
  // Exponent forms (1e-7) are below a micro-unit or absurdly large: refused.
  return /e/i.test(text) ? undefined : microOf(text);
}

/** String (book, market channel) or number (CLOB /markets, Gamma) to micro-units. */
export function microOfWire(v: unknown): number | undefined {
  if (typeof v === 'string') return microOf(v);
  if (typeof v === 'number') return microOfNumber(v);
  return undefined;
}

/** A price strictly inside (0, 1) on the tick grid, or why not. */
export function checkPrice(price: number | undefined, tick: number, text: unknown): string | undefined {
  if (price === undefined) return `price ${JSON.stringify(text)} is not a decimal string`;
  if (price <= 0 || price >= PRICE_ONE) return `price ${JSON.stringify(text)} is outside (0, 1)`;
  if (tick > 0 && price % tick !== 0) return `price ${JSON.stringify(text)} is off the ${tick / 1_000_000} tick`;
  return undefined;
}
