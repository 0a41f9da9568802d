import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/** The collateral asset's name in the balances table; shares use their token id. */
export const COLLATERAL = 'COLLATERAL';

export type LedgerKind = 'credit' | 'trade' | 'redeem';

/** One balance change and its cause (balance_ledger). */
export interface LedgerEntry {
  time: number;
  address: string;
  asset: string;
  delta: bigint;
  kind: LedgerKind;
  reason?: string;
  conditionId?: string | null;
  outcomeIndex?: number | null;
  side?: 'BUY' | 'SELL' | null;
  /** Price per share on `asset` (share rows of trades and redemptions). */
  price?: bigint | null;
  tradeId?: string | null;
  orderId?: string | null;
  transactionHash?: string | null;
}

export interface BalanceRow {
  address: string;
  asset: string;
  amount: bigint;
}

/**
 * Paper balances and their ledger. A balance change is always written together with its ledger row
 * (`apply`), so the ledger sums to the balance.
 */
export class BalanceRepo {
  private readonly upsertStmt: Statement;
  private readonly ledgerStmt: Statement;
  private readonly getStmt: Statement;

  constructor(private readonly db: Db) {
    this.upsertStmt = db.prepare(
      'INSERT INTO balances (address, asset, amount) VALUES (?, ?, ?) ON CONFLICT (address, asset) DO UPDATE SET amount = amount + excluded.amount',
    );
    this.ledgerStmt = db.prepare(`INSERT INTO balance_ledger (time, address, asset, delta, kind, reason, condition_id, outcome_index, side, price,
      trade_id, order_id, transaction_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.getStmt = db.prepare('SELECT amount FROM balances WHERE address = ? AND asset = ?').pluck().safeIntegers(true);
  }

  /** Adds `delta` to a balance and records why. */
  apply(e: LedgerEntry): void {
    this.upsertStmt.run(e.address, e.asset, e.delta);
    this.ledgerStmt.run(
      e.time,
      e.address,
      e.asset,
      e.delta,
      e.kind,
      e.reason ?? '',
      e.conditionId ?? null,
      e.outcomeIndex ?? null,
      e.side ?? null,
      e.price ?? null,
      e.tradeId ?? null,
      e.orderId ?? null,
      e.transactionHash ?? null,
    );
  }

  get(address: string, asset: string): bigint {
    return (this.getStmt.get(address, asset) as bigint | undefined) ?? 0n;
  }

  /** Every non-zero balance: the in-memory cache is loaded from this at startup. */
  all(): BalanceRow[] {
    return this.db.prepare('SELECT address, asset, amount FROM balances WHERE amount != 0').safeIntegers(true).all() as BalanceRow[];
  }

  /** Ledger rows of one address, oldest first (tests and the data service). */
  ledger(address: string): Array<LedgerEntry & { id: number }> {
    const rows = this.db.prepare('SELECT * FROM balance_ledger WHERE address = ? ORDER BY id').safeIntegers(true).all(address) as Array<
      Record<string, unknown>
    >;
    return rows.map((r) => ({
      id: Number(r.id),
      time: Number(r.time),
      address: r.address as string,
      asset: r.asset as string,
      delta: r.delta as bigint,
      kind: r.kind as LedgerKind,
      reason: r.reason as string,
      conditionId: (r.condition_id as string | null) ?? null,
      outcomeIndex: r.outcome_index === null ? null : Number(r.outcome_index),
      side: (r.side as 'BUY' | 'SELL' | null) ?? null,
      price: (r.price as bigint | null) ?? null,
      tradeId: (r.trade_id as string | null) ?? null,
      orderId: (r.order_id as string | null) ?? null,
      transactionHash: (r.transaction_hash as string | null) ?? null,
    }));
  }
}
