import type { Migration } from './index.js';

/**
 * API keys (decisions §2). Secrets and passphrases are never stored: they are re-derived from the
 * master key and the creation inputs kept here (key id, owner, and the L1 signature that created it).
 * The L1 signature is unique: a signature creates at most one key.
 */
export const m002: Migration = {
  version: 2,
  name: 'auth',
  sql: `
    CREATE TABLE api_keys (
      api_key      TEXT PRIMARY KEY,          -- UUID v4, SERVICE_API_KEY
      address      TEXT NOT NULL,             -- owner, lower-case 0x address
      l1_nonce     TEXT NOT NULL,             -- SERVICE_NONCE of the creating request (decimal uint256)
      l1_timestamp INTEGER NOT NULL,          -- SERVICE_TIMESTAMP of the creating request (unix s)
      l1_signature TEXT NOT NULL UNIQUE,      -- normalised L1 signature (lower-case hex, v = 27/28)
      referral     TEXT,                      -- SERVICE_REFERRAL (lower-case address) when sent
      created_at   INTEGER NOT NULL,          -- unix ms
      revoked_at   INTEGER                    -- unix ms; NULL while the key is live
    );
    CREATE INDEX api_keys_by_address ON api_keys (address, created_at);
  `,
};
