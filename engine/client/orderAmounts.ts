/**
 * Raw order amounts exactly as the public clients compute them (trading-api.md §8), in 6-decimal base
 * units, without floating point.
 */
import type { BookLevelText } from '../protocol/bookHash.js';
import type { Side } from '../protocol/eip712.js';
import { OrderBuildError } from './clientHttpError.js';
import { decimalPlaces, div, fit, formatRational, mul, roundDown, roundNormal, toBaseUnits, toRational, type Rational } from './exactDecimal.js';

export type TickSize = '0.1' | '0.01' | '0.001' | '0.0001';

export interface RoundConfig {
  /** decimals of a price */
  price: number;
  /** decimals of a size (shares) */
  size: number;
  /** decimals of a collateral amount */
  amount: number;
}

export const ROUNDING_CONFIG: Record<TickSize, RoundConfig> = {
  '0.1': { price: 1, size: 2, amount: 3 },
  '0.01': { price: 2, size: 2, amount: 4 },
  '0.001': { price: 3, size: 2, amount: 5 },
  '0.0001': { price: 4, size: 2, amount: 6 },
};

/** Normalises a tick given as number or text ("0.010" → "0.01"); throws for ticks the exchange does not use. */
export function toTickSize(tick: string | number): TickSize {
  const r = toRational(tick, 'tick size');
  for (const t of Object.keys(ROUNDING_CONFIG) as TickSize[]) {
    const v = toRational(t);
    if (v.n === r.n && v.d === r.d) return t;
  }
  throw new OrderBuildError(`tick size ${String(tick)} is not one of 0.1, 0.01, 0.001, 0.0001.`);
}

export interface RawAmounts {
  /** What the maker gives: collateral for BUY, shares for SELL (6-decimal base units). */
  makerAmount: bigint;
  /** What the maker receives: shares for BUY, collateral for SELL (6-decimal base units). */
  takerAmount: bigint;
  /** The price after rounding to the tick's decimals. */
  price: Rational;
}

function checkPriceRange(p: Rational, tick: TickSize, original: string | number): void {
  const t = toRational(tick);
  const max = { n: t.d - t.n, d: t.d };
  if (p.n * t.d < t.n * p.d || p.n * max.d > max.n * p.d) {
    throw new OrderBuildError(`invalid price (${String(original)}), min: ${tick} - max: ${formatRational(max)}`);
  }
}

/** Limit order (getOrderRawAmounts): `size` in shares, `price` per share. */
export function getOrderRawAmounts(side: Side, size: string | number, price: string | number, tickSize: TickSize): RawAmounts {
  const rc = ROUNDING_CONFIG[tickSize];
  const p = roundNormal(toRational(price, 'price'), rc.price);
  checkPriceRange(p, tickSize, price);
  const shares = roundDown(toRational(size, 'size'), rc.size);
  if (shares.n === 0n) throw new OrderBuildError(`size ${String(size)} rounds to 0 shares at ${rc.size} decimals.`);
  const collateral = fit(mul(shares, p), rc.amount);
  return side === 'BUY'
    ? { makerAmount: toBaseUnits(collateral), takerAmount: toBaseUnits(shares), price: p }
    : { makerAmount: toBaseUnits(shares), takerAmount: toBaseUnits(collateral), price: p };
}

/**
 * Market order (getMarketOrderRawAmounts): `amount` is collateral to spend for BUY, shares to sell for
 * SELL; `price` is the worst acceptable price (e.g. from walking the book).
 */
export function getMarketOrderRawAmounts(side: Side, amount: string | number, price: string | number, tickSize: TickSize): RawAmounts {
  const rc = ROUNDING_CONFIG[tickSize];
  const p = roundDown(toRational(price, 'price'), rc.price);
  checkPriceRange(p, tickSize, price);
  const maker = roundDown(toRational(amount, 'amount'), rc.size);
  if (maker.n === 0n) throw new OrderBuildError(`amount ${String(amount)} rounds to 0 at ${rc.size} decimals.`);
  const taker = side === 'BUY' ? fit(div(maker, p), rc.amount) : fit(mul(maker, p), rc.amount);
  if (decimalPlaces(taker) > 6) throw new OrderBuildError('amount has more than 6 decimals after rounding');
  return { makerAmount: toBaseUnits(maker), takerAmount: toBaseUnits(taker), price: p };
}

/** A book level as the wire sends it. */
export type BookLevel = BookLevelText;

/**
 * The worst price a market order needs to fill `amount` (calculateMarketPrice): walks the book from its
 * end (best level; bids ascending, asks descending). BUY sums size·price over asks, SELL sums size over
 * bids. FOK throws when the depth is short; FAK falls back to the worst level.
 */
export function calculateMarketPrice(levels: BookLevel[], side: Side, amount: string | number, orderType: 'FOK' | 'FAK' = 'FOK'): string {
  if (levels.length === 0) throw new OrderBuildError('no match: the book side is empty');
  const want = toRational(amount, 'amount');
  let sum: Rational = { n: 0n, d: 1n };
  for (let i = levels.length - 1; i >= 0; i--) {
    const l = levels[i]!;
    const add = side === 'BUY' ? mul(toRational(l.size), toRational(l.price)) : toRational(l.size);
    sum = { n: sum.n * add.d + add.n * sum.d, d: sum.d * add.d };
    if (sum.n * want.d >= want.n * sum.d) return l.price;
  }
  if (orderType === 'FOK') throw new OrderBuildError('no match: the book is not deep enough to fill this FOK order');
  return levels[0]!.price;
}
