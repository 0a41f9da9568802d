import type { Migration } from './index.js';

/**
 * A per-market taker fee rate in basis points (decisions §9), default 0 so existing markets stay
 * fee-free. Trades already carry `fee` (migration 004); it is now filled in.
 */
export const m008: Migration = {
  version: 8,
  name: 'market_fee_rate',
  sql: `ALTER TABLE markets ADD COLUMN fee_rate_bps INTEGER NOT NULL DEFAULT 0;`,
};
