import type { Migration } from './index.js';

/**
 * Mirrored markets (decisions §10): a market that copies a public one keeps the public ids in its
 * ordinary columns (condition, question and token ids are the public ones) and says where it comes
 * from here. `mirror_source` is `public` (a live mirror) or `tape:<file>` (a replay), NULL for a local
 * market; `mirror_identity` is the public identity as resolved (JSON, the fee schedule in its wire
 * form), so a restart re-follows without asking the upstream again; `mirror_following` is 0 once the
 * operator stopped following (the market stays, closed for new orders).
 */
export const m012: Migration = {
  version: 12,
  name: 'mirrored_markets',
  sql: `
    ALTER TABLE markets ADD COLUMN mirror_source TEXT;
    ALTER TABLE markets ADD COLUMN mirror_identity TEXT;
    ALTER TABLE markets ADD COLUMN mirror_following INTEGER NOT NULL DEFAULT 0;
  `,
};
