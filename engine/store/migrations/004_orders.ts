import type { Migration } from './index.js';

/**
 * Orders, trades, paper balances and the balance ledger (decisions §3, §5).
 *
 * Every amount column is an INTEGER of 6-decimal micro-units (collateral and shares alike); read the
 * big ones with `.safeIntegers(true)`. Times are unix milliseconds. Addresses are lower-case 0x hex.
 *
 * - orders: one row per accepted order (FOK kills are not stored). `reserved` is what the order still
 *   holds back from its maker's balance: collateral for a BUY, shares for a SELL; 0 once it leaves the book.
 * - trades: one row per maker fill. `price` is the execution price on the taker's token, `maker_price`
 *   the same fill seen on the maker's token (they differ for MINT/MERGE). `taker_address`/`maker_address`
 *   are the funding wallets (the orders' `maker` fields); `*_owner` the API-key owners.
 * - balances: current paper balance per (address, asset); asset is 'COLLATERAL' or a token id.
 * - balance_ledger: every balance change with its cause, so the data service can rebuild positions and
 *   activity: kind 'credit' (faucet / welcome grant), 'trade' (a fill), 'redeem' (payout of a resolved
 *   market). Share rows carry `price` (per share, on that token) and `side` (BUY when shares came in).
 */
export const m004: Migration = {
  version: 4,
  name: 'orders',
  sql: `
    CREATE TABLE orders (
      id              TEXT PRIMARY KEY,
      digest          TEXT NOT NULL UNIQUE,
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
      updated_at      INTEGER NOT NULL,
      UNIQUE (maker, salt)
    );
    CREATE INDEX orders_live ON orders (status) WHERE status IN ('open', 'partially_filled');
    CREATE INDEX orders_owner_live ON orders (owner, created_at, id) WHERE status IN ('open', 'partially_filled');
    CREATE INDEX orders_condition ON orders (condition_id, status);

    CREATE TABLE trades (
      id                  TEXT PRIMARY KEY,
      match_time          INTEGER NOT NULL,
      condition_id        TEXT NOT NULL,
      taker_order_id      TEXT NOT NULL,
      maker_order_id      TEXT NOT NULL,
      taker_asset_id      TEXT NOT NULL,
      maker_asset_id      TEXT NOT NULL,
      taker_outcome_index INTEGER NOT NULL,
      maker_outcome_index INTEGER NOT NULL,
      taker_address       TEXT NOT NULL,
      maker_address       TEXT NOT NULL,
      taker_owner         TEXT NOT NULL,
      maker_owner         TEXT NOT NULL,
      taker_side          TEXT NOT NULL CHECK (taker_side IN ('BUY', 'SELL')),
      maker_side          TEXT NOT NULL CHECK (maker_side IN ('BUY', 'SELL')),
      price               INTEGER NOT NULL,
      maker_price         INTEGER NOT NULL,
      size                INTEGER NOT NULL,
      kind                TEXT NOT NULL CHECK (kind IN ('NORMAL', 'MINT', 'MERGE')),
      taker_fee_rate_bps  TEXT NOT NULL DEFAULT '0',
      maker_fee_rate_bps  TEXT NOT NULL DEFAULT '0',
      fee                 INTEGER NOT NULL DEFAULT 0,
      transaction_hash    TEXT NOT NULL
    );
    CREATE INDEX trades_time ON trades (match_time, id);
    CREATE INDEX trades_condition_time ON trades (condition_id, match_time, id);
    CREATE INDEX trades_taker_asset_time ON trades (taker_asset_id, match_time);
    CREATE INDEX trades_maker_asset_time ON trades (maker_asset_id, match_time);
    CREATE INDEX trades_taker_order ON trades (taker_order_id);
    CREATE INDEX trades_maker_order ON trades (maker_order_id);
    CREATE INDEX trades_taker_owner ON trades (taker_owner, match_time);
    CREATE INDEX trades_maker_owner ON trades (maker_owner, match_time);

    CREATE TABLE balances (
      address TEXT NOT NULL,
      asset   TEXT NOT NULL,
      amount  INTEGER NOT NULL,
      PRIMARY KEY (address, asset)
    ) WITHOUT ROWID;
    CREATE INDEX balances_asset ON balances (asset, amount);

    CREATE TABLE balance_ledger (
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      time          INTEGER NOT NULL,
      address       TEXT NOT NULL,
      asset         TEXT NOT NULL,
      delta         INTEGER NOT NULL,
      kind          TEXT NOT NULL CHECK (kind IN ('credit', 'trade', 'redeem')),
      reason        TEXT NOT NULL DEFAULT '',
      condition_id  TEXT,
      outcome_index INTEGER,
      side          TEXT,
      price         INTEGER,
      trade_id      TEXT,
      order_id      TEXT,
      transaction_hash TEXT
    );
    CREATE INDEX ledger_address_time ON balance_ledger (address, time, id);
    CREATE INDEX ledger_condition ON balance_ledger (condition_id, time);
    CREATE INDEX ledger_asset ON balance_ledger (asset, address);
  `,
};
