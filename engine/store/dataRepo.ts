import type { Db } from './database.js';

/**
 * Read-only SQL for the data service over the tables the orders work owns (migration 004: trades,
 * balances, balance_ledger). Every amount is an INTEGER of 6-dp micro-units read as bigint; times are
 * unix ms. Nothing here writes.
 */

const COLLATERAL = 'COLLATERAL';

/** A change of one wallet's holding of one outcome token (a balance_ledger share row). */
export interface ShareLedgerRow {
  id: number;
  timeMs: number;
  asset: string;
  conditionId: string;
  outcomeIndex: number;
  /** Signed change, micro-units. */
  delta: bigint;
  kind: string;
  side: 'BUY' | 'SELL' | null;
  price: bigint | null;
  tradeId: string | null;
  transactionHash: string;
}

/** A redemption of one market by one wallet: its share rows summed into the collateral paid. */
export interface RedemptionRow {
  timeMs: number;
  conditionId: string;
  transactionHash: string;
  /** Collateral paid, micro-units. */
  payout: bigint;
  /** Shares surrendered, micro-units. */
  shares: bigint;
  /** Smallest ledger id of the event: a stable tie-break. */
  firstId: number;
}

/** One side of one fill, as the public `/trades` row sees it. */
export interface FillSideRow {
  tradeId: string;
  role: 'TAKER' | 'MAKER';
  timeMs: number;
  conditionId: string;
  address: string;
  asset: string;
  outcomeIndex: number;
  side: 'BUY' | 'SELL';
  /** Price on `asset`, micro-units. */
  price: bigint;
  size: bigint;
  transactionHash: string;
  /** Taker fee of the fill on the taker side (decisions §10); 0 on the maker side. */
  fee: bigint;
  /** Maker rebate of the fill on the maker side (decisions §10); 0 on the taker side. */
  rebate: bigint;
}

export interface FillQuery {
  /** Funding wallet; undefined = the whole tape. */
  user?: string;
  /** false adds the maker side of each fill. */
  takerOnly: boolean;
  conditionIds?: readonly string[];
  side?: 'BUY' | 'SELL';
  /** Inclusive unix-ms bounds. */
  fromMs?: number;
  toMs?: number;
  /** Minimum `size` (TOKENS) or `size × price` (CASH), micro-units. */
  minSize?: bigint;
  minCash?: bigint;
  limit: number;
  offset: number;
}

export interface HolderRow {
  address: string;
  amount: bigint;
}

export interface LastTradeRow {
  takerOutcomeIndex: number;
  makerOutcomeIndex: number;
  price: bigint;
  makerPrice: bigint;
}

function asBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.round(v));
  if (v === null || v === undefined) return 0n;
  return BigInt(String(v));
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** The clause narrowing a ledger query to some markets (`undefined`: every market); its parameters are the ids. */
function inMarkets(conditionIds: readonly string[] | undefined): string {
  return conditionIds ? ` AND condition_id IN (${placeholders(conditionIds.length)})` : '';
}

export class DataRepo {
  constructor(private readonly db: Db) {}

  /** Every share movement of a wallet, in ledger order (the order positions are replayed in). */
  shareMovements(address: string, conditionIds?: readonly string[]): ShareLedgerRow[] {
    if (conditionIds?.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT id, time, asset, condition_id, outcome_index, delta, kind, side, price, trade_id, transaction_hash
         FROM balance_ledger WHERE address = ? AND asset != ? AND condition_id IS NOT NULL${inMarkets(conditionIds)} ORDER BY id`,
      )
      .safeIntegers(true)
      .all(address, COLLATERAL, ...(conditionIds ?? [])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      id: Number(r.id),
      timeMs: Number(r.time),
      asset: r.asset as string,
      conditionId: r.condition_id as string,
      outcomeIndex: r.outcome_index === null ? 999 : Number(r.outcome_index),
      delta: asBigInt(r.delta),
      kind: r.kind as string,
      side: (r.side as 'BUY' | 'SELL' | null) ?? null,
      price: r.price === null ? null : asBigInt(r.price),
      tradeId: (r.trade_id as string | null) ?? null,
      transactionHash: (r.transaction_hash as string | null) ?? '',
    }));
  }

  /**
   * Net fees of a wallet (decisions §10): taker fees paid less maker rebates earned, summed per market,
   * outcome and side of the wallet's order (negative where rebates exceed fees). The fee account's own
   * rows (fees in, rebates out) have the opposite signs and are never counted.
   */
  feesPaid(address: string, conditionIds?: readonly string[]): Array<{ conditionId: string; outcomeIndex: number; side: 'BUY' | 'SELL'; fee: bigint }> {
    if (conditionIds?.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT condition_id, outcome_index, side, -SUM(delta) AS fee FROM balance_ledger
         WHERE address = ? AND asset = ? AND ((reason = 'FEE' AND delta < 0) OR (reason = 'REBATE' AND delta > 0)) AND condition_id IS NOT NULL${inMarkets(conditionIds)}
         GROUP BY condition_id, outcome_index, side`,
      )
      .safeIntegers(true)
      .all(address, COLLATERAL, ...(conditionIds ?? [])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ conditionId: r.condition_id as string, outcomeIndex: Number(r.outcome_index), side: r.side as 'BUY' | 'SELL', fee: asBigInt(r.fee) }));
  }

  /** A wallet's redemptions: one row per (market, redemption event), oldest first. */
  redemptions(address: string, conditionIds?: readonly string[]): RedemptionRow[] {
    if (conditionIds?.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT MIN(id) AS first_id, time, condition_id, COALESCE(transaction_hash, '') AS tx,
                SUM(CASE WHEN asset = ? THEN delta ELSE 0 END) AS payout,
                SUM(CASE WHEN asset != ? THEN -delta ELSE 0 END) AS shares
         FROM balance_ledger WHERE address = ? AND kind = 'redeem' AND condition_id IS NOT NULL${inMarkets(conditionIds)}
         GROUP BY condition_id, time, COALESCE(transaction_hash, '') ORDER BY first_id`,
      )
      .safeIntegers(true)
      .all(COLLATERAL, COLLATERAL, address, ...(conditionIds ?? [])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      timeMs: Number(r.time),
      conditionId: r.condition_id as string,
      transactionHash: r.tx as string,
      payout: asBigInt(r.payout),
      shares: asBigInt(r.shares),
      firstId: Number(r.first_id),
    }));
  }

  /** Distinct markets a wallet ever traded. */
  tradedMarketCount(address: string): number {
    return Number(
      this.db
        .prepare("SELECT COUNT(DISTINCT condition_id) FROM balance_ledger WHERE address = ? AND kind = 'trade' AND condition_id IS NOT NULL")
        .pluck()
        .get(address),
    );
  }

  /**
   * One page of fill sides, newest first. The order is total (match time, trade id, taker before maker),
   * so consecutive pages never repeat or skip a row; (match_time, id) is the trades_time index, so the
   * taker-only tape reads a page without sorting the table.
   */
  fills(q: FillQuery): FillSideRow[] {
    const branch = (role: 'TAKER' | 'MAKER'): { sql: string; params: unknown[] } => {
      const p = role === 'TAKER' ? 'taker' : 'maker';
      const priceCol = role === 'TAKER' ? 'price' : 'maker_price';
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.user !== undefined) {
        // The ledger's address index finds the wallet's fills; trades has no index on the funding wallets.
        where.push(`id IN (SELECT trade_id FROM balance_ledger WHERE address = ? AND kind = 'trade' AND trade_id IS NOT NULL) AND ${p}_address = ?`);
        params.push(q.user, q.user);
      }
      if (q.conditionIds) {
        where.push(`condition_id IN (${placeholders(q.conditionIds.length)})`);
        params.push(...q.conditionIds);
      }
      if (q.side) {
        where.push(`${p}_side = ?`);
        params.push(q.side);
      }
      if (q.fromMs !== undefined) {
        where.push('match_time >= ?');
        params.push(q.fromMs);
      }
      if (q.toMs !== undefined) {
        where.push('match_time <= ?');
        params.push(q.toMs);
      }
      if (q.minSize !== undefined) {
        where.push('size >= ?');
        params.push(q.minSize);
      }
      if (q.minCash !== undefined) {
        // size × price is in pico-units; compare against the threshold scaled the same way (no rounding).
        where.push(`size * ${priceCol} >= ? * 1000000`);
        params.push(q.minCash);
      }
      const sql = `SELECT id AS trade_id, '${role}' AS role, ${role === 'TAKER' ? 0 : 1} AS role_rank, match_time, condition_id,
          ${p}_address AS address, ${p}_asset_id AS asset, ${p}_outcome_index AS outcome_index, ${p}_side AS side,
          ${priceCol} AS price, size, transaction_hash, ${role === 'TAKER' ? 'fee' : '0'} AS fee,
          ${role === 'MAKER' ? 'maker_rebate' : '0'} AS rebate
        FROM trades ${where.length ? 'WHERE ' + where.join(' AND ') : ''}`;
      return { sql, params };
    };
    if (q.conditionIds && q.conditionIds.length === 0) return [];
    const parts = [branch('TAKER')];
    if (!q.takerOnly) parts.push(branch('MAKER'));
    const sql = `${parts.map((b) => b.sql).join(' UNION ALL ')}
      ORDER BY match_time DESC, trade_id DESC, role_rank ASC LIMIT ? OFFSET ?`;
    const params = [...parts.flatMap((b) => b.params), q.limit, q.offset];
    const rows = this.db.prepare(sql).safeIntegers(true).all(...params) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      tradeId: r.trade_id as string,
      role: r.role as 'TAKER' | 'MAKER',
      timeMs: Number(r.match_time),
      conditionId: r.condition_id as string,
      address: r.address as string,
      asset: r.asset as string,
      outcomeIndex: Number(r.outcome_index),
      side: r.side as 'BUY' | 'SELL',
      price: asBigInt(r.price),
      size: asBigInt(r.size),
      transactionHash: r.transaction_hash as string,
      fee: asBigInt(r.fee),
      rebate: asBigInt(r.rebate),
    }));
  }

  /** Taker fees a wallet paid, per trade id (activity rows show them beside the fill). */
  feesByTrade(address: string): Map<string, bigint> {
    const rows = this.db
      .prepare("SELECT trade_id, -SUM(delta) AS fee FROM balance_ledger WHERE address = ? AND asset = ? AND reason = 'FEE' AND delta < 0 AND trade_id IS NOT NULL GROUP BY trade_id")
      .safeIntegers(true)
      .all(address, COLLATERAL) as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [r.trade_id as string, asBigInt(r.fee)]));
  }

  /** Maker rebates a wallet earned (decisions §10), per trade id. */
  rebatesByTrade(address: string): Map<string, bigint> {
    const rows = this.db
      .prepare("SELECT trade_id, SUM(delta) AS rebate FROM balance_ledger WHERE address = ? AND asset = ? AND reason = 'REBATE' AND delta > 0 AND trade_id IS NOT NULL GROUP BY trade_id")
      .safeIntegers(true)
      .all(address, COLLATERAL) as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [r.trade_id as string, asBigInt(r.rebate)]));
  }

  /** Holders of one token with at least `minAmount` (and more than zero), biggest first, address tie-break. */
  holders(asset: string, minAmount: bigint, limit: number): HolderRow[] {
    if (limit <= 0) return [];
    const min = minAmount > 1n ? minAmount : 1n;
    const rows = this.db
      .prepare('SELECT address, amount FROM balances WHERE asset = ? AND amount >= ? ORDER BY amount DESC, address ASC LIMIT ?')
      .safeIntegers(true)
      .all(asset, min, limit) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ address: r.address as string, amount: asBigInt(r.amount) }));
  }

  /** Outstanding shares per token (Σ of positive balances), for open interest. */
  tokenSupplies(): Map<string, bigint> {
    const rows = this.db
      .prepare('SELECT asset, SUM(amount) AS supply FROM balances WHERE asset != ? AND amount > 0 GROUP BY asset')
      .safeIntegers(true)
      .all(COLLATERAL) as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [r.asset as string, asBigInt(r.supply)]));
  }

  /**
   * Traded collateral notional per market, each fill counted once at the taker's execution price on the
   * taker's token (decisions §5), rounded down per fill as the fill's own collateral movement is.
   */
  volumeByCondition(conditionIds: readonly string[]): Map<string, bigint> {
    if (conditionIds.length === 0) return new Map();
    const rows = this.db
      .prepare(
        `SELECT condition_id, SUM(size * price / 1000000) AS volume FROM trades
         WHERE condition_id IN (${placeholders(conditionIds.length)}) GROUP BY condition_id`,
      )
      .safeIntegers(true)
      .all(...conditionIds) as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [r.condition_id as string, asBigInt(r.volume)]));
  }

  /** The newest fill of a market (its price seen from each side), or undefined before the first trade. */
  lastTrade(conditionId: string): LastTradeRow | undefined {
    const r = this.db
      .prepare(
        `SELECT taker_outcome_index, maker_outcome_index, price, maker_price FROM trades
         WHERE condition_id = ? ORDER BY match_time DESC, id DESC LIMIT 1`,
      )
      .safeIntegers(true)
      .get(conditionId) as Record<string, unknown> | undefined;
    if (!r) return undefined;
    return {
      takerOutcomeIndex: Number(r.taker_outcome_index),
      makerOutcomeIndex: Number(r.maker_outcome_index),
      price: asBigInt(r.price),
      makerPrice: asBigInt(r.maker_price),
    };
  }
}
