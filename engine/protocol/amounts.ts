/**
 * Money and share amounts: 6-decimal fixed point as bigint inside, decimal strings on the wire.
 * Never a float: parsing and formatting are pure string/bigint work.
 */

export const DECIMALS = 6;
export const ONE = 1_000_000n;

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;
const INTEGER_RE = /^\d+$/;

/** Parses "12.5" into 12_500_000n. Returns undefined for anything that is not a non-negative decimal with ≤ 6 decimals. */
export function parseUnits(text: string, decimals = DECIMALS): bigint | undefined {
  const m = DECIMAL_RE.exec(text);
  if (!m) return undefined;
  const whole = m[1]!;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return undefined;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/** Formats 12_500_000n as "12.5" (no trailing zeros, "0" for zero, "-" sign kept). */
export function formatUnits(value: bigint, decimals = DECIMALS): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const frac = abs % base;
  let out = whole.toString();
  if (frac !== 0n) out += '.' + frac.toString().padStart(decimals, '0').replace(/0+$/, '');
  return neg ? '-' + out : out;
}

/** Parses a base-unit integer string ("5200000") as bigint; undefined unless it is a plain non-negative integer. */
export function parseInteger(text: string): bigint | undefined {
  if (!INTEGER_RE.test(text)) return undefined;
  return BigInt(text);
}

export const UINT256_MAX = (1n << 256n) - 1n;

/** Largest integer the matching core handles as a JS number (it works on safe integers for speed). */
export const MAX_BOOK_UNITS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Largest paper collateral one address may hold, in 6-dp units (10^12 collateral): balances are SQLite
 * INTEGERs (signed 64-bit) and notionals multiply them, so the cap keeps every sum and product far
 * from overflow. A faucet credit that would pass it is a 400 naming `amount` and this maximum.
 */
export const MAX_BALANCE_UNITS = 10n ** 18n;

/** price × size / 1e6, rounded down: the collateral value of `size` shares at `price` (both 6-dp fixed point). */
export function notional(price: bigint, size: bigint): bigint {
  return (price * size) / ONE;
}

/** price × size / 1e6, rounded up. */
export function notionalCeil(price: bigint, size: bigint): bigint {
  return (price * size + ONE - 1n) / ONE;
}
