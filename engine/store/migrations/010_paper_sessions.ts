import type { Migration } from './index.js';

/**
 * Archived paper sessions: what a wallet held when its owner reset the paper account (POST /paper/reset).
 * The summary is JSON (balances, positions, realised PnL, trade count) so the archive keeps whatever the
 * terminal showed at the time, independent of later schema changes of the live tables.
 */
export const m010: Migration = {
  version: 10,
  name: 'paper_sessions',
  sql: `
    CREATE TABLE paper_sessions (
      id          INTEGER PRIMARY KEY AUTOINCREMENT,
      address     TEXT NOT NULL,
      started_at  INTEGER NOT NULL,
      ended_at    INTEGER NOT NULL,
      summary     TEXT NOT NULL
    );
    CREATE INDEX paper_sessions_by_address ON paper_sessions (address, id);
  `,
};
