import type { Migration } from './index.js';

/**
 * The market registry. Amounts (tick size, minimum order size) are integer micro-units (6 decimals).
 * chain_prepared / chain_reported record whether the condition was prepared and its payouts reported on
 * the Conditional Tokens contract: the row is written first, the chain call after, and an unfinished
 * chain step is retried on the next start, so a chain failure never loses a market.
 */
export const m003: Migration = {
  version: 3,
  name: 'markets',
  sql: `
    CREATE TABLE markets (
      seq                INTEGER PRIMARY KEY AUTOINCREMENT,
      condition_id       TEXT NOT NULL UNIQUE,
      question_id        TEXT NOT NULL,
      question           TEXT NOT NULL,
      slug               TEXT NOT NULL UNIQUE,
      description        TEXT NOT NULL DEFAULT '',
      outcome_0          TEXT NOT NULL,
      outcome_1          TEXT NOT NULL,
      token_id_0         TEXT NOT NULL UNIQUE,
      token_id_1         TEXT NOT NULL UNIQUE,
      tick_size          INTEGER NOT NULL CHECK (tick_size > 0),
      min_order_size     INTEGER NOT NULL CHECK (min_order_size > 0),
      neg_risk           INTEGER NOT NULL DEFAULT 0,
      neg_risk_market_id TEXT NOT NULL DEFAULT '',
      event_id           INTEGER NOT NULL CHECK (event_id >= 1),
      end_date           TEXT,
      created_at         INTEGER NOT NULL,
      paused             INTEGER NOT NULL DEFAULT 0,
      winner             INTEGER CHECK (winner IN (0, 1)),
      resolved_at        INTEGER,
      closed             INTEGER NOT NULL DEFAULT 0,
      accepting_orders   INTEGER NOT NULL DEFAULT 1,
      chain_prepared     INTEGER NOT NULL DEFAULT 0,
      chain_reported     INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX markets_event ON markets (event_id);
  `,
};
