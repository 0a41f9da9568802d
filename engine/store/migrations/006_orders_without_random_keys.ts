import type { Migration } from './index.js';

/**
 * The orders table without its two UNIQUE constraints (digest; maker + salt).
 *
 * Why: both keys are random (a keccak digest, a random salt), so every insert dirtied one random leaf
 * page of each of their B-trees, and every group commit wrote those pages to the WAL in full (4 KiB per
 * key per order once the table outgrew a batch): on the POST /order path that was most of the commit's
 * cost. Duplicates are refused by the order service's in-memory index, which is built from this table
 * (digest, maker, salt, id) at startup, so it covers every order ever stored; the table keeps its
 * append-ordered keys only. The (condition_id, status) index goes too: no query used it. SQLite cannot
 * drop a constraint in place, hence the copy.
 */
export const m006: Migration = {
  version: 6,
  name: 'orders_without_random_keys',
  sql: `
    CREATE TABLE orders_next (
      id              TEXT PRIMARY KEY,
      digest          TEXT NOT NULL,
      maker           TEXT NOT NULL,
      signer          TEXT NOT NULL,
      owner           TEXT NOT NULL,
      condition_id    TEXT NOT NULL,
      token_id        TEXT NOT NULL,
      outcome_index   INTEGER NOT NULL CHECK (outcome_index IN (0, 1)),
      side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
      price           INTEGER NOT NULL,
      original_size   INTEGER NOT NULL,
      size_matched    INTEGER NOT NULL DEFAULT 0,
      maker_amount    TEXT NOT NULL,
      taker_amount    TEXT NOT NULL,
      salt            TEXT NOT NULL,
      nonce           TEXT NOT NULL,
      fee_rate_bps    TEXT NOT NULL,
      signature_type  INTEGER NOT NULL,
      signature       TEXT NOT NULL,
      order_type      TEXT NOT NULL CHECK (order_type IN ('GTC', 'GTD', 'FOK', 'FAK')),
      expiration      INTEGER NOT NULL DEFAULT 0,
      status          TEXT NOT NULL CHECK (status IN ('open', 'partially_filled', 'filled', 'cancelled')),
      reserved        INTEGER NOT NULL DEFAULT 0,
      cancel_reason   TEXT,
      created_at      INTEGER NOT NULL,
      updated_at      INTEGER NOT NULL
    );
    INSERT INTO orders_next SELECT id, digest, maker, signer, owner, condition_id, token_id, outcome_index, side, price,
      original_size, size_matched, maker_amount, taker_amount, salt, nonce, fee_rate_bps, signature_type, signature, order_type,
      expiration, status, reserved, cancel_reason, created_at, updated_at FROM orders ORDER BY rowid;
    DROP TABLE orders;
    ALTER TABLE orders_next RENAME TO orders;
    CREATE INDEX orders_live ON orders (status) WHERE status IN ('open', 'partially_filled');
    CREATE INDEX orders_owner_live ON orders (owner, created_at, id) WHERE status IN ('open', 'partially_filled');
  `,
};
