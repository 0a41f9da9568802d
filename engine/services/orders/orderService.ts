import { createHash } from 'node:crypto';
import { createOrderBook } from '../../book/orderBook.js';
import { fromBookPrice, toBookTerms, type MarketBook, type OrderHandle, type TimeInForce } from '../../book/types.js';
import { formatUnits, MAX_BALANCE_UNITS, ONE } from '../../protocol/amounts.js';
import type { Address, PostOrderBody } from '../../protocol/eip712.js';
import { ApiError } from '../../protocol/errors.js';
import { UlidFactory, normalizeUlid } from '../../protocol/ulid.js';
import { toPublicOrderRecord, toPublicPlacement, withOrderHashes, type PublicOrderRecord, type PublicPlacement } from './publicOrderRecord.js';
import { deriveProxyWalletAddress, deriveSafeAddress } from '../../protocol/walletAddresses.js';
import { BalanceRepo, COLLATERAL, type LedgerEntry } from '../../store/balanceRepo.js';
import { OrderRepo, type OrderRow, type OrderSide } from '../../store/orderRepo.js';
import { OrderWriter } from '../../store/orderWriter.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import { TradeRepo, type TradeRow } from '../../store/tradeRepo.js';
import type { EngineContext } from '../context.js';
import { BalanceSheet } from './balanceSheet.js';
import { ExpiryTimer } from './expiryTimer.js';
import type { OrderEvents } from './orderEvents.js';
import { buyReservationFor, remainingOf, reservedAssetOf, rowOf, type LiveOrder, type OrderIdentity, type TradableMarket } from './liveOrder.js';
import { toOrderRecord, type OrderRecord } from './orderRecord.js';
import { decodeCursor, pageOf, type Page } from './pageCursor.js';
import { accepted, rejected, type PlacementResult } from './placementResult.js';
import { settleFill } from './settleFill.js';
import { toTradeRecord, type TradeRecord } from './tradeRecord.js';
import { toQueueEntry, type QueueEntry } from './queueEntry.js';
import { sharedSignatureVerifier, type SignatureVerifier } from '../crypto/signatureVerifier.js';
import { GTD_BUFFER_SECONDS, isRejection, signingDigestOf, validateOrder, type ValidationDeps } from './validateOrder.js';
import { feeLedgerEntries, feeRateRejection, takerFee, takerFeeBound } from '../fees/takerFee.js';

export type { PlacementResult } from './placementResult.js';
export type { OrderRecord } from './orderRecord.js';
export type { TradeRecord } from './tradeRecord.js';
export type { OrderIdentity } from './liveOrder.js';

export const MAX_BATCH_ORDERS = 15;
export const MAX_LOOKUP_ENTRIES = 500;
/** Page size of GET /data/orders and GET /data/trades. */
export const PAGE_LIMIT = 500;

export interface CancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

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

export interface RedeemResult {
  conditionId: string;
  winningOutcomeIndex: 0 | 1;
  payout: string;
  positions: Array<{ address: string; asset: string; outcomeIndex: 0 | 1; size: string; payout: string }>;
}

const NOT_FOUND_REASON = 'Order not found or already canceled';

/** A market's book and its resting orders by book handle (an order is in `orders` exactly while it rests on `book`). */
interface MarketBookState {
  readonly book: MarketBook;
  readonly orders: Map<OrderHandle, LiveOrder>;
}

/**
 * The trading core: placement (validation, duplicate and balance checks, matching, settlement),
 * cancels, GTD expiry, lookups and balances. Memory (books, open orders, balances) changes synchronously
 * so placements within one event-loop turn see each other; every placement's writes go as ONE group to
 * the order writer (a writer thread committing batches of groups) and the reply waits until that group
 * is on disk (group commit).
 */
export class OrderService {
  private readonly orderRepo: OrderRepo;
  private readonly tradeRepo: TradeRepo;
  private readonly balanceRepo: BalanceRepo;
  /** Per market: its book and the live orders resting on it by book handle (fills name their maker by handle). */
  private readonly books = new Map<string, MarketBookState>();
  private readonly live = new Map<string, LiveOrder>();
  private readonly sheet = new BalanceSheet();
  /**
   * Duplicate index, the only one (the table has no unique keys, see migration 006): 'd:'+digest and
   * 's:'+maker+':'+salt of every order ever stored or accepted and being committed, each mapped to
   * its order id. Loaded from the table on first use, so placement never queries for duplicates.
   */
  private dupKeys: Map<string, string> | undefined;
  /** Signature recovery; batched to a worker thread when the verifier runs in worker mode. */
  private readonly verifier: SignatureVerifier;
  private readonly lastTrades = new Map<string, { price: bigint; side: OrderSide }>();
  private readonly ids = new UlidFactory();
  private readonly expiry: ExpiryTimer;
  private readonly wallets = new Map<string, string>();
  /** Every write of the orders, trades, balances and ledger tables goes through it, in order. */
  private readonly writer: OrderWriter;
  /** The streams service's hooks (services/streams): told of every change, then of its commit. */
  events: OrderEvents | undefined;

  constructor(
    private readonly ctx: EngineContext,
    opts: { verifier?: SignatureVerifier; writer?: OrderWriter } = {},
  ) {
    this.verifier = opts.verifier ?? sharedSignatureVerifier();
    this.writer = opts.writer ?? new OrderWriter(ctx.db, ctx.writes);
    this.orderRepo = new OrderRepo(ctx.db);
    this.tradeRepo = new TradeRepo(ctx.db);
    this.balanceRepo = new BalanceRepo(ctx.db);
    this.expiry = new ExpiryTimer(ctx.clock, () => {
      // expireDue's memory work runs synchronously; re-arm afterwards for the next deadline.
      void this.expireDue().catch(() => undefined);
      this.expiry.arm();
    });
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────────────────────

  /** Loads balances and open orders, rebuilds the books in time order, cancels GTD orders that expired while down. */
  async init(): Promise<void> {
    for (const b of this.balanceRepo.all()) this.sheet.add(b.address, b.asset, b.amount);
    const now = this.ctx.clock.nowMs();
    const expired: OrderRow[] = [];
    // Rows come oldest first, so each book gets its orders back in time priority (and fresh handles).
    for (const row of this.orderRepo.live()) {
      if (row.orderType === 'GTD' && expiryDeadline(row) <= now) {
        expired.push(row);
        continue;
      }
      const terms = toBookTerms(row.outcomeIndex, row.side, Number(row.price));
      const state = this.bookOf(row.conditionId);
      const o: LiveOrder = Object.assign(row, { handle: state.book.restore({ side: terms.side, price: terms.price, remaining: Number(remainingOf(row)) }) });
      state.orders.set(o.handle, o);
      this.live.set(o.id, o);
      this.sheet.reserve(row.maker, reservedAssetOf(row, COLLATERAL), row.reserved);
      if (row.orderType === 'GTD') this.expiry.add(row.id, expiryDeadline(row));
    }
    if (expired.length > 0) {
      // They never reached the book, so only their rows change.
      await this.writer.submit(expired.map((o): OrderWrite => ({ kind: 'cancel', id: o.id, reason: 'expired', at: now })));
    }
    for (const t of this.tradeRepo.latestPerCondition()) this.rememberLastTrade(t);
    this.duplicateKeys();
    this.expiry.arm();
  }

  /** Stops the expiry timer (first step of a shutdown: no new writes start from it). */
  stop(): void {
    this.expiry.stop();
  }

  /** Commits what the writer holds and closes its connection (after the HTTP server has drained). */
  close(): void {
    this.expiry.stop();
    this.writer.close();
  }

  /** Counters of the order path's two helpers: the writer and the signature verifier (GET /admin/stats). */
  pipelineStats(): { orderWriter: { mode: OrderWriter['mode'] } & OrderWriter['stats']; signatureVerifier: { mode: SignatureVerifier['mode'] } & SignatureVerifier['stats'] } {
    return {
      orderWriter: { mode: this.writer.mode, ...this.writer.stats },
      signatureVerifier: { mode: this.verifier.mode, ...this.verifier.stats },
    };
  }

  // ── placement ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Places one order (POST /order). Request-level problems throw ApiError (owner mismatch 400, pauses
   * 409); order-level problems come back as a result with success:false (the route answers 400).
   */
  async place(identity: OrderIdentity, body: PostOrderBody, opts: { inBatch?: boolean } = {}): Promise<PlacementResult> {
    if (!opts.inBatch) {
      this.checkOwner(identity, body, undefined);
      this.checkPause(body);
    }
    // The signature is recovered first (in a worker batch when the verifier has one); everything else,
    // validation included, then runs synchronously so placements of one turn still see each other.
    const deps = this.validationDeps();
    const digest = signingDigestOf(body, deps);
    if (digest !== undefined) deps.signatureCheck = { digest, recovered: await this.verifier.recover(digest, body.order.signature, body.order.signer) };
    const { result, ops, keys } = this.placeNow(identity, body, deps);
    if (ops.length === 0) return result;
    const captured = this.events?.capture(ops);
    try {
      await this.writer.submit(ops);
      if (captured !== undefined) this.events?.committed(captured);
      return result;
    } catch (e) {
      // Not stored, so not a duplicate of anything.
      for (const k of keys) this.dupKeys?.delete(k);
      return rejected('EXECUTION_ERROR', `could not run the execution: the database refused the write (${(e as Error).message}).`);
    }
  }

  private validationDeps(): ValidationDeps {
    return {
      nowMs: this.ctx.clock.nowMs(),
      chainId: this.ctx.config.chainId,
      contracts: this.ctx.chain.contracts,
      byToken: (t) => this.ctx.markets.byToken(t) as { market: TradableMarket; outcomeIndex: 0 | 1 } | undefined,
      walletOf: (type, signer) => this.walletOf(type, signer),
      conditionIdOptional: this.ctx.config.profile === 'polymarket',
    };
  }

  /** The duplicate index (see dupKeys), built from the orders table on first use. */
  private duplicateKeys(): Map<string, string> {
    if (!this.dupKeys) {
      const keys = new Map<string, string>();
      this.orderRepo.forEachDuplicateKey((id, digest, maker, salt) => {
        keys.set('d:' + digest, id);
        keys.set('s:' + maker + ':' + salt, id);
      });
      this.dupKeys = keys;
    }
    return this.dupKeys;
  }

  /** Places 1..15 orders (POST /orders): request-level checks for every entry first, then each entry in order. */
  async placeBatch(identity: OrderIdentity, bodies: PostOrderBody[]): Promise<PlacementResult[]> {
    if (!Array.isArray(bodies) || bodies.length === 0) {
      throw new ApiError('invalid_batch_size', 'batch needs at least 1 order: send an array of 1 to 15 POST /order bodies.');
    }
    if (bodies.length > MAX_BATCH_ORDERS) {
      throw new ApiError('invalid_batch_size', `batch supports at most ${MAX_BATCH_ORDERS} orders (got ${bodies.length}); split it into several requests.`);
    }
    bodies.forEach((b, i) => this.checkOwner(identity, b, i));
    bodies.forEach((b) => this.checkPause(b));
    // Each place() runs its synchronous part (validation, matching, memory) before the next starts, so
    // entries see the effects of earlier ones; their writes share one group commit.
    return Promise.all(bodies.map((b) => this.place(identity, b, { inBatch: true })));
  }

  private checkOwner(identity: OrderIdentity, body: PostOrderBody, index: number | undefined): void {
    const owner = String(body.owner ?? '');
    const matches =
      owner.toLowerCase() === identity.address.toLowerCase() ||
      (this.ctx.config.profile === 'polymarket' && identity.apiKey !== undefined && owner === identity.apiKey);
    if (!matches) {
      const where = index === undefined ? 'owner' : `entry ${index}: owner`;
      throw new ApiError('owner_address_mismatch', `${where} (${owner.slice(0, 80)}) must equal the SERVICE_ADDRESS header (${identity.address}).`, {
        details: index === undefined ? { owner, expected: identity.address } : { index, owner, expected: identity.address },
      });
    }
  }

  private checkPause(body: PostOrderBody): void {
    const found = this.ctx.markets.byToken(canonicalTokenId(body.order?.tokenId));
    const conditionId = found?.market.conditionId ?? String(body.order?.conditionId ?? '');
    const state = this.ctx.markets.pauseState(conditionId);
    if (state === 'system_paused') {
      throw new ApiError('system_paused', 'Trading is paused for the whole exchange (global circuit breaker). Retry after the operator resumes it.');
    }
    if (state === 'condition_paused') {
      throw new ApiError('condition_paused', `Trading is paused for market ${conditionId} (condition circuit breaker). Retry after the operator resumes it.`);
    }
  }

  /** The synchronous part of a placement: returns the result and the writes that make it durable. */
  private placeNow(identity: OrderIdentity, body: PostOrderBody, deps: ValidationDeps): { result: PlacementResult; ops: OrderWrite[]; keys: string[] } {
    const ops: OrderWrite[] = this.expireDueNow();
    const now = this.ctx.clock.nowMs();
    deps.nowMs = now;
    const v = validateOrder(identity, body, deps);
    if (isRejection(v)) return { result: rejected(v.code, v.message), ops, keys: [] };
    const feeRate = v.market.feeRateBps ?? 0;
    const feeProblem = feeRateRejection(v.feeRateBps, feeRate, v.tokenId);
    if (feeProblem) return { result: rejected(feeProblem.code, feeProblem.message), ops, keys: [] };

    const digestKey = 'd:' + v.digest;
    const saltKey = 's:' + v.maker + ':' + v.salt;
    const dupKeys = this.duplicateKeys();
    const dup = dupKeys.get(digestKey) ?? dupKeys.get(saltKey);
    if (dup !== undefined) {
      return {
        result: rejected(
          'INVALID_ORDER_DUPLICATED',
          `order is invalid. Duplicated. Same order (digest ${v.digest}, or maker ${v.maker} with salt ${v.salt}) has already been placed as ${dup}, can't be placed again; sign a new order with a fresh salt.`,
        ),
        ops,
        keys: [],
      };
    }

    const asset = v.side === 'BUY' ? COLLATERAL : v.tokenId;
    // A BUY that takes pays the taker fee on top of its cost: hold back the most it can owe (takerFee.ts).
    const need = v.side === 'BUY' ? v.makerAmount + takerFeeBound(feeRate, v.price, v.size) : v.size;
    const available = this.sheet.available(v.maker, asset);
    let warning: { code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE'; message: string } | undefined;
    if (need > available) {
      const what = v.side === 'BUY' ? 'collateral' : `shares of token ${v.tokenId}`;
      const message =
        `not enough balance / allowance: this ${v.side} needs ${formatUnits(need)} ${what} but ${v.maker} has ${formatUnits(available)} available ` +
        `(balance ${formatUnits(this.sheet.balance(v.maker, asset))} − ${formatUnits(this.sheet.reserved(v.maker, asset))} reserved by open orders).`;
      if (this.ctx.config.enforceBalances) return { result: rejected('INVALID_ORDER_NOT_ENOUGH_BALANCE', message), ops, keys: [] };
      warning = { code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE', message };
    }

    const terms = toBookTerms(v.outcomeIndex, v.side, Number(v.price));
    if (body.postOnly === true) {
      if (v.orderType !== 'GTC' && v.orderType !== 'GTD') {
        return { result: rejected('INVALID_ORDER_ERROR', `invalid post-only order: postOnly is only supported for GTC and GTD orders (got ${v.orderType}).`), ops, keys: [] };
      }
      if (this.bookOf(v.market.conditionId).book.fillable(terms.side, terms.price, Number(v.size)) > 0) {
        return { result: rejected('INVALID_ORDER_ERROR', 'invalid post-only order: order crosses book. Price it behind the best opposite quote or drop postOnly.'), ops, keys: [] };
      }
    }

    const order: LiveOrder = {
      id: this.ids.next(now),
      digest: v.digest,
      maker: v.maker,
      signer: v.signer,
      owner: identity.address.toLowerCase(),
      conditionId: v.market.conditionId,
      tokenId: v.tokenId,
      outcomeIndex: v.outcomeIndex,
      side: v.side,
      price: v.price,
      originalSize: v.size,
      sizeMatched: 0n,
      makerAmount: v.makerAmount,
      takerAmount: v.takerAmount,
      salt: v.salt,
      nonce: v.nonce,
      feeRateBps: v.feeRateBps,
      signatureType: v.signatureType,
      signature: v.signature,
      orderType: v.orderType,
      expiration: v.expiration,
      status: 'open',
      reserved: need,
      cancelReason: null,
      createdAt: now,
      updatedAt: now,
      handle: -1,
    };
    this.sheet.reserve(order.maker, asset, need);

    const tif: TimeInForce = order.orderType === 'FOK' ? 'FOK' : order.orderType === 'FAK' ? 'FAK' : 'GTC';
    const state = this.bookOf(order.conditionId);
    const outcome = state.book.place({ side: terms.side, price: terms.price, size: Number(order.originalSize), tif });

    if (order.orderType === 'FOK' && outcome.fills.length === 0) {
      // Killed: nothing matched, nothing rests, nothing is stored (so nothing counts as a duplicate).
      this.sheet.reserve(order.maker, asset, -need);
      return { result: rejected('FOK_ORDER_NOT_FILLED_ERROR'), ops, keys: [] };
    }

    this.events?.touched(order.conditionId);
    const tradeOps: OrderWrite[] = [];
    const txHash = outcome.fills.length === 0 ? '' : '0x' + createHash('sha256').update('settlement:' + order.id).digest('hex');
    for (const fill of outcome.fills) {
      const maker = state.orders.get(fill.makerHandle);
      if (!maker) throw new Error(`book returned a fill against unknown order handle ${fill.makerHandle}`);
      tradeOps.push(...this.settle(order, maker, fill.price, BigInt(fill.size), fill.makerRemaining === 0, txHash, now));
      if (fill.makerRemaining === 0) state.orders.delete(fill.makerHandle);
    }

    const remaining = remainingOf(order);
    // A resting BUY is a maker from now on (no fee): keep only the limit cost of what rests.
    const restCap = buyReservationFor(order, remaining);
    if (outcome.rested && order.side === 'BUY' && order.reserved > restCap) {
      this.sheet.reserve(order.maker, asset, restCap - order.reserved);
      order.reserved = restCap;
    }
    if (!outcome.rested && order.reserved !== 0n) {
      this.sheet.reserve(order.maker, asset, -order.reserved);
      order.reserved = 0n;
    }
    if (remaining === 0n) order.status = 'filled';
    else if (outcome.rested) order.status = order.sizeMatched > 0n ? 'partially_filled' : 'open';
    else {
      order.status = 'cancelled';
      order.cancelReason = order.sizeMatched > 0n ? 'FAK remainder cancelled' : 'FAK order found nothing to match';
    }
    if (outcome.rested) {
      order.handle = outcome.handle;
      state.orders.set(order.handle, order);
      this.live.set(order.id, order);
      if (order.orderType === 'GTD') this.expiry.add(order.id, expiryDeadline(order));
    }

    // A snapshot: the live order keeps changing as later takers fill it (those are 'fill' writes).
    const row: OrderRow = rowOf(order);
    ops.push({ kind: 'order', row });
    for (const op of tradeOps) ops.push(op);
    dupKeys.set(digestKey, order.id);
    dupKeys.set(saltKey, order.id);
    const status = order.sizeMatched > 0n ? 'matched' : outcome.rested ? 'live' : 'unmatched';
    return { result: accepted(order.id, status, warning), ops, keys: [digestKey, saltKey] };
  }

  /** Settles one fill in memory and returns its writes (trade row, maker order update, balance moves). */
  private settle(taker: LiveOrder, maker: LiveOrder, bookPrice: number, size: bigint, makerGone: boolean, txHash: string, now: number): OrderWrite[] {
    const makerPrice = BigInt(fromBookPrice(maker.outcomeIndex, bookPrice));
    const takerPrice = BigInt(fromBookPrice(taker.outcomeIndex, bookPrice));
    const s = settleFill(
      { address: taker.maker, tokenId: taker.tokenId, side: taker.side },
      { address: maker.maker, tokenId: maker.tokenId, side: maker.side },
      makerPrice,
      size,
      COLLATERAL,
    );
    const tradeId = this.ids.next(now);
    const fee = takerFee(this.ctx.markets.byCondition(taker.conditionId)?.feeRateBps ?? 0, takerPrice, size);
    const entries: LedgerEntry[] = feeLedgerEntries(taker.maker, fee, {
      time: now, conditionId: taker.conditionId, outcomeIndex: taker.outcomeIndex, side: taker.side, price: takerPrice, tradeId, orderId: taker.id, transactionHash: txHash,
    });
    for (const e of entries) this.sheet.add(e.address, e.asset, e.delta);
    for (const m of s.moves) {
      this.sheet.add(m.address, m.asset, m.delta);
      const party = m.role === 'taker' ? taker : maker;
      entries.push({
        time: now,
        address: m.address,
        asset: m.asset,
        delta: m.delta,
        kind: 'trade',
        reason: s.kind,
        conditionId: party.conditionId,
        outcomeIndex: party.outcomeIndex,
        side: party.side,
        price: m.role === 'taker' ? takerPrice : makerPrice,
        tradeId,
        orderId: party.id,
        transactionHash: txHash,
      });
    }
    this.consume(taker, size, s.takerCollateral + fee);
    this.consume(maker, size, s.makerCollateral);
    maker.updatedAt = now;
    if (makerGone) {
      maker.status = 'filled';
      if (maker.reserved !== 0n) {
        this.sheet.reserve(maker.maker, reservedAssetOf(maker, COLLATERAL), -maker.reserved);
        maker.reserved = 0n;
      }
      this.live.delete(maker.id);
      this.expiry.remove(maker.id);
      maker.handle = -1; // off the book (the caller drops it from the book's handle map)
    } else {
      maker.status = 'partially_filled';
    }
    const trade: TradeRow = {
      id: tradeId,
      matchTime: now,
      conditionId: taker.conditionId,
      takerOrderId: taker.id,
      makerOrderId: maker.id,
      takerAssetId: taker.tokenId,
      makerAssetId: maker.tokenId,
      takerOutcomeIndex: taker.outcomeIndex,
      makerOutcomeIndex: maker.outcomeIndex,
      takerAddress: taker.maker,
      makerAddress: maker.maker,
      takerOwner: taker.owner,
      makerOwner: maker.owner,
      takerSide: taker.side,
      makerSide: maker.side,
      price: takerPrice,
      makerPrice,
      size,
      kind: s.kind,
      takerFeeRateBps: taker.feeRateBps,
      makerFeeRateBps: maker.feeRateBps,
      fee,
      transactionHash: txHash,
    };
    this.rememberLastTrade(trade);
    const writes: OrderWrite[] = [
      { kind: 'trade', row: trade },
      { kind: 'fill', id: maker.id, sizeMatched: maker.sizeMatched, status: maker.status, reserved: maker.reserved, at: now },
    ];
    for (const entry of entries) writes.push({ kind: 'ledger', entry });
    return writes;
  }

  /**
   * Books a fill against an order's reservation. A SELL holds exactly its remaining shares. A BUY holds
   * the limit cost of its remaining size: what the fill cost at a better price than the limit (price
   * improvement) goes back to the available balance here.
   */
  private consume(o: LiveOrder, size: bigint, collateral: bigint): void {
    o.sizeMatched += size;
    const remaining = remainingOf(o);
    const old = o.reserved;
    let next: bigint;
    if (o.side === 'SELL') next = remaining;
    else {
      const left = old - collateral > 0n ? old - collateral : 0n;
      const limit = buyReservationFor(o, remaining);
      next = remaining === 0n ? 0n : limit < left ? limit : left;
    }
    if (next !== old) {
      this.sheet.reserve(o.maker, reservedAssetOf(o, COLLATERAL), next - old);
      o.reserved = next;
    }
  }

  // ── cancels and expiry ──────────────────────────────────────────────────────────────────────────

  async cancel(identity: OrderIdentity, ids: string[]): Promise<CancelResult> {
    const result: CancelResult = { canceled: [], not_canceled: {} };
    const ops: OrderWrite[] = [];
    const now = this.ctx.clock.nowMs();
    const seen = new Set<string>();
    for (const raw of ids) {
      const id = this.resolveId(String(raw));
      if (seen.has(id)) continue;
      seen.add(id);
      const o = this.live.get(id);
      if (o && o.owner === identity.address.toLowerCase()) {
        ops.push(this.cancelLive(o, 'cancelled by owner', now));
        result.canceled.push(this.answerId(o));
        continue;
      }
      result.not_canceled[String(raw)] = this.whyNotCancelable(id, identity);
    }
    await this.commitOps(ops);
    return result;
  }

  async cancelAll(identity: OrderIdentity): Promise<CancelResult> {
    return this.cancelWhere(identity, () => true, 'cancelled by owner (cancel-all)');
  }

  async cancelMarket(identity: OrderIdentity, filter: { market?: string; asset_id?: string }): Promise<CancelResult> {
    if (!filter.market && !filter.asset_id) {
      throw new ApiError('invalid_field', "Send 'market' (condition id), 'asset_id' (token id) or both to choose which orders to cancel; DELETE /cancel-all cancels everything.", {
        details: { field: 'market', in: 'body', problem: 'market or asset_id is required' },
      });
    }
    const market = filter.market?.toLowerCase();
    const asset = filter.asset_id === undefined ? undefined : canonicalTokenId(filter.asset_id);
    return this.cancelWhere(
      identity,
      (o) => (market === undefined || o.conditionId.toLowerCase() === market) && (asset === undefined || o.tokenId === asset),
      'cancelled by owner (cancel-market-orders)',
    );
  }

  /** Cancels every resting order of a market (resolution). Returns the cancelled ids. */
  async cancelMarketOrders(conditionId: string, reason: string): Promise<string[]> {
    const now = this.ctx.clock.nowMs();
    const target = conditionId.toLowerCase();
    const victims = [...this.live.values()].filter((o) => o.conditionId.toLowerCase() === target);
    await this.commitOps(victims.map((o) => this.cancelLive(o, reason, now)));
    return victims.map((o) => o.id);
  }

  /** Cancels GTD orders whose deadline (expiration − 60 s) has passed; the expiry timer calls it, tests may too. */
  async expireDue(): Promise<string[]> {
    const due = this.expiry.due(this.ctx.clock.nowMs());
    const ops = this.expireDueNow();
    await this.commitOps(ops);
    return due;
  }

  private expireDueNow(): OrderWrite[] {
    const now = this.ctx.clock.nowMs();
    const next = this.expiry.next();
    if (next === undefined || next > now) return [];
    const ops: OrderWrite[] = [];
    for (const id of this.expiry.due(now)) {
      const o = this.live.get(id);
      this.expiry.remove(id);
      if (o) ops.push(this.cancelLive(o, 'expired', now));
    }
    this.expiry.arm();
    return ops;
  }

  private async cancelWhere(identity: OrderIdentity, pick: (o: LiveOrder) => boolean, reason: string): Promise<CancelResult> {
    const now = this.ctx.clock.nowMs();
    const owner = identity.address.toLowerCase();
    const victims = [...this.live.values()].filter((o) => o.owner === owner && pick(o));
    await this.commitOps(victims.map((o) => this.cancelLive(o, reason, now)));
    return { canceled: victims.map((o) => this.answerId(o)), not_canceled: {} };
  }

  /** Takes an order off its book and releases its reservation in memory; returns the row update. */
  private cancelLive(o: LiveOrder, reason: string, now: number): OrderWrite {
    const state = this.books.get(o.conditionId);
    this.events?.touched(o.conditionId);
    if (state !== undefined && o.handle >= 0) {
      state.book.cancel(o.handle);
      state.orders.delete(o.handle);
    }
    o.handle = -1;
    if (o.reserved !== 0n) this.sheet.reserve(o.maker, reservedAssetOf(o, COLLATERAL), -o.reserved);
    o.reserved = 0n;
    o.status = 'cancelled';
    o.cancelReason = reason;
    o.updatedAt = now;
    this.live.delete(o.id);
    this.expiry.remove(o.id);
    return { kind: 'cancel', id: o.id, reason, at: now };
  }

  private whyNotCancelable(id: string, identity: OrderIdentity): string {
    const row = this.orderRepo.get(id);
    if (!row || row.owner !== identity.address.toLowerCase()) return NOT_FOUND_REASON;
    if (row.status === 'filled') return 'Order already matched';
    if (row.status === 'cancelled') return row.cancelReason === 'expired' ? 'the order is already canceled (GTD expired)' : 'the order is already canceled';
    return NOT_FOUND_REASON;
  }

  private async commitOps(ops: OrderWrite[]): Promise<void> {
    if (ops.length === 0) return;
    const captured = this.events?.capture(ops);
    await this.writer.submit(ops);
    if (captured !== undefined) this.events?.committed(captured);
  }

  // ── reads ───────────────────────────────────────────────────────────────────────────────────────

  /** GET /data/order/{id}: the order record, or 404 order_not_found. Ids are case-insensitive. */
  get(id: string): OrderRecord {
    const row = this.rowById(id);
    return toOrderRecord(row, this.tradeRepo.idsForOrder(row.id));
  }

  /** GET /data/order/{id} in the profile's shape: the public open-order record in the polymarket profile. */
  record(id: string): OrderRecord | PublicOrderRecord {
    return this.recordOf(this.rowById(id));
  }

  private rowById(id: string): OrderRow {
    const key = this.resolveId(String(id));
    const row = this.live.get(key) ?? this.orderRepo.get(key);
    if (!row) throw new ApiError('order_not_found', `No order has id ${String(id).slice(0, 80)}. Order ids are the ULIDs returned as order_id by POST /order, or the 0x order hashes.`);
    return row;
  }

  /** An order id as given: a ULID (any case) or the order's 0x EIP-712 hash (decisions §6), as its ULID. */
  private resolveId(raw: string): string {
    if (/^0x[0-9a-fA-F]{64}$/.test(raw)) return this.duplicateKeys().get('d:' + raw.toLowerCase()) ?? raw;
    return normalizeUlid(raw);
  }

  /** A trade in the profile's shape: orders named by their hashes in the polymarket profile. */
  private tradeOf(t: TradeRecord): TradeRecord {
    if (this.ctx.config.profile !== 'polymarket') return t;
    return withOrderHashes(t, (id) => (this.live.get(id) ?? this.orderRepo.get(id))?.digest ?? id);
  }

  /** An order's id in answers: its 0x hash in the polymarket profile, else its ULID. */
  private answerId(o: OrderRow): string {
    return this.ctx.config.profile === 'polymarket' ? o.digest : o.id;
  }

  /** The record in the profile's shape: the public open-order shape in the polymarket profile. */
  private recordOf(row: OrderRow): OrderRecord | PublicOrderRecord {
    const trades = this.tradeRepo.idsForOrder(row.id);
    return this.ctx.config.profile === 'polymarket' ? toPublicOrderRecord(row, trades, this.outcomesOf(row.conditionId)) : toOrderRecord(row, trades);
  }

  /** POST /order's answer in the polymarket profile: the public fields beside the snake_case ones. */
  publicPlacement(r: PlacementResult): PublicPlacement {
    const row = r.order_id === null ? undefined : (this.live.get(r.order_id) ?? this.orderRepo.get(r.order_id));
    return toPublicPlacement(r, row, row ? this.tradeRepo.takenBy(row.id) : []);
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
    const { rows, total } = this.orderRepo.listLive(
      {
        owner: identity.address.toLowerCase(),
        id: q.id ? this.resolveId(q.id) : undefined,
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

  /**
   * GET /data/orders/queue: the caller's resting orders (oldest first, optionally of one market or
   * token) with the size ahead of each at its price and the level's total, straight from the books.
   */
  queuePositions(identity: OrderIdentity, q: { market?: string; asset_id?: string }): QueueEntry[] {
    const owner = identity.address.toLowerCase();
    const market = q.market?.toLowerCase();
    const asset = q.asset_id === undefined ? undefined : canonicalTokenId(q.asset_id);
    const out: { at: number; entry: QueueEntry }[] = [];
    for (const o of this.live.values()) {
      if (o.owner !== owner || (market !== undefined && o.conditionId !== market) || (asset !== undefined && o.tokenId !== asset)) continue;
      const entry = this.queueEntry(o);
      if (entry) out.push({ at: o.createdAt, entry });
    }
    return out.sort((a, b) => a.at - b.at).map((x) => x.entry);
  }

  /** GET /data/order/{id}/queue: one of the caller's resting orders; 404 if not theirs, 409 once off the book. */
  queuePosition(identity: OrderIdentity, id: string): QueueEntry {
    const key = this.resolveId(String(id));
    const o = this.live.get(key);
    const row = o ?? this.orderRepo.get(key);
    if (!row || row.owner !== identity.address.toLowerCase()) {
      throw new ApiError('order_not_found', `You have no order with id ${String(id).slice(0, 80)}. List your resting orders with GET /data/orders.`);
    }
    const entry = o && this.queueEntry(o);
    if (!entry) throw new ApiError('order_not_resting', `Order ${String(id).slice(0, 80)} is ${row.status}: only an order resting on the book has a place in a queue.`);
    return entry;
  }

  private queueEntry(o: LiveOrder): QueueEntry | undefined {
    const pos = o.handle < 0 ? undefined : this.books.get(o.conditionId)?.book.queuePosition(o.handle);
    return pos && toQueueEntry(this.answerId(o), o, pos);
  }

  /** GET /data/trades: trades where the caller was taker or maker, newest first, paged. */
  listTrades(
    identity: OrderIdentity,
    q: { id?: string; maker_address?: string; market?: string; asset_id?: string; before?: number; after?: number; next_cursor?: string },
  ): Page<TradeRecord> {
    const offset = decodeCursor(q.next_cursor);
    const owner = identity.address.toLowerCase();
    const { rows, total } = this.tradeRepo.list(
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
      rows.map((t) => this.tradeOf(toTradeRecord(t, this.outcomesOf(t.conditionId), owner))),
      offset,
      PAGE_LIMIT,
      total,
    );
  }

  // ── balances ────────────────────────────────────────────────────────────────────────────────────

  /** Credits paper collateral (welcome grant on first key, operator faucet). Resolves once durable. */
  async creditCollateral(address: string, amount: bigint, reason: string): Promise<void> {
    if (amount <= 0n) throw new ApiError('invalid_field', `amount must be positive (got ${formatUnits(amount)}).`, { details: { field: 'amount', in: 'body', problem: 'must be positive' } });
    const addr = address.toLowerCase();
    if (this.sheet.balance(addr, COLLATERAL) + amount > MAX_BALANCE_UNITS) {
      throw new ApiError(
        'invalid_field',
        `amount ${formatUnits(amount)} would take ${addr}'s collateral above the maximum balance of ${formatUnits(MAX_BALANCE_UNITS)} (it holds ${formatUnits(this.sheet.balance(addr, COLLATERAL))}). Credit less.`,
        { details: { field: 'amount', in: 'body', problem: `exceeds the maximum balance ${formatUnits(MAX_BALANCE_UNITS)}` } },
      );
    }
    this.sheet.add(addr, COLLATERAL, amount);
    const entry: LedgerEntry = { time: this.ctx.clock.nowMs(), address: addr, asset: COLLATERAL, delta: amount, kind: 'credit', reason };
    await this.writer.submit([{ kind: 'ledger', entry }]);
  }

  /**
   * Paper reset (services/paper): cancels the owner's open orders, sets its collateral to `collateral`
   * and every share balance to zero, through the ledger like any other balance change. Each share row
   * is priced by `exitPrice` (the position's average cost), so the reset itself books no PnL.
   */
  async resetPaperAccount(identity: OrderIdentity, collateral: bigint, exitPrice: (asset: string) => bigint, reason: string): Promise<{ cancelled: string[] }> {
    const { canceled } = await this.cancelAll(identity);
    const addr = identity.address.toLowerCase();
    const now = this.ctx.clock.nowMs();
    const entries: LedgerEntry[] = [];
    for (const m of this.ctx.markets.list()) {
      for (const h of this.sheet.holdings(addr, m.tokenIds)) {
        const outcomeIndex = m.tokenIds.indexOf(h.asset);
        this.sheet.add(addr, h.asset, -h.amount);
        entries.push({ time: now, address: addr, asset: h.asset, delta: -h.amount, kind: 'credit', reason, conditionId: m.conditionId, outcomeIndex, side: h.amount > 0n ? 'SELL' : 'BUY', price: exitPrice(h.asset) });
      }
    }
    const delta = collateral - this.sheet.balance(addr, COLLATERAL);
    if (delta !== 0n) {
      this.sheet.add(addr, COLLATERAL, delta);
      entries.push({ time: now, address: addr, asset: COLLATERAL, delta, kind: 'credit', reason });
    }
    if (entries.length > 0) await this.writer.submit(entries.map((entry): OrderWrite => ({ kind: 'ledger', entry })));
    return { cancelled: canceled };
  }

  /** Balance, reservation and available amount in micro-units (for services and tests). */
  balanceOf(address: string, asset: string): { balance: bigint; reserved: bigint; available: bigint } {
    const a = address.toLowerCase();
    return { balance: this.sheet.balance(a, asset), reserved: this.sheet.reserved(a, asset), available: this.sheet.available(a, asset) };
  }

  /**
   * GET /balance-allowance: the funding wallet's balance (signature_type picks EOA, proxy or Safe, as
   * the public clients do), what open orders reserve, and the allowance (= balance for paper money).
   */
  balanceAllowance(identity: OrderIdentity, assetType: 'COLLATERAL' | 'CONDITIONAL', tokenId?: string, signatureType?: number): BalanceAllowance {
    let address = identity.address.toLowerCase();
    if (signatureType === 1 || signatureType === 2) {
      const wallet = this.walletOf(signatureType, address);
      if (!wallet) throw new ApiError('invalid_query', `signature_type ${signatureType} needs the wallet factories, which this exchange has not deployed.`);
      address = wallet;
    }
    let asset = COLLATERAL;
    if (assetType === 'CONDITIONAL') {
      if (!tokenId) throw new ApiError('invalid_query', "Query parameter 'token_id' is required when asset_type=CONDITIONAL.", { details: { field: 'token_id', in: 'querystring', problem: 'is required' } });
      asset = canonicalTokenId(tokenId);
      if (!this.ctx.markets.byToken(asset)) throw new ApiError('token_not_found', `No market trades token ${tokenId.slice(0, 80)}. List markets with GET /markets.`);
    }
    const balance = this.sheet.balance(address, asset).toString();
    const c = this.ctx.chain.contracts;
    return { balance, allowance: balance, reserved: this.sheet.reserved(address, asset).toString(), allowances: { [c.exchange]: balance, [c.negRiskExchange]: balance } };
  }

  /**
   * POST /redeem (decisions §5): pays the resolved market's payout (1 per winning share) to the caller's
   * wallets (EOA, and its proxy / Safe when they hold shares) and zeroes their positions.
   */
  async redeem(identity: OrderIdentity, conditionId: string): Promise<RedeemResult> {
    const market = this.ctx.markets.byCondition(conditionId) as TradableMarket | undefined;
    if (!market) throw new ApiError('market_not_found', `No market has condition id ${conditionId}. List markets with GET /markets.`);
    if (market.winner === null) throw new ApiError('market_not_resolved', `Market ${market.conditionId} is not resolved yet; redeem after the operator resolves it.`);
    const winner = market.winner;
    if ([...this.live.values()].some((o) => o.conditionId === market.conditionId)) await this.cancelMarketOrders(market.conditionId, 'market resolved');
    const owner = identity.address.toLowerCase();
    const wallets = [owner, this.walletOf(1, owner), this.walletOf(2, owner)].filter((w, i, all): w is string => w !== undefined && all.indexOf(w) === i);
    const now = this.ctx.clock.nowMs();
    const entries: LedgerEntry[] = [];
    const positions: RedeemResult['positions'] = [];
    let total = 0n;
    for (const address of wallets) {
      let payout = 0n;
      for (const i of [0, 1] as const) {
        const asset = market.tokenIds[i];
        const size = this.sheet.balance(address, asset);
        if (size <= 0n) continue;
        const pays = i === winner ? size : 0n;
        payout += pays;
        positions.push({ address, asset, outcomeIndex: i, size: formatUnits(size), payout: formatUnits(pays) });
        this.sheet.add(address, asset, -size);
        entries.push({ time: now, address, asset, delta: -size, kind: 'redeem', reason: 'redeem', conditionId: market.conditionId, outcomeIndex: i, side: 'SELL', price: i === winner ? ONE : 0n });
      }
      if (payout > 0n) {
        this.sheet.add(address, COLLATERAL, payout);
        entries.push({ time: now, address, asset: COLLATERAL, delta: payout, kind: 'redeem', reason: 'redeem', conditionId: market.conditionId, outcomeIndex: winner, side: 'SELL', price: ONE });
      }
      total += payout;
    }
    if (positions.length === 0) {
      throw new ApiError('nothing_to_redeem', `${wallets.join(', ')} hold no shares of market ${market.conditionId}; nothing to redeem.`);
    }
    await this.writer.submit(entries.map((entry): OrderWrite => ({ kind: 'ledger', entry })));
    return { conditionId: market.conditionId, winningOutcomeIndex: winner, payout: formatUnits(total), positions };
  }

  // ── market data for the markets routes ──────────────────────────────────────────────────────────

  /** The book of a market (one per binary market, outcome-0 terms); undefined for an unknown market. */
  book(conditionId: string): MarketBook | undefined {
    const existing = this.books.get(conditionId) ?? this.books.get(conditionId.toLowerCase());
    if (existing) return existing.book;
    const m = this.ctx.markets.byCondition(conditionId);
    return m ? this.bookOf(m.conditionId).book : undefined;
  }

  /** The last fill seen on a token (a fill on the other token of the market counts, mirrored). */
  lastTrade(tokenId: string): { price: bigint; side: OrderSide } | undefined {
    return this.lastTrades.get(canonicalTokenId(tokenId));
  }

  /** The public tape, newest first: trades of a token (either side) or of a market. */
  tradeTape(q: { tokenId?: string; conditionId?: string; limit: number; offset: number }): TradeRecord[] {
    const { rows } = this.tradeRepo.list(
      { assetId: q.tokenId === undefined ? undefined : canonicalTokenId(q.tokenId), conditionId: q.conditionId?.toLowerCase() },
      q.limit,
      q.offset,
    );
    return rows.map((t) => toTradeRecord(t, this.outcomesOf(t.conditionId), undefined));
  }

  /** Fill prices on a token within [startSec, endSec], oldest first (price history before bucketing). */
  priceSeries(tokenId: string, startSec: number, endSec: number): Array<{ t: number; price: bigint; size: bigint }> {
    const token = canonicalTokenId(tokenId);
    const found = this.ctx.markets.byToken(token);
    if (!found) return [];
    return this.tradeRepo
      .inWindow(found.market.conditionId, startSec * 1000, endSec * 1000 + 999)
      .map((t) => ({ t: Math.floor(t.matchTime / 1000), price: priceOnToken(t, token), size: t.size }));
  }

  // ── helpers ─────────────────────────────────────────────────────────────────────────────────────

  private bookOf(conditionId: string): MarketBookState {
    let b = this.books.get(conditionId);
    if (!b) {
      b = { book: createOrderBook(), orders: new Map() };
      this.books.set(conditionId, b);
    }
    return b;
  }

  private rememberLastTrade(t: TradeRow): void {
    const flip = (s: OrderSide): OrderSide => (s === 'BUY' ? 'SELL' : 'BUY');
    const market = this.ctx.markets.byCondition(t.conditionId);
    const tokens = market ? market.tokenIds : [t.takerAssetId];
    for (const token of tokens) {
      this.lastTrades.set(token, { price: priceOnToken(t, token), side: token === t.takerAssetId ? t.takerSide : flip(t.takerSide) });
    }
  }

  private outcomesOf(conditionId: string): readonly [string, string] | undefined {
    return this.ctx.markets.byCondition(conditionId)?.outcomes;
  }

  /** The proxy (1) or Safe (2) wallet of an owner, lower-case (CREATE2 addresses: derived once, then cached). */
  private walletOf(type: 1 | 2, owner: string): string | undefined {
    const key = type + ':' + owner.toLowerCase();
    const cached = this.wallets.get(key);
    if (cached !== undefined) return cached;
    const d = this.ctx.chain.deployment;
    if (!d) return undefined;
    const o = owner.toLowerCase() as Address;
    const w = (type === 1 ? deriveProxyWalletAddress(o, d) : deriveSafeAddress(o, d)).toLowerCase();
    this.wallets.set(key, w);
    return w;
  }
}

/** When a GTD order leaves the book: expiration − 60 s (decisions §3), in ms. */
function expiryDeadline(o: Pick<OrderRow, 'expiration'>): number {
  return (o.expiration - GTD_BUFFER_SECONDS) * 1000;
}

/** Token ids are decimal uint256 strings; compare their canonical form (no leading zeros). */
function canonicalTokenId(tokenId: unknown): string {
  const s = String(tokenId ?? '');
  return /^\d{1,78}$/.test(s) ? BigInt(s).toString() : s;
}

/** A fill's price seen on `token`: the taker's or maker's price, or the complement for the other token. */
function priceOnToken(t: TradeRow, token: string): bigint {
  if (token === t.takerAssetId) return t.price;
  if (token === t.makerAssetId) return t.makerPrice;
  return ONE - t.price;
}
