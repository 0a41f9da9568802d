import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import { bindable } from './sqlParams.js';

export type OrderSide = 'BUY' | 'SELL';
export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'cancelled';

/** One stored order. Amounts are 6-dp micro-units as bigint; times are unix ms. */
export interface OrderRow {
  id: string;
  digest: string;
  maker: string;
  signer: string;
  owner: string;
  conditionId: string;
  tokenId: string;
  outcomeIndex: 0 | 1;
  side: OrderSide;
  price: bigint;
  originalSize: bigint;
  sizeMatched: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  salt: string;
  nonce: string;
  feeRateBps: string;
  signatureType: number;
  signature: string;
  orderType: OrderType;
  /** Unix seconds; 0 = none. */
  expiration: number;
  status: OrderStatus;
  reserved: bigint;
  cancelReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface OpenOrderFilter {
  owner: string;
  id?: string;
  conditionId?: string;
  tokenId?: string;
}

interface RawOrder {
  id: string;
  digest: string;
  maker: string;
  signer: string;
  owner: string;
  condition_id: string;
  token_id: string;
  outcome_index: bigint;
  side: OrderSide;
  price: bigint;
  original_size: bigint;
  size_matched: bigint;
  maker_amount: string;
  taker_amount: string;
  salt: string;
  nonce: string;
  fee_rate_bps: string;
  signature_type: bigint;
  signature: string;
  order_type: OrderType;
  expiration: bigint;
  status: OrderStatus;
  reserved: bigint;
  cancel_reason: string | null;
  created_at: bigint;
  updated_at: bigint;
}

function fromRaw(r: RawOrder): OrderRow {
  return {
    id: r.id,
    digest: r.digest,
    maker: r.maker,
    signer: r.signer,
    owner: r.owner,
    conditionId: r.condition_id,
    tokenId: r.token_id,
    outcomeIndex: Number(r.outcome_index) === 1 ? 1 : 0,
    side: r.side,
    price: r.price,
    originalSize: r.original_size,
    sizeMatched: r.size_matched,
    makerAmount: BigInt(r.maker_amount),
    takerAmount: BigInt(r.taker_amount),
    salt: r.salt,
    nonce: r.nonce,
    feeRateBps: r.fee_rate_bps,
    signatureType: Number(r.signature_type),
    signature: r.signature,
    orderType: r.order_type,
    expiration: Number(r.expiration),
    status: r.status,
    reserved: r.reserved,
    cancelReason: r.cancel_reason,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

const LIVE = "status IN ('open', 'partially_filled')";

/**
 * The orders table. Reads return bigint amounts (safeIntegers); maker/taker amounts are kept as TEXT
 * because a signed uint256 may exceed SQLite's 64-bit INTEGER.
 */
export class OrderRepo {
  private readonly insertStmt: Statement;
  private readonly fillStmt: Statement;
  private readonly cancelStmt: Statement;
  private readonly byIdStmt: Statement;
  private readonly liveStmt: Statement;

  constructor(private readonly db: Db) {
    // Positional parameters: binding 26 named values from an object costs more than the insert itself.
    this.insertStmt = db.prepare(`INSERT INTO orders (id, digest, maker, signer, owner, condition_id, token_id, outcome_index, side, price,
      original_size, size_matched, maker_amount, taker_amount, salt, nonce, fee_rate_bps, signature_type, signature, order_type, expiration,
      status, reserved, cancel_reason, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.fillStmt = db.prepare('UPDATE orders SET size_matched = ?, status = ?, reserved = ?, updated_at = ? WHERE id = ?');
    this.cancelStmt = db.prepare("UPDATE orders SET status = 'cancelled', reserved = 0, cancel_reason = ?, updated_at = ? WHERE id = ?");
    this.byIdStmt = db.prepare('SELECT * FROM orders WHERE id = ?').safeIntegers(true);
    this.liveStmt = db.prepare(`SELECT * FROM orders WHERE ${LIVE} ORDER BY created_at, id`).safeIntegers(true);
  }

  insert(o: OrderRow): void {
    this.insertStmt.run(
      o.id,
      o.digest,
      o.maker,
      o.signer,
      o.owner,
      o.conditionId,
      o.tokenId,
      o.outcomeIndex,
      o.side,
      o.price,
      o.originalSize,
      o.sizeMatched,
      o.makerAmount.toString(),
      o.takerAmount.toString(),
      o.salt,
      o.nonce,
      o.feeRateBps,
      o.signatureType,
      o.signature,
      o.orderType,
      o.expiration,
      o.status,
      o.reserved,
      o.cancelReason,
      o.createdAt,
      o.updatedAt,
    );
  }

  /** Records a fill's effect on an order: cumulative matched size, new status and remaining reservation. */
  updateFill(id: string, sizeMatched: bigint, status: OrderStatus, reserved: bigint, updatedAt: number): void {
    this.fillStmt.run(sizeMatched, status, reserved, updatedAt, id);
  }

  cancel(id: string, reason: string, updatedAt: number): void {
    this.cancelStmt.run(reason, updatedAt, id);
  }

  get(id: string): OrderRow | undefined {
    const r = this.byIdStmt.get(id) as RawOrder | undefined;
    return r ? fromRaw(r) : undefined;
  }

  /** Orders still on the book (open or partially filled), in placement order: the startup rebuild. */
  live(): OrderRow[] {
    return (this.liveStmt.all() as RawOrder[]).map(fromRaw);
  }

  /**
   * Calls `each` with the id, digest, maker and salt of every stored order: the order service's duplicate
   * index is built from this at startup (the table has no unique keys on them, see migration 006).
   */
  forEachDuplicateKey(each: (id: string, digest: string, maker: string, salt: string) => void): void {
    for (const r of this.db.prepare('SELECT id, digest, maker, salt FROM orders').raw().iterate() as IterableIterator<[string, string, string, string]>) {
      each(r[0], r[1], r[2], r[3]);
    }
  }

  /** One page of an owner's orders of every status (the order history), newest first, plus the total count. */
  /** Every order of one market created from `fromMs` (unix ms) on, oldest first: what a replay's report re-runs. */
  ofMarketSince(conditionId: string, fromMs: number): OrderRow[] {
    return (this.db.prepare('SELECT * FROM orders WHERE condition_id = ? AND created_at >= ? ORDER BY created_at, id').safeIntegers(true).all(conditionId, fromMs) as RawOrder[]).map(fromRaw);
  }

  listByOwner(owner: string, limit: number, offset: number): { rows: OrderRow[]; total: number } {
    const params = { owner, limit, offset };
    const total = Number(this.db.prepare('SELECT COUNT(*) FROM orders WHERE owner = @owner').pluck().get(params));
    const rows = (
      this.db.prepare('SELECT * FROM orders WHERE owner = @owner ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset').safeIntegers(true).all(params) as RawOrder[]
    ).map(fromRaw);
    return { rows, total };
  }

  /** One page of an owner's live orders, oldest first, plus the total count. */
  listLive(filter: OpenOrderFilter, limit: number, offset: number): { rows: OrderRow[]; total: number } {
    const where = [LIVE, 'owner = @owner'];
    if (filter.id !== undefined) where.push('id = @id');
    if (filter.conditionId !== undefined) where.push('condition_id = @conditionId');
    if (filter.tokenId !== undefined) where.push('token_id = @tokenId');
    const clause = where.join(' AND ');
    const params = bindable({ ...filter, limit, offset });
    const total = Number(this.db.prepare(`SELECT COUNT(*) FROM orders WHERE ${clause}`).pluck().get(params));
    const rows = (
      this.db.prepare(`SELECT * FROM orders WHERE ${clause} ORDER BY created_at, id LIMIT @limit OFFSET @offset`).safeIntegers(true).all(params) as RawOrder[]
    ).map(fromRaw);
    return { rows, total };
  }
}
