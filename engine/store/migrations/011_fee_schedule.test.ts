import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../database.js';
import { MarketRepo } from '../marketRepo.js';
import { MIGRATIONS } from './index.js';

describe('migration 011: every market gets a fee schedule', () => {
  it('gives a market that had fee_rate_bps n the schedule {n/10000, exponent 1, takerOnly, no rebate}, and one without fees none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'migration-011-'));
    try {
      const file = join(dir, 'exchange.db');
      // A data directory as it was before 011: the older migrations only.
      const old = new Database(file);
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of MIGRATIONS.filter((x) => x.version < 11)) {
        old.exec(m.sql);
        old.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01T00:00:00Z');
      }
      const insert = old.prepare(`INSERT INTO markets (condition_id, question_id, question, slug, outcome_0, outcome_1, token_id_0, token_id_1,
        tick_size, min_order_size, event_id, created_at, fee_rate_bps) VALUES (?, '0x01', ?, ?, 'Yes', 'No', ?, ?, 10000, 5000000, 1, 0, ?)`);
      insert.run('0xaa', 'Fees?', 'fees', '1', '2', 150);
      insert.run('0xbb', 'Free?', 'free', '3', '4', 0);
      old.close();

      const db = openDatabase(file);
      try {
        const [fees, free] = new MarketRepo(db).all();
        assert.deepEqual([fees!.feeRateBps, fees!.feeSchedule], [150, { rate: 15_000n, exponent: 1, takerOnly: true, rebateRate: 0n }]);
        assert.deepEqual([free!.feeRateBps, free!.feeSchedule], [0, { rate: 0n, exponent: 1, takerOnly: true, rebateRate: 0n }]);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
