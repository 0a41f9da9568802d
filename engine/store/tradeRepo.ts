import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { OrderSide } from './orderRepo.js';
import { bindable } from './sqlParams.js';

export type TradeKind = 'NORMAL' | 'MINT' | 'MERGE';

/** One maker fill. Prices and size are 6-dp micro-units; matchTime is unix ms. */
export interface TradeRow {
  id: string;
  matchTime: number;
  conditionId: string;
  takerOrderId: string;
  makerOrderId: string;
  takerAssetId: string;
  makerAssetId: string;
  takerOutcomeIndex: 0 | 1;
  makerOutcomeIndex: 0 | 1;
  /** Funding wallets (the orders' maker fields). */
  takerAddress: string;
  makerAddress: string;
  /** API-key owners of the two orders. */
  takerOwner: string;
  makerOwner: string;
  takerSide: OrderSide;
  makerSide: OrderSide;
  /** Execution price on the taker's token. */
  price: bigint;
  /** Execution price on the maker's token (differs from `price` for MINT and MERGE). */
  makerPrice: bigint;
  size: bigint;
  kind: TradeKind;
  takerFeeRateBps: string;
  makerFeeRateBps: string;
  fee: bigint;
  /** The maker's rebate on this fill, paid by the fee account (decisions §10); 0 when none. */
  makerRebate: bigint;
  transactionHash: string;
}

export interface TradeFilter {
  /** Trades where this owner was taker or maker. */
  owner?: string;
  id?: string;
  /** Funding wallet on either side. */
  makerAddress?: string;
  conditionId?: string;
  /** Token on either side. */
  assetId?: string;
  /** match_time bounds, unix ms, inclusive. */
  afterMs?: number;
  beforeMs?: number;
}

interface RawTrade {
  id: string;
  match_time: bigint;
  condition_id: string;
  taker_order_id: string;
  maker_order_id: string;
  taker_asset_id: string;
  maker_asset_id: string;
  taker_outcome_index: bigint;
  maker_outcome_index: bigint;
  taker_address: string;
  maker_address: string;
  taker_owner: string;
  maker_owner: string;
  taker_side: OrderSide;
  maker_side: OrderSide;
  price: bigint;
  maker_price: bigint;
  size: bigint;
  kind: TradeKind;
  taker_fee_rate_bps: string;
  maker_fee_rate_bps: string;
  fee: bigint;
  maker_rebate: bigint | null;
  transaction_hash: string;
}

function fromRaw(r: RawTrade): TradeRow {
  return {
    id: r.id,
    matchTime: Number(r.match_time),
    conditionId: r.condition_id,
    takerOrderId: r.taker_order_id,
    makerOrderId: r.maker_order_id,
    takerAssetId: r.taker_asset_id,
    makerAssetId: r.maker_asset_id,
    takerOutcomeIndex: Number(r.taker_outcome_index) === 1 ? 1 : 0,
    makerOutcomeIndex: Number(r.maker_outcome_index) === 1 ? 1 : 0,
    takerAddress: r.taker_address,
    makerAddress: r.maker_address,
    takerOwner: r.taker_owner,
    makerOwner: r.maker_owner,
    takerSide: r.taker_side,
    makerSide: r.maker_side,
    price: r.price,
    makerPrice: r.maker_price,
    size: r.size,
    kind: r.kind,
    takerFeeRateBps: r.taker_fee_rate_bps,
    makerFeeRateBps: r.maker_fee_rate_bps,
    fee: r.fee,
    makerRebate: r.maker_rebate ?? 0n,
    transactionHash: r.transaction_hash,
  };
}

/** The trades table: one row per maker fill, newest-first reads with an id tie-break (stable paging). */
export class TradeRepo {
  private readonly insertStmt: Statement;
  private readonly byOrderStmt: Statement;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(`INSERT INTO trades (id, match_time, condition_id, taker_order_id, maker_order_id, taker_asset_id, maker_asset_id,
      taker_outcome_index, maker_outcome_index, taker_address, maker_address, taker_owner, maker_owner, taker_side, maker_side, price,
      maker_price, size, kind, taker_fee_rate_bps, maker_fee_rate_bps, fee, maker_rebate, transaction_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.byOrderStmt = db
      .prepare('SELECT id FROM trades WHERE taker_order_id = ? UNION SELECT id FROM trades WHERE maker_order_id = ? ORDER BY id')
      .pluck();
  }

  /** Positional binding: cheaper than binding 24 named values from the object (a hot-path write). */
  insert(t: TradeRow): void {
    this.insertStmt.run(
      t.id,
      t.matchTime,
      t.conditionId,
      t.takerOrderId,
      t.makerOrderId,
      t.takerAssetId,
      t.makerAssetId,
      t.takerOutcomeIndex,
      t.makerOutcomeIndex,
      t.takerAddress,
      t.makerAddress,
      t.takerOwner,
      t.makerOwner,
      t.takerSide,
      t.makerSide,
      t.price,
      t.makerPrice,
      t.size,
      t.kind,
      t.takerFeeRateBps,
      t.makerFeeRateBps,
      t.fee,
      t.makerRebate,
      t.transactionHash,
    );
  }

  /** Ids of the trades an order took part in, as taker or maker, oldest first. */
  idsForOrder(orderId: string): string[] {
    return this.byOrderStmt.all(orderId, orderId) as string[];
  }

  /** The trades an order took as taker, oldest first (what its placement matched). */
  takenBy(orderId: string): TradeRow[] {
    return (
      this.db.prepare('SELECT * FROM trades WHERE taker_order_id = ? ORDER BY id').safeIntegers(true).all(orderId) as RawTrade[]
    ).map(fromRaw);
  }

  /** A page of trades matching the filter, newest first, plus the total count. */
  list(filter: TradeFilter, limit: number, offset: number): { rows: TradeRow[]; total: number } {
    const where: string[] = [];
    if (filter.owner !== undefined) where.push('(taker_owner = @owner OR maker_owner = @owner)');
    if (filter.id !== undefined) where.push('id = @id');
    if (filter.makerAddress !== undefined) where.push('(taker_address = @makerAddress OR maker_address = @makerAddress)');
    if (filter.conditionId !== undefined) where.push('condition_id = @conditionId');
    if (filter.assetId !== undefined) where.push('(taker_asset_id = @assetId OR maker_asset_id = @assetId)');
    if (filter.afterMs !== undefined) where.push('match_time >= @afterMs');
    if (filter.beforeMs !== undefined) where.push('match_time <= @beforeMs');
    const clause = where.length ? 'WHERE ' + where.join(' AND ') : '';
    const params = bindable({ ...filter, limit, offset });
    const total = Number(this.db.prepare(`SELECT COUNT(*) FROM trades ${clause}`).pluck().get(params));
    const rows = (
      this.db
        .prepare(`SELECT * FROM trades ${clause} ORDER BY match_time DESC, id DESC LIMIT @limit OFFSET @offset`)
        .safeIntegers(true)
        .all(params) as RawTrade[]
    ).map(fromRaw);
    return { rows, total };
  }

  /** The largest trade id ('' without trades): where a run's recorder starts reading. */
  lastId(): string {
    return (this.db.prepare('SELECT MAX(id) FROM trades').pluck().get() as string | null) ?? '';
  }

  /** Trades whose id sorts after `afterId` ('' for all), oldest first: what a run's recorder has not read yet. */
  since(afterId: string): TradeRow[] {
    return (this.db.prepare('SELECT * FROM trades WHERE id > ? ORDER BY id').safeIntegers(true).all(afterId) as RawTrade[]).map(fromRaw);
  }

  /** Trades of one market in a time window (unix ms, inclusive), oldest first: price history. */
  inWindow(conditionId: string, fromMs: number, toMs: number): TradeRow[] {
    return (
      this.db
        .prepare('SELECT * FROM trades WHERE condition_id = ? AND match_time BETWEEN ? AND ? ORDER BY match_time, id')
        .safeIntegers(true)
        .all(conditionId, fromMs, toMs) as RawTrade[]
    ).map(fromRaw);
  }

  /** The newest trade of each market, for the last-trade-price cache at startup. */
  latestPerCondition(): TradeRow[] {
    return (
      this.db
        .prepare(
          `SELECT t.* FROM trades t JOIN (SELECT condition_id, MAX(match_time || ':' || id) AS k FROM trades GROUP BY condition_id) last
           ON last.condition_id = t.condition_id AND (t.match_time || ':' || t.id) = last.k`,
        )
        .safeIntegers(true)
        .all() as RawTrade[]
    ).map(fromRaw);
  }
}
