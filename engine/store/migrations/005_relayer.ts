import type { Migration } from './index.js';

/**
 * Relayer transactions (relayer-api.md §3.4 record + what the broadcaster needs to resume after a
 * restart). A row is written in STATE_NEW before anything touches the chain; the signed raw transaction
 * and its hash are stored before broadcasting, so a restart can look the transaction up or resend it.
 */
export const m005: Migration = {
  version: 5,
  name: 'relayer',
  sql: `
CREATE TABLE relayer_transactions (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  id             TEXT NOT NULL UNIQUE,
  type           TEXT NOT NULL,
  state          TEXT NOT NULL,
  owner          TEXT NOT NULL,
  from_address   TEXT NOT NULL,
  to_address     TEXT NOT NULL,
  proxy_address  TEXT NOT NULL,
  data           TEXT NOT NULL,
  nonce          TEXT NOT NULL,
  value          TEXT NOT NULL,
  signature      TEXT NOT NULL,
  metadata       TEXT NOT NULL,
  tx_hash        TEXT NOT NULL DEFAULT '',
  error_msg      TEXT NOT NULL DEFAULT '',
  sender         TEXT NOT NULL,
  outer_to       TEXT NOT NULL,
  outer_data     TEXT NOT NULL,
  outer_value    TEXT NOT NULL,
  outer_gas      TEXT NOT NULL,
  raw_tx         TEXT,
  block_number   INTEGER,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);
CREATE INDEX relayer_transactions_owner ON relayer_transactions (owner, seq);
CREATE INDEX relayer_transactions_wallet ON relayer_transactions (proxy_address, state);
CREATE INDEX relayer_transactions_open ON relayer_transactions (state)
  WHERE state IN ('STATE_NEW', 'STATE_EXECUTED', 'STATE_MINED');
`,
};
