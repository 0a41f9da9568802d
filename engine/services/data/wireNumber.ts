/**
 * The one place where money becomes a JSON number. The data API sends numbers (data-api.md §3), but the
 * engine computes in bigint micro-units; converting through the exact decimal string ("12.5") and
 * Number() gives the double nearest to the exact 6-dp value, never an accumulated float error.
 */
import { formatUnits } from '../../protocol/amounts.js';

export const MICRO = 1_000_000n;
/** price (micro) × size (micro) products are kept in pico-units (1e-12) until the edge. */
export const PICO_PER_MICRO = 1_000_000n;

/** Integer division rounding half away from zero. */
export function divRound(num: bigint, den: bigint): bigint {
  if (den === 0n) throw new RangeError('division by zero');
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (n + d / 2n) / d;
  return neg ? -q : q;
}

/** Micro-units (6 dp) → JSON number. */
export function microToNumber(micro: bigint): number {
  return Number(formatUnits(micro));
}

/** Pico-units (a micro price × micro size product) → micro-units, rounded half away from zero. */
export function picoToMicro(pico: bigint): bigint {
  return divRound(pico, PICO_PER_MICRO);
}

/** A percentage num/den × 100 from exact integers; 0 when den is 0 (data-api.md §5: percentPnl 0 when initialValue = 0). */
export function percentOf(num: bigint, den: bigint): number {
  if (den === 0n) return 0;
  return Number(num * 100n) / Number(den);
}
