import { ONE } from './amounts.js';
import type { FeeSchedule } from './feeSchedule.js';

/** Fees are rounded to 5 decimals of collateral: steps of 10 micro-units (0.00001). */
export const FEE_STEP = 10n;

/**
 * `share × size × rate × (p × (1 − p))^exponent` in micro-units of collateral, rounded half-up to 5
 * decimals (decisions §10). `share` (micro-units of one) is ONE for the taker fee itself, `rebateRate`
 * for the maker's rebate, so both are rounded once, from the exact product. All integer arithmetic:
 * with every factor a micro-unit integer the exact value is `num / den`, and `⌊(num + q/2) / q⌋ × 10`
 * with q = den × 10 is the half-up rounding to a multiple of 10 micro-units. Shared by the engine's
 * settlement and the terminal's previews, so both show the same amount.
 */
export function feeCurveAmount(s: FeeSchedule, share: bigint, price: bigint, size: bigint): bigint {
  if (s.rate <= 0n || share <= 0n || size <= 0n) return 0n;
  const curve = price > 0n && price < ONE ? price * (ONE - price) : 0n; // p(1 − p) in units of ONE²
  let num = share * size * s.rate;
  let den = ONE * ONE; // share and rate are micro-units of one
  for (let i = 0; i < s.exponent; i++) {
    num *= curve;
    den *= ONE * ONE;
  }
  const q = den * FEE_STEP;
  return ((num + q / 2n) / q) * FEE_STEP;
}

/** The taker fee of `size` shares filled at own-token `price` under schedule `s` (decisions §10). */
export function takerFeeOf(s: FeeSchedule, price: bigint, size: bigint): bigint {
  return feeCurveAmount(s, ONE, price, size);
}
