import type { Db } from './database.js';

export interface PaperSessionRow {
  id: number;
  address: string;
  startedAt: number;
  endedAt: number;
  /** JSON text of the session summary. */
  summary: string;
}

/** The archive of reset paper sessions, and the facts a session summary needs from the live tables. */
export class PaperRepo {
  constructor(private readonly db: Db) {}

  insert(r: Omit<PaperSessionRow, 'id'>): number {
    const info = this.db.prepare('INSERT INTO paper_sessions (address, started_at, ended_at, summary) VALUES (?, ?, ?, ?)').run(r.address, r.startedAt, r.endedAt, r.summary);
    return Number(info.lastInsertRowid);
  }

  /** Newest first. */
  list(address: string, limit: number): PaperSessionRow[] {
    const rows = this.db
      .prepare('SELECT id, address, started_at, ended_at, summary FROM paper_sessions WHERE address = ? ORDER BY id DESC LIMIT ?')
      .all(address, limit) as Array<{ id: number; address: string; started_at: number; ended_at: number; summary: string }>;
    return rows.map((r) => ({ id: r.id, address: r.address, startedAt: r.started_at, endedAt: r.ended_at, summary: r.summary }));
  }

  /** Where the current session began: the last reset, else the wallet's first balance change, else undefined. */
  sessionStart(address: string): number | undefined {
    const reset = this.db.prepare('SELECT MAX(ended_at) FROM paper_sessions WHERE address = ?').pluck().get(address) as number | null;
    if (reset !== null) return reset;
    const first = this.db.prepare('SELECT MIN(time) FROM balance_ledger WHERE address = ?').pluck().get(address) as number | null;
    return first ?? undefined;
  }

  /** Fills the wallet took part in (as taker or maker) at or after `fromMs`. */
  tradeCount(address: string, fromMs: number): number {
    return this.db.prepare('SELECT COUNT(*) FROM trades WHERE (taker_address = ? OR maker_address = ?) AND match_time >= ?').pluck().get(address, address, fromMs) as number;
  }
}
