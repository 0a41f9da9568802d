import { ONE } from '../../protocol/amounts.js';
import { FEE_STEP, feeCurveAmount, takerFeeOf } from '../../protocol/feeCurve.js';
import { ApiError } from '../../protocol/errors.js';
import { feeScheduleFromBps, feeScheduleToWire, parseFeeSchedule, type FeeSchedule } from '../../protocol/feeSchedule.js';
import { COLLATERAL, type LedgerEntry } from '../../store/balanceRepo.js';
import { rejection, type Rejection } from '../orders/placementResult.js';

/** Basis points in one whole (100 %). */
export const BPS = 10_000n;
const HALF = ONE / 2n;

/**
 * Where taker fees go and maker rebates come from: a fixed exchange account, so collateral stays
 * conserved (every micro-unit a taker pays is credited here, every rebate debited here, in the same
 * ledger). Not a wallet anybody holds the key of.
 */
export const FEE_COLLECTOR = '0x000000000000000000000000000000000000fee0';

/**
 * The taker fee of one fill, in collateral micro-units (decisions §10): `size × rate × (p × (1 − p))^exponent`
 * with `p` the taker's execution price on its own token, rounded half-up to 5 decimals (0.00001 is the
 * smallest fee above zero). Charged per fill.
 */
export function takerFee(schedule: FeeSchedule, price: bigint, size: bigint): bigint {
  return takerFeeOf(schedule, price, size);
}

/**
 * The maker's rebate of one fill: `rebateRate` × the fill's fee-equivalent, rounded the same way (from
 * the exact product, not from the rounded fee). p(1 − p) is the same on both tokens of a binary market,
 * so the maker's price and the taker's give the same amount. Never more than the fill's fee (half-up
 * rounding is monotone and rebateRate ≤ 1), so the fee account, credited with the fee first, never goes
 * below zero.
 */
export function makerRebate(schedule: FeeSchedule, price: bigint, size: bigint): bigint {
  return feeCurveAmount(schedule, schedule.rebateRate, price, size);
}

/**
 * The most a BUY with this limit price can pay in taker fees over `size` shares, split into at most
 * `maxFills` fills (the resting orders it can meet; each is filled at most once by one taker order).
 *
 * Why it covers every outcome: every fill i executes at an own-token price p_i ≤ limit, and
 * g(p) = (p(1 − p))^e rises on [0, ½] and is symmetric around ½, so g(p_i) ≤ g(m) with m = min(limit, ½).
 * The exact fees x_i = s_i × rate × g(p_i) therefore sum to at most X = size × rate × g(m). Half-up
 * rounding to steps of 10 micro-units adds at most 5 to a fill's fee, and a fill whose exact fee is
 * below 5 pays 0, so each rounded fee f_i ≤ min(x_i + 5, 2 × x_i). Summed:
 * Σ f_i ≤ X + min(X, 5 × maxFills). Rounded up to whole micro-units below. Exponent 0 (a flat
 * `size × rate`) is the same argument with g = 1.
 */
export function takerFeeBound(schedule: FeeSchedule, limitPrice: bigint, size: bigint, maxFills = Number.POSITIVE_INFINITY): bigint {
  if (schedule.rate <= 0n || size <= 0n) return 0n;
  const m = limitPrice < HALF ? limitPrice : HALF;
  const curve = m * (ONE - m);
  let num = size * schedule.rate;
  let den = ONE;
  for (let i = 0; i < schedule.exponent; i++) {
    num *= curve;
    den *= ONE * ONE;
  }
  const exact = (num + den - 1n) / den; // ⌈X⌉
  const rounding = Number.isFinite(maxFills) ? BigInt(Math.max(0, Math.ceil(maxFills))) * (FEE_STEP / 2n) : exact;
  return exact + (rounding < exact ? rounding : exact);
}

/**
 * The market's base fee in bps, what `GET /fee-rate` answers and a V1 order's signed `feeRateBps` must
 * reach: `rate × 10000` rounded half-up (a schedule built from `n` bps gives back `n`).
 */
export function baseFeeBps(schedule: FeeSchedule): number {
  return Number((schedule.rate * BPS + ONE / 2n) / ONE);
}

/** A fee rate the operator may set: an integer 0..10000 bps. */
export function checkedFeeRateBps(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > Number(BPS)) {
    throw new ApiError('invalid_field', `feeRateBps must be an integer number of basis points from 0 to 10000 (100 = 1 %); got ${JSON.stringify(value)}.`, {
      details: { field: 'feeRateBps' },
    });
  }
  return value;
}

/**
 * A fee schedule the operator may set (decisions §10), the public Gamma form (JSON numbers) or ours
 * (decimal strings). Makers pay nothing here: a schedule with `takerOnly: false` is refused rather than
 * stored and ignored.
 */
export function checkedFeeSchedule(value: unknown): FeeSchedule {
  const s = parseFeeSchedule(isFeeSchedule(value) ? feeScheduleToWire(value) : value);
  if ('problem' in s) {
    throw new ApiError('invalid_field', `${s.problem}; e.g. {"rate": "0.04", "exponent": 1, "takerOnly": true, "rebateRate": "0.25"}.`, { details: { field: 'feeSchedule' } });
  }
  if (!s.takerOnly) {
    throw new ApiError('invalid_field', 'feeSchedule.takerOnly must be true: only takers pay fees on this exchange (makers may get a rebateRate share instead).', {
      details: { field: 'feeSchedule' },
    });
  }
  return s;
}

/** Already the in-memory form (bigint rates), e.g. a mirrored market's identity. */
function isFeeSchedule(v: unknown): v is FeeSchedule {
  return typeof v === 'object' && v !== null && typeof (v as { rate?: unknown }).rate === 'bigint' && typeof (v as { rebateRate?: unknown }).rebateRate === 'bigint';
}

/** The schedule and base fee a market gets from the operator's input: a full schedule wins, else `feeRateBps`, else none. */
export function marketFees(input: { feeRateBps?: unknown; feeSchedule?: unknown }): { feeRateBps: number; feeSchedule: FeeSchedule } {
  if (input.feeSchedule !== undefined) {
    const feeSchedule = checkedFeeSchedule(input.feeSchedule);
    return { feeRateBps: input.feeRateBps !== undefined ? checkedFeeRateBps(input.feeRateBps) : baseFeeBps(feeSchedule), feeSchedule };
  }
  const bps = checkedFeeRateBps(input.feeRateBps ?? 0);
  return { feeRateBps: bps, feeSchedule: feeScheduleFromBps(bps) };
}

/**
 * The public service's rule for a signed order's feeRateBps: it authorises the fee, so it must be at
 * least the market's base fee (the public clients sign GET /fee-rate's `base_fee`). A higher value is
 * accepted; the fee charged always follows the market's schedule.
 */
export function feeRateRejection(signedFeeRateBps: string, marketFeeRateBps: number, tokenId: string): Rejection | undefined {
  const signed = /^\d{1,78}$/.test(signedFeeRateBps) ? BigInt(signedFeeRateBps) : -1n;
  if (signed >= BigInt(marketFeeRateBps)) return undefined;
  return rejection(
    'INVALID_ORDER_ERROR',
    `invalid fee rate (${signedFeeRateBps}), current market's taker fee rate is ${marketFeeRateBps} bps: sign the order with feeRateBps "${marketFeeRateBps}" (GET /fee-rate?token_id=${tokenId} returns it as base_fee).`,
  );
}

type LedgerContext = Omit<LedgerEntry, 'address' | 'asset' | 'delta' | 'kind' | 'reason'>;

/**
 * The two ledger rows of a fill's taker fee: the taker pays `fee` collateral, the fee collector receives
 * it (kind 'trade', reason 'FEE', tied to the trade). None when the fee is zero.
 */
export function feeLedgerEntries(payer: string, fee: bigint, on: LedgerContext): LedgerEntry[] {
  if (fee <= 0n) return [];
  return [
    { ...on, address: payer, asset: COLLATERAL, delta: -fee, kind: 'trade', reason: 'FEE' },
    { ...on, address: FEE_COLLECTOR, asset: COLLATERAL, delta: fee, kind: 'trade', reason: 'FEE' },
  ];
}

/**
 * The two ledger rows of a maker's rebate: the fee collector pays `rebate`, the maker receives it (reason
 * 'REBATE', tied to the trade and the maker's order). None when zero.
 */
export function rebateLedgerEntries(maker: string, rebate: bigint, on: LedgerContext): LedgerEntry[] {
  if (rebate <= 0n) return [];
  return [
    { ...on, address: FEE_COLLECTOR, asset: COLLATERAL, delta: -rebate, kind: 'trade', reason: 'REBATE' },
    { ...on, address: maker, asset: COLLATERAL, delta: rebate, kind: 'trade', reason: 'REBATE' },
  ];
}
