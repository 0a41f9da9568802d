import { formatUnits, parseUnits } from '../../engine/protocol/amounts.js';

/**
 * Display helpers. Amounts stay decimal strings / bigint micro-units; a float is only ever used for
 * a bar width or a percentage on screen, never for an amount that is sent or summed.
 */

/** "0.5" → "0.50" at the tick's decimals (tick "0.01" → 2). */
export function tickDecimals(tick: string | number): number {
  const t = String(tick);
  const i = t.indexOf('.');
  return i < 0 ? 0 : t.length - i - 1;
}

export function fixedDecimals(value: string | number | undefined | null, decimals: number): string {
  if (value === undefined || value === null || value === '') return '—';
  const micros = toMicros(value);
  if (micros === undefined) return String(value);
  const neg = micros < 0n;
  const abs = neg ? -micros : micros;
  const scale = 10n ** BigInt(6 - Math.min(decimals, 6));
  const rounded = (abs + scale / 2n) / scale; // half-up at the shown precision
  const s = rounded.toString().padStart(decimals + 1, '0');
  const whole = decimals > 0 ? s.slice(0, -decimals) : s;
  const frac = decimals > 0 ? '.' + s.slice(-decimals) : '';
  return (neg ? '-' : '') + Number(whole).toLocaleString('en-US') + frac;
}

/** A decimal string or JSON number as 6-dp micro-units; undefined when it is not a plain decimal. */
export function toMicros(value: string | number): bigint | undefined {
  let text = typeof value === 'number' ? value.toFixed(6) : value.trim();
  let neg = false;
  if (text.startsWith('-')) {
    neg = true;
    text = text.slice(1);
  }
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const frac = (m[2] ?? '').slice(0, 6);
  const v = parseUnits(frac ? `${m[1]}.${frac}` : m[1]!);
  if (v === undefined) return undefined;
  return neg ? -v : v;
}

/** 6-dp integer strings (balance-allowance) as collateral units: "10000000000" → "10,000.00". */
export function baseUnitsToDisplay(units: string | undefined, decimals = 2): string {
  if (units === undefined) return '—';
  if (!/^\d+$/.test(units)) return units;
  return fixedDecimals(formatUnits(BigInt(units)), decimals);
}

export function shortAddress(a: string | undefined | null): string {
  if (!a) return '—';
  return a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

export function shortId(id: string | undefined | null, n = 8): string {
  if (!id) return '—';
  return id.length > n + 2 ? `${id.slice(0, n)}…` : id;
}

/**
 * A record id as head…tail: ULIDs made in the same millisecond share their first ten characters, so a
 * prefix alone showed two different trades with the same id (issue 14, 9).
 */
export function shortRecordId(id: string | undefined | null): string {
  if (!id) return '—';
  return id.length > 12 ? `${id.slice(0, 4)}…${id.slice(-6)}` : id;
}

export function timeOf(value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === '') return '—';
  let ms: number;
  if (typeof value === 'number') ms = value < 1e12 ? value * 1000 : value;
  else if (/^\d+$/.test(value)) ms = Number(value) < 1e12 ? Number(value) * 1000 : Number(value);
  else ms = Date.parse(value);
  if (!Number.isFinite(ms)) return String(value);
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Share of `part` in `whole` for bar widths, 0..100. */
export function percentOf(part: bigint, whole: bigint): number {
  if (whole <= 0n) return 0;
  return Number((part * 10000n) / whole) / 100;
}

/** How the terminal shows prices: decimals as the protocol has them, or cents like Polymarket's site. */
export type PriceStyle = 'decimal' | 'cents';

/** A price at the tick's decimals ("0.38"), or in cents ("38¢"; a 0.001 tick gives "61.7¢"). */
export function priceText(value: string | number | undefined | null, decimals: number, style: PriceStyle): string {
  if (style === 'decimal') return fixedDecimals(value, decimals);
  const micros = value === undefined || value === null || value === '' ? undefined : toMicros(value);
  if (micros === undefined) return fixedDecimals(value, decimals);
  return `${fixedDecimals(formatUnits(micros * 100n), Math.max(0, decimals - 2))}¢`;
}

/** The chain in plain words: a local test chain rather than "chain 31337". */
export function chainName(chainId: number, rpcUrl: string | null): string {
  if (rpcUrl === null) return 'no chain (paper trading only)';
  if (chainId === 31337) return 'local test chain';
  if (chainId === 137) return 'Polygon';
  if (chainId === 80002) return 'Polygon Amoy test chain';
  return `chain ${chainId}`;
}
