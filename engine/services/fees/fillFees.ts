import type { FeeSchedule } from '../../protocol/feeSchedule.js';
import { makerRebate, takerFee } from './takerFee.js';

/** What one fill moves through the fee account: the taker's fee in, the maker's rebate out. */
export interface FillFees {
  readonly fee: bigint;
  readonly rebate: bigint;
}

/**
 * The fee and rebate of one fill under the market's schedule (decisions §10), in collateral micro-units.
 * - A SELL taker pays out of the fill's proceeds: the fee never exceeds them (half-up rounding of a
 *   sub-cent fill could), so a seller's balance never goes below what it held.
 * - The rebate never exceeds the fee of the same fill, so the fee account, credited first, stays ≥ 0,
 *   except on a mirrored market's print (`publicTaker`): the public taker paid its fee upstream, the
 *   local maker still earns the rebate it would have earned there, paid by the fee account.
 * - The public-market account (`publicMaker`) earns no rebate here: its makers are paid upstream.
 */
export function fillFees(
  schedule: FeeSchedule,
  fill: { takerSide: 'BUY' | 'SELL'; takerPrice: bigint; size: bigint; takerCollateral: bigint; publicTaker?: boolean; publicMaker?: boolean },
): FillFees {
  let fee = fill.publicTaker ? 0n : takerFee(schedule, fill.takerPrice, fill.size);
  if (fill.takerSide === 'SELL' && fee > fill.takerCollateral) fee = fill.takerCollateral;
  let rebate = fill.publicMaker ? 0n : makerRebate(schedule, fill.takerPrice, fill.size);
  if (!fill.publicTaker && rebate > fee) rebate = fee;
  return { fee, rebate };
}
