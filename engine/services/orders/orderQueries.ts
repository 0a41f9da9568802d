import type { MarketBook } from '../../book/types.js';
import { ApiError } from '../../protocol/errors.js';
import { normalizeUlid } from '../../protocol/ulid.js';
import { toPublicOrderRecord, toPublicPlacement, withOrderHashes, type PublicOrderRecord, type PublicPlacement } from './publicOrderRecord.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { type OrderRow, type OrderSide } from '../../store/orderRepo.js';
import type { OrderDeps } from './orderDeps.js';
import type { LiveOrder, OrderIdentity } from './liveOrder.js';
import { toOrderRecord, type OrderRecord } from './orderRecord.js';
import { decodeCursor, pageOf, type Page } from './pageCursor.js';
import type { PlacementResult } from './placementResult.js';
import { toTradeRecord, type TradeRecord } from './tradeRecord.js';
import { toQueueEntry, type QueueEntry } from './queueEntry.js';
import { canonicalTokenId, priceOnToken } from './tradingState.js';
import type { TradingState } from './tradingState.js';

/** The reads of the order service: order and trade records for REST and the data service, queues, balances, books and the tape. */
export class OrderQueries {
  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
  ) {}

  /** GET /data/order/{id}: the order record, or 404 order_not_found. Ids are case-insensitive. */
  get(id: string): OrderRecord {
    const row = this.rowById(id);
    return toOrderRecord(row, this.s.tradeRepo.idsForOrder(row.id));
  }

  /** GET /data/order/{id} in the profile's shape: the public open-order record in the polymarket profile. */
  record(id: string): OrderRecord | PublicOrderRecord {
    return this.recordOf(this.rowById(id));
  }

  private rowById(id: string): OrderRow {
    const key = this.s.resolveId(String(id));
    const row = this.s.live.get(key) ?? this.s.orderRepo.get(key);
    if (!row) throw new ApiError('order_not_found', `No order has id ${String(id).slice(0, 80)}. Order ids are the ULIDs returned as order_id by POST /order, or the 0x order hashes.`);
    return row;
  }

  /** A trade in the profile's shape: orders named by their hashes in the polymarket profile. */
  private tradeOf(t: TradeRecord): TradeRecord {
    if (this.ctx.config.profile !== 'polymarket') return t;
    return withOrderHashes(t, (id) => this.s.rowOf(id)?.digest ?? id);
  }

  /** The record in the profile's shape: the public open-order shape in the polymarket profile. */
  private recordOf(row: OrderRow): OrderRecord | PublicOrderRecord {
    const trades = this.s.tradeRepo.idsForOrder(row.id);
    return this.ctx.config.profile === 'polymarket' ? toPublicOrderRecord(row, trades, this.s.outcomesOf(row.conditionId)) : toOrderRecord(row, trades);
  }

  /** POST /order's answer in the polymarket profile: the public fields beside the snake_case ones. */
  publicPlacement(r: PlacementResult): PublicPlacement {
    const row = r.order_id === null ? undefined : this.s.rowOf(r.order_id);
    const answer = toPublicPlacement(r, row, row ? this.s.tradeRepo.takenBy(row.id) : []);
    // A delayed order (fill latency on a stepped clock) has no row yet, but its hash is known.
    const pending = row === undefined && r.order_id !== null ? this.s.delayed.get(r.order_id) : undefined;
    return pending === undefined ? answer : { ...answer, orderID: pending };
  }

  /** Batch lookup: one entry per request entry, in order (the route always answers 207). */
  lookup(entries: Array<{ orderId?: unknown }>): LookupEntry[] {
    if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_LOOKUP_ENTRIES) {
      throw new ApiError('invalid_field', `The lookup body must be an array of 1 to ${MAX_LOOKUP_ENTRIES} {"orderId": "<ULID>"} objects.`, {
        details: { field: 'body', in: 'body', problem: `must hold 1 to ${MAX_LOOKUP_ENTRIES} entries` },
      });
    }
    return entries.map((e) => {
      const orderId = typeof e?.orderId === 'string' ? e.orderId : '';
      if (orderId.trim() === '') return { order_id: orderId, status: 400, error: 'order_id_cannot_be_empty' };
      try {
        return { order_id: orderId, status: 200, order: this.record(orderId) };
      } catch (err) {
        if (err instanceof ApiError && err.code === 'order_not_found') return { order_id: orderId, status: 404, error: 'order_not_found' };
        return { order_id: orderId, status: 500, error: 'internal_error', message: (err as Error).message };
      }
    });
  }

  /** GET /data/orders: the caller's resting orders, oldest first, paged. */
  listOpen(identity: OrderIdentity, q: { id?: string; market?: string; asset_id?: string; next_cursor?: string }): Page<OrderRecord | PublicOrderRecord> {
    const offset = decodeCursor(q.next_cursor);
    const { rows, total } = this.s.orderRepo.listLive(
      {
        owner: identity.address.toLowerCase(),
        id: q.id ? this.s.resolveId(q.id) : undefined,
        conditionId: q.market ? q.market.toLowerCase() : undefined,
        tokenId: q.asset_id ? canonicalTokenId(q.asset_id) : undefined,
      },
      PAGE_LIMIT,
      offset,
    );
    return pageOf(
      rows.map((r) => this.recordOf(r)),
      offset,
      PAGE_LIMIT,
      total,
    );
  }

  /** GET /data/orders/history: every order of the caller, newest first, with why each cancelled one ended. */
  history(identity: OrderIdentity, q: { next_cursor?: string }): Page<OrderRecord & { cancelReason: string | null }> {
    const offset = decodeCursor(q.next_cursor);
    const { rows, total } = this.s.orderRepo.listByOwner(identity.address.toLowerCase(), PAGE_LIMIT, offset);
    // The writer may not have stored the latest change yet: the live copy wins for an order still live.
    const entries = rows.map((r) => {
      const row = this.s.live.get(r.id) ?? r;
      return { ...toOrderRecord(row, this.s.tradeRepo.idsForOrder(row.id)), cancelReason: row.cancelReason };
    });
    return pageOf(entries, offset, PAGE_LIMIT, total);
  }

  /**
   * GET /data/orders/queue: the caller's resting orders (oldest first, optionally of one market or
   * token) with the size ahead of each at its price and the level's total, straight from the books.
   */
  queuePositions(identity: OrderIdentity, q: { market?: string; asset_id?: string }): QueueEntry[] {
    const owner = identity.address.toLowerCase();
    const market = q.market?.toLowerCase();
    const asset = q.asset_id === undefined ? undefined : canonicalTokenId(q.asset_id);
    const out: { at: number; entry: QueueEntry }[] = [];
    for (const o of this.s.live.values()) {
      if (o.owner !== owner || (market !== undefined && o.conditionId !== market) || (asset !== undefined && o.tokenId !== asset)) continue;
      const entry = this.queueEntry(o);
      if (entry) out.push({ at: o.createdAt, entry });
    }
    return out.sort((a, b) => a.at - b.at).map((x) => x.entry);
  }

  /** GET /data/order/{id}/queue: one of the caller's resting orders; 404 if not theirs, 409 once off the book. */
  queuePosition(identity: OrderIdentity, id: string): QueueEntry {
    const key = this.s.resolveId(String(id));
    const o = this.s.live.get(key);
    const row = o ?? this.s.orderRepo.get(key);
    if (!row || row.owner !== identity.address.toLowerCase()) {
      throw new ApiError('order_not_found', `You have no order with id ${String(id).slice(0, 80)}. List your resting orders with GET /data/orders.`);
    }
    const entry = o && this.queueEntry(o);
    if (!entry) throw new ApiError('order_not_resting', `Order ${String(id).slice(0, 80)} is ${row.status}: only an order resting on the book has a place in a queue.`);
    return entry;
  }

  private queueEntry(o: LiveOrder): QueueEntry | undefined {
    const pos = o.handle < 0 ? undefined : this.s.books.get(o.conditionId)?.book.queuePosition(o.handle);
    return pos && toQueueEntry(this.s.answerId(o), o, pos);
  }

  /** GET /data/trades: trades where the caller was taker or maker, newest first, paged. */
  listTrades(
    identity: OrderIdentity,
    q: { id?: string; maker_address?: string; market?: string; asset_id?: string; before?: number; after?: number; next_cursor?: string },
  ): Page<TradeRecord> {
    const offset = decodeCursor(q.next_cursor);
    const owner = identity.address.toLowerCase();
    const { rows, total } = this.s.tradeRepo.list(
      {
        owner,
        id: q.id ? normalizeUlid(q.id) : undefined,
        makerAddress: q.maker_address?.toLowerCase(),
        conditionId: q.market?.toLowerCase(),
        assetId: q.asset_id ? canonicalTokenId(q.asset_id) : undefined,
        afterMs: q.after === undefined ? undefined : q.after * 1000,
        beforeMs: q.before === undefined ? undefined : q.before * 1000 + 999,
      },
      PAGE_LIMIT,
      offset,
    );
    return pageOf(
      rows.map((t) => this.tradeOf(toTradeRecord(t, this.s.outcomesOf(t.conditionId), owner))),
      offset,
      PAGE_LIMIT,
      total,
    );
  }

  /** Balance, reservation and available amount in micro-units (for services and tests). */
  balanceOf(address: string, asset: string): { balance: bigint; reserved: bigint; available: bigint } {
    const a = address.toLowerCase();
    return { balance: this.s.sheet.balance(a, asset), reserved: this.s.sheet.reserved(a, asset), available: this.s.sheet.available(a, asset) };
  }

  /**
   * GET /balance-allowance: the funding wallet's balance (signature_type picks EOA, proxy or Safe, as
   * the public clients do), what open orders reserve, and the allowance (= balance for paper money).
   */
  balanceAllowance(identity: OrderIdentity, assetType: 'COLLATERAL' | 'CONDITIONAL', tokenId?: string, signatureType?: number): BalanceAllowance {
    let address = identity.address.toLowerCase();
    if (signatureType === 1 || signatureType === 2) {
      const wallet = this.s.walletOf(signatureType, address);
      if (!wallet) throw new ApiError('invalid_query', `signature_type ${signatureType} needs the wallet factories, which this exchange has not deployed.`);
      address = wallet;
    }
    let asset = COLLATERAL;
    if (assetType === 'CONDITIONAL') {
      if (!tokenId) throw new ApiError('invalid_query', "Query parameter 'token_id' is required when asset_type=CONDITIONAL.", { details: { field: 'token_id', in: 'querystring', problem: 'is required' } });
      asset = canonicalTokenId(tokenId);
      if (!this.ctx.markets.byToken(asset)) throw new ApiError('token_not_found', `No market trades token ${tokenId.slice(0, 80)}. List markets with GET /markets.`);
    }
    const balance = this.s.sheet.balance(address, asset).toString();
    const c = this.ctx.chain.contracts;
    return { balance, allowance: balance, reserved: this.s.sheet.reserved(address, asset).toString(), allowances: { [c.exchange]: balance, [c.negRiskExchange]: balance } };
  }

  /** The book of a market (one per binary market, outcome-0 terms); undefined for an unknown market. */
  book(conditionId: string): MarketBook | undefined {
    const existing = this.s.books.get(conditionId) ?? this.s.books.get(conditionId.toLowerCase());
    if (existing) return existing.book;
    const m = this.ctx.markets.byCondition(conditionId);
    return m ? this.s.bookOf(m.conditionId).book : undefined;
  }

  /** The last fill seen on a token (a fill on the other token of the market counts, mirrored). */
  lastTrade(tokenId: string): { price: bigint; side: OrderSide } | undefined {
    return this.s.lastTrade(tokenId);
  }

  /** The public tape, newest first: trades of a token (either side) or of a market. */
  tradeTape(q: { tokenId?: string; conditionId?: string; limit: number; offset: number }): TradeRecord[] {
    const { rows } = this.s.tradeRepo.list(
      { assetId: q.tokenId === undefined ? undefined : canonicalTokenId(q.tokenId), conditionId: q.conditionId?.toLowerCase() },
      q.limit,
      q.offset,
    );
    return rows.map((t) => toTradeRecord(t, this.s.outcomesOf(t.conditionId), undefined));
  }

  /** Fill prices on a token within [startSec, endSec], oldest first (price history before bucketing). */
  priceSeries(tokenId: string, startSec: number, endSec: number): Array<{ t: number; price: bigint; size: bigint }> {
    const token = canonicalTokenId(tokenId);
    const found = this.ctx.markets.byToken(token);
    if (!found) return [];
    return this.s.tradeRepo
      .inWindow(found.market.conditionId, startSec * 1000, endSec * 1000 + 999)
      .map((t) => ({ t: Math.floor(t.matchTime / 1000), price: priceOnToken(t, token), size: t.size }));
  }
}

export const MAX_LOOKUP_ENTRIES = 500;
/** Page size of GET /data/orders and GET /data/trades. */
export const PAGE_LIMIT = 500;

export interface LookupEntry {
  order_id: string;
  status: 200 | 400 | 404 | 500;
  order?: OrderRecord | PublicOrderRecord;
  error?: string;
  message?: string;
}

export interface BalanceAllowance {
  balance: string;
  allowance: string;
  reserved: string;
  allowances: Record<string, string>;
}
