import type { Migration } from './index.js';

/**
 * Every market's fee schedule (decisions §10): `shares × rate × (p × (1 − p))^exponent` for takers, a
 * `rebateRate` share of it for makers. Rates are micro-units of one (0.04 → 40000). A market that had
 * `fee_rate_bps = n` gets what a market created with `feeRateBps: n` gets: `{rate: n/10000, exponent 1,
 * takerOnly, no rebate}` (n bps = n × 100 micro-units). `fee_rate_bps` stays: it is the base fee that
 * `GET /fee-rate` answers and a V1 order's signed `feeRateBps` must reach. Trades remember the maker's
 * rebate beside the taker's fee.
 */
export const m011: Migration = {
  version: 11,
  name: 'fee_schedule',
  sql: `
    ALTER TABLE markets ADD COLUMN fee_rate INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE markets ADD COLUMN fee_exponent INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE markets ADD COLUMN fee_taker_only INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE markets ADD COLUMN fee_rebate_rate INTEGER NOT NULL DEFAULT 0;
    UPDATE markets SET fee_rate = fee_rate_bps * 100;
    ALTER TABLE trades ADD COLUMN maker_rebate INTEGER NOT NULL DEFAULT 0;
  `,
};
