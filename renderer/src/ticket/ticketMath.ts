import { formatUnits, ONE } from '../../../engine/protocol/amounts.js';
import type { Side } from '../../../engine/protocol/eip712.js';
import { toMicros } from '../format.js';

export interface TicketInput {
  side: Side;
  price: string;
  size: string;
  tickSize: string | number;
  minOrderSize: string | number;
}

export interface TicketPreview {
  ok: boolean;
  /** What is wrong, as sentences that say how to fix it; shown under the field. */
  priceError?: string;
  sizeError?: string;
  /** Collateral paid (BUY) or received (SELL) if fully filled at the limit, decimal text. */
  notional?: string;
  /** Payout if the outcome wins (BUY) — one collateral unit per share. */
  maxPayout?: string;
}

/** Size precision of limit orders in the public clients' rounding table: always 2 decimals of a share. */
export const SIZE_DECIMALS = 2;

/**
 * Validates a limit ticket the way the exchange will (decisions §3: on the tick, within [tick, 1−tick],
 * size ≥ min_order_size) before anything is signed, and previews its cost in exact micro-units.
 */
export function previewTicket(t: TicketInput): TicketPreview {
  const out: TicketPreview = { ok: false };
  const tick = toMicros(String(t.tickSize));
  const min = toMicros(String(t.minOrderSize)) ?? 0n;
  const price = t.price.trim() === '' ? undefined : toMicros(t.price);
  const size = t.size.trim() === '' ? undefined : toMicros(t.size);

  if (t.price.trim() === '') out.priceError = 'Enter a limit price.';
  else if (price === undefined || price < 0n) out.priceError = 'The price is a decimal like 0.55.';
  else if (tick && price % tick !== 0n) out.priceError = `The price must be a multiple of the tick ${formatUnits(tick)}.`;
  else if (tick && (price < tick || price > ONE - tick)) out.priceError = `The price must lie between ${formatUnits(tick)} and ${formatUnits(ONE - tick)}.`;

  if (t.size.trim() === '') out.sizeError = 'Enter a size in shares.';
  else if (size === undefined || size <= 0n) out.sizeError = 'The size is a positive number of shares.';
  else if (!/^\d+(\.\d{1,2})?$/.test(t.size.trim())) out.sizeError = 'Sizes have at most 2 decimals.';
  else if (size < min) out.sizeError = `The minimum size of this market is ${formatUnits(min)} shares.`;

  if (price !== undefined && size !== undefined && size > 0n && price >= 0n) {
    out.notional = formatUnits((price * size) / ONE);
    if (t.side === 'BUY') out.maxPayout = formatUnits(size);
  }
  out.ok = !out.priceError && !out.sizeError;
  return out;
}

/** GTD: to live N seconds the order carries expiration = now + N + 60 (interface §4.2's one-minute buffer). */
export function gtdExpiration(nowMs: number, lifetimeSeconds: number): number {
  return Math.floor(nowMs / 1000) + Math.max(0, Math.floor(lifetimeSeconds)) + 60;
}
