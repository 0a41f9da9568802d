import { formatUnits } from '../../../engine/protocol/amounts.js';
import { fixedDecimals, toMicros } from '../format.js';

/** Shares of one outcome the trader can sell now: held, less what open SELL orders already commit. */
export interface Sellable {
  outcome: string;
  held: string;
  reserved: string;
  available: string;
}

/**
 * From the position's size (the data API sends a number) and the open orders on the same token: a SELL
 * reserves its unfilled shares, so only the rest can back a new one (the exchange's own check).
 */
export function sellableShares(outcome: string, held: number | string | undefined, openSells: readonly { originalSize: string; sizeMatched: string }[]): Sellable {
  const h = held === undefined ? 0n : (toMicros(held) ?? 0n);
  let reserved = 0n;
  for (const o of openSells) reserved += (toMicros(o.originalSize) ?? 0n) - (toMicros(o.sizeMatched) ?? 0n);
  const available = h > reserved ? h - reserved : 0n;
  return { outcome, held: formatUnits(h), reserved: formatUnits(reserved), available: formatUnits(available) };
}

/** A preset share of what is available, rounded down to the 2 decimals a size carries. */
export function presetSize(available: string, percent: number): string {
  const a = toMicros(available) ?? 0n;
  const v = (a * BigInt(Math.round(percent))) / 100n;
  return formatUnits(v - (v % 10_000n));
}

/** Why a SELL of `size` shares cannot be backed, in words that say what to do; undefined if it can. */
export function oversellIssue(s: Sellable, size: string): string | undefined {
  const want = toMicros(size);
  const available = toMicros(s.available) ?? 0n;
  if (want === undefined || want <= available) return undefined;
  const held = toMicros(s.held) ?? 0n;
  if (held === 0n) return `You hold no ${s.outcome} shares to sell: buy ${s.outcome} first, or buy the other outcome to bet against it.`;
  if ((toMicros(s.reserved) ?? 0n) > 0n) {
    return `You hold ${fixedDecimals(s.held, 2)} ${s.outcome} shares, ${fixedDecimals(s.reserved, 2)} of them in open sell orders: sell at most ${fixedDecimals(s.available, 2)}, or cancel a sell order.`;
  }
  return `You hold ${fixedDecimals(s.held, 2)} ${s.outcome} shares: sell at most ${fixedDecimals(s.available, 2)}.`;
}
