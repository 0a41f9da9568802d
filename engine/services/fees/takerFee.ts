import { ONE } from '../../protocol/amounts.js';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL, type LedgerEntry } from '../../store/balanceRepo.js';
import { rejection, type Rejection } from '../orders/placementResult.js';

/** Basis points in one whole (100 %). */
export const BPS = 10_000n;
const HALF = ONE / 2n;

/**
 * Where taker fees go: a fixed exchange account, so collateral stays conserved (every micro-unit a taker
 * pays is credited here, in the same ledger). Not a wallet anybody holds the key of.
 */
export const FEE_COLLECTOR = '0x000000000000000000000000000000000000fee0';

/**
 * The taker fee of one fill, in collateral micro-units, as the public exchange charges it:
 * fee = rate × min(price, 1 − price) × shares (decisions §9), with `price` the taker's execution price
 * on its own token. Rounding rule: DOWN (toward zero), per fill; the taker is never charged more than
 * the exact rate, and a fill too small to owe one micro-unit pays nothing.
 */
export function takerFee(feeRateBps: number, price: bigint, size: bigint): bigint {
  if (feeRateBps <= 0 || size <= 0n) return 0n;
  const edge = price < ONE - price ? price : ONE - price;
  return (BigInt(feeRateBps) * edge * size) / (BPS * ONE);
}

/**
 * The most a BUY with this limit price can pay in taker fees over `size` shares: it executes at prices
 * ≤ limit, where min(p, 1 − p) ≤ min(limit, ½). Summed per-fill fees (each rounded down) never exceed it,
 * so reserving it next to the limit cost makes the balance check cover the fee.
 */
export function takerFeeBound(feeRateBps: number, limitPrice: bigint, size: bigint): bigint {
  if (feeRateBps <= 0 || size <= 0n) return 0n;
  const edge = limitPrice < HALF ? limitPrice : HALF;
  return (BigInt(feeRateBps) * edge * size) / (BPS * ONE);
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
 * The public service's rule for a signed order's feeRateBps: it authorises the fee, so it must be at
 * least the market's rate (the public clients sign GET /fee-rate's `base_fee`). A higher value is
 * accepted; the fee charged is always the market's rate.
 */
export function feeRateRejection(signedFeeRateBps: string, marketFeeRateBps: number, tokenId: string): Rejection | undefined {
  const signed = /^\d{1,78}$/.test(signedFeeRateBps) ? BigInt(signedFeeRateBps) : -1n;
  if (signed >= BigInt(marketFeeRateBps)) return undefined;
  return rejection(
    'INVALID_ORDER_ERROR',
    `invalid fee rate (${signedFeeRateBps}), current market's taker fee rate is ${marketFeeRateBps} bps: sign the order with feeRateBps "${marketFeeRateBps}" (GET /fee-rate?token_id=${tokenId} returns it as base_fee).`,
  );
}

/**
 * The two ledger rows of a fill's taker fee: the taker pays `fee` collateral, the fee collector receives
 * it (kind 'trade', reason 'FEE', tied to the trade). None when the fee is zero.
 */
export function feeLedgerEntries(payer: string, fee: bigint, on: Omit<LedgerEntry, 'address' | 'asset' | 'delta' | 'kind' | 'reason'>): LedgerEntry[] {
  if (fee <= 0n) return [];
  return [
    { ...on, address: payer, asset: COLLATERAL, delta: -fee, kind: 'trade', reason: 'FEE' },
    { ...on, address: FEE_COLLECTOR, asset: COLLATERAL, delta: fee, kind: 'trade', reason: 'FEE' },
  ];
}
