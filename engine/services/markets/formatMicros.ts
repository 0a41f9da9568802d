/** Fraction texts by remainder ("52" for 520000): prices and sizes repeat a lot, so most lookups hit. */
const FRACTIONS = new Map<number, string>();
/** Whole texts of values below 1 ("0.52"): prices, formatted on every book change, so kept as they are. */
const BELOW_ONE = new Map<number, string>();
const MAX_CACHED = 200_000;

/**
 * Formats a non-negative safe-integer count of micro-units (6 decimals) as a decimal string without
 * trailing zeros: 520000 → "0.52", 10000000 → "10". Integer arithmetic only (the remainder and the
 * exact quotient of a safe integer are exact), so no float ever shapes a price or size.
 */
export function formatMicros(n: number): string {
  if (n > 0 && n < 1_000_000) {
    let text = BELOW_ONE.get(n);
    if (text === undefined) {
      text = '0.' + fraction(n);
      if (BELOW_ONE.size < MAX_CACHED) BELOW_ONE.set(n, text);
    }
    return text;
  }
  const rem = n % 1_000_000;
  const whole = (n - rem) / 1_000_000;
  if (rem === 0) return String(whole);
  return whole + '.' + fraction(rem);
}

/** The digits after the point of a remainder in 1..999999, without trailing zeros. */
function fraction(rem: number): string {
  let frac = FRACTIONS.get(rem);
  if (frac === undefined) {
    const digits = String(rem).padStart(6, '0');
    let end = digits.length;
    while (digits.charCodeAt(end - 1) === 48) end--;
    frac = digits.slice(0, end);
    if (FRACTIONS.size < MAX_CACHED) FRACTIONS.set(rem, frac);
  }
  return frac;
}
