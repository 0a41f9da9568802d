import { createHash } from 'node:crypto';
import { toBookTerms, type TimeInForce } from '../../book/types.js';
import { formatUnits } from '../../protocol/amounts.js';
import type { PostOrderBody } from '../../protocol/eip712.js';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import type { OrderRow } from '../../store/orderRepo.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { OrderDeps } from './orderDeps.js';
import { buyReservationFor, remainingOf, rowOf, type LiveOrder, type OrderIdentity, type TradableMarket } from './liveOrder.js';
import { accepted, rejected, type PlacementResult } from './placementResult.js';
import { publicOrder } from './publicOrder.js';
import { isRejection, signingDigestOf, validateOrder, type ValidationDeps } from './validateOrder.js';
import { feeRateRejection, takerFeeBound } from '../fees/takerFee.js';
import { NO_FEE } from '../../protocol/feeSchedule.js';
import { canonicalTokenId, expiryDeadline } from './tradingState.js';
import type { TradingState } from './tradingState.js';
import type { OrderSettlement } from './orderSettlement.js';
import type { OrderCancels } from './orderCancels.js';
import type { SignatureVerifier } from '../crypto/signatureVerifier.js';
import { SteppedClock } from '../clock.js';

/** Most orders in one POST /orders batch. */
export const MAX_BATCH_ORDERS = 15;

/**
 * Placement and matching (POST /order, POST /orders): request checks, validation, duplicate and balance
 * checks, then the book; each fill is settled by OrderSettlement. Everything after the signature
 * recovery runs synchronously, so placements of one turn see each other; the placement's writes go as
 * ONE group to the order writer and the reply waits until that group is on disk (group commit).
 */
export class OrderPlacement {
  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
    private readonly settlement: OrderSettlement,
    private readonly cancels: OrderCancels,
    /** Signature recovery; batched to a worker thread when the verifier runs in worker mode. */
    private readonly verifier: SignatureVerifier,
  ) {}

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
    // On a mirrored market the order meets the book as it stands `latencyMs` after its arrival (decisions §10).
    const latency = this.ctx.config.latencyMs ?? 0;
    if (latency > 0 && this.s.books.get(this.ctx.markets.byToken(canonicalTokenId(body.order?.tokenId))?.market.conditionId ?? '')?.public) {
      const now = this.ctx.clock.nowMs();
      if (this.ctx.clock instanceof SteppedClock) return this.delay(identity, body, deps, now, now + latency);
      return this.s.latency.run(now + latency, () => this.placeAndCommit(identity, body, deps, opts.inBatch === true));
    }
    return this.placeAndCommit(identity, body, deps, opts.inBatch === true);
  }

  /**
   * Stepped and fast clocks stand still until the next advance, so a reply that waited for the latency
   * would keep a bot that advances after each reply waiting forever. The order is checked now and
   * answered `delayed` (as the public service answers an order held for a matching delay) with the id it
   * will have; it is placed when the advance reaches arrival + latency. Checks that depend on that moment
   * (duplicates, balance, the book) run then: an order refused then never appears (GET /data/order 404).
   */
  private delay(identity: OrderIdentity, body: PostOrderBody, deps: ValidationDeps, now: number, at: number): PlacementResult {
    deps.nowMs = now;
    const v = validateOrder(identity, body, deps);
    if (isRejection(v)) return rejected(v.code, v.message);
    const keys = this.s.duplicateKeys();
    const twin = keys.get('d:' + v.digest) ?? keys.get('s:' + v.maker + ':' + v.salt) ?? [...this.s.delayed].find(([, digest]) => digest === v.digest)?.[0];
    if (twin !== undefined) {
      return rejected('INVALID_ORDER_DUPLICATED', `order is invalid. Duplicated. Same order (digest ${v.digest}, or maker ${v.maker} with salt ${v.salt}) has already been placed as ${twin}, can't be placed again; sign a new order with a fresh salt.`);
    }
    const id = this.s.ids.next(now);
    this.s.delayed.set(id, v.digest);
    void this.s.latency
      .run(at, () => this.placeAndCommit(identity, body, deps, true, id))
      .catch(() => undefined)
      .finally(() => this.s.delayed.delete(id));
    return accepted(id, 'delayed');
  }

  private async placeAndCommit(identity: OrderIdentity, body: PostOrderBody, deps: ValidationDeps, inBatch: boolean, id?: string): Promise<PlacementResult> {
    const { result, ops, keys, refusal } = this.placeNow(identity, body, deps, id);
    if (ops.length > 0) {
      const captured = this.s.events?.capture(ops);
      try {
        await this.s.track(this.s.writer.submit(ops));
        if (captured !== undefined) this.s.events?.committed(captured);
      } catch (e) {
        // Not stored, so not a duplicate of anything.
        this.s.forgetKeys(keys);
        return rejected('EXECUTION_ERROR', `could not run the execution: the database refused the write (${(e as Error).message}).`);
      }
    }
    // A batch answers per entry; a single order gets the request-level 409.
    if (refusal !== undefined && !inBatch) throw refusal;
    return result;
  }

  private validationDeps(): ValidationDeps {
    return {
      nowMs: this.ctx.clock.nowMs(),
      chainId: this.ctx.config.chainId,
      contracts: this.ctx.chain.contracts,
      byToken: (t) => this.ctx.markets.byToken(t) as { market: TradableMarket; outcomeIndex: 0 | 1 } | undefined,
      walletOf: (type, signer) => this.s.walletOf(type, signer),
      conditionIdOptional: this.ctx.config.profile === 'polymarket',
    };
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
  private placeNow(identity: OrderIdentity, body: PostOrderBody, deps: ValidationDeps, presetId?: string): { result: PlacementResult; ops: OrderWrite[]; keys: string[]; refusal?: ApiError } {
    const ops: OrderWrite[] = this.cancels.expireDueNow();
    const now = this.ctx.clock.nowMs();
    deps.nowMs = now;
    const v = validateOrder(identity, body, deps);
    if (isRejection(v)) return { result: rejected(v.code, v.message), ops, keys: [] };
    const feeRate = v.market.feeRateBps ?? 0;
    const feeProblem = feeRateRejection(v.feeRateBps, feeRate, v.tokenId);
    if (feeProblem) return { result: rejected(feeProblem.code, feeProblem.message), ops, keys: [] };

    const mirror = this.ctx.mirrorOf?.(v.market.conditionId);
    if (mirror?.upstreamState === 'closed') {
      return { result: rejected('INVALID_ORDER_ERROR', `order is invalid. Market ${v.market.conditionId} is closed upstream (${mirror.source}) and takes no new orders; it resolves when the public market does.`), ops, keys: [] };
    }
    if (mirror?.upstreamState === 'stale') {
      const t = toBookTerms(v.outcomeIndex, v.side, Number(v.price));
      if (this.s.bookOf(v.market.conditionId).book.fillable(t.side, t.price, Number(v.size)) > 0) {
        const age = mirror.lastEventAgeMs === null ? 'never heard from' : `silent for ${Math.floor(mirror.lastEventAgeMs / 1000)} s`;
        const message = `market ${v.market.conditionId} is stale: its public upstream (${mirror.source}) has been ${age}, so its public depth may be out of date and this order, which would trade now, is refused. Retry once mirror.upstreamState is "live" again (GET /markets/${v.market.conditionId}); an order priced not to trade may still rest.`;
        return { result: rejected('INVALID_ORDER_ERROR', message), ops, keys: [], refusal: new ApiError('market_stale', message, { details: { conditionId: v.market.conditionId, lastEventAgeMs: mirror.lastEventAgeMs } }) };
      }
    }

    const digestKey = 'd:' + v.digest;
    const saltKey = 's:' + v.maker + ':' + v.salt;
    const dupKeys = this.s.duplicateKeys();
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
    // A BUY that takes pays the taker fee on top of its cost: hold back the most it can owe (takerFee.ts),
    // over at most one fill per order now resting on the book.
    const maxFills = this.s.bookOf(v.market.conditionId).book.orderCount;
    const need = v.side === 'BUY' ? v.makerAmount + takerFeeBound(v.market.feeSchedule ?? NO_FEE, v.price, v.size, maxFills) : v.size;
    const available = this.s.sheet.available(v.maker, asset);
    let warning: { code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE'; message: string } | undefined;
    if (need > available) {
      const what = v.side === 'BUY' ? 'collateral' : `shares of token ${v.tokenId}`;
      const message =
        `not enough balance / allowance: this ${v.side} needs ${formatUnits(need)} ${what} but ${v.maker} has ${formatUnits(available)} available ` +
        `(balance ${formatUnits(this.s.sheet.balance(v.maker, asset))} − ${formatUnits(this.s.sheet.reserved(v.maker, asset))} reserved by open orders).`;
      if (this.ctx.config.enforceBalances) return { result: rejected('INVALID_ORDER_NOT_ENOUGH_BALANCE', message), ops, keys: [] };
      warning = { code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE', message };
    }

    const terms = toBookTerms(v.outcomeIndex, v.side, Number(v.price));
    const overCap = this.s.live.capRejection(identity.address.toLowerCase(), () => (v.orderType === 'GTC' || v.orderType === 'GTD') && this.s.bookOf(v.market.conditionId).book.fillable(terms.side, terms.price, Number(v.size)) < Number(v.size));
    if (overCap) return { result: rejected(overCap.code, overCap.message), ops, keys: [] };
    if (body.postOnly === true) {
      if (v.orderType !== 'GTC' && v.orderType !== 'GTD') {
        return { result: rejected('INVALID_ORDER_ERROR', `invalid post-only order: postOnly is only supported for GTC and GTD orders (got ${v.orderType}).`), ops, keys: [] };
      }
      if (this.s.bookOf(v.market.conditionId).book.fillable(terms.side, terms.price, Number(v.size)) > 0) {
        return { result: rejected('INVALID_ORDER_ERROR', 'invalid post-only order: order crosses book. Price it behind the best opposite quote or drop postOnly.'), ops, keys: [] };
      }
    }

    const order: LiveOrder = {
      id: presetId ?? this.s.ids.next(now),
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
    this.s.sheet.reserve(order.maker, asset, need);

    const tif: TimeInForce = order.orderType === 'FOK' ? 'FOK' : order.orderType === 'FAK' ? 'FAK' : 'GTC';
    const state = this.s.bookOf(order.conditionId);
    const outcome = state.book.place({ side: terms.side, price: terms.price, size: Number(order.originalSize), tif });

    if (order.orderType === 'FOK' && outcome.fills.length === 0) {
      // Killed: nothing matched, nothing rests, nothing is stored (so nothing counts as a duplicate).
      this.s.sheet.reserve(order.maker, asset, -need);
      return { result: rejected('FOK_ORDER_NOT_FILLED_ERROR'), ops, keys: [] };
    }

    this.s.events?.touched(order.conditionId);
    const tradeOps: OrderWrite[] = [];
    const txHash = outcome.fills.length === 0 ? '' : '0x' + createHash('sha256').update('settlement:' + order.id).digest('hex');
    for (const fill of outcome.fills) {
      let maker = state.orders.get(fill.makerHandle);
      if (!maker && state.public?.owns(fill.makerHandle)) {
        // Public depth of a mirrored market: remembered as consumed, settled against the public-market account.
        state.public.takerFilled(fill.makerHandle, fill.size, fill.makerRemaining);
        maker = publicOrder(v.market, terms.side === 'bid' ? 'ask' : 'bid', fill.price, now);
      }
      if (!maker) throw new Error(`book returned a fill against unknown order handle ${fill.makerHandle}`);
      tradeOps.push(...this.settlement.settle(order, maker, fill.price, BigInt(fill.size), fill.makerRemaining === 0, txHash, now));
      if (fill.makerRemaining === 0) state.orders.delete(fill.makerHandle);
    }

    const remaining = remainingOf(order);
    // A resting BUY is a maker from now on (no fee): keep only the limit cost of what rests.
    const restCap = buyReservationFor(order, remaining);
    if (outcome.rested && order.side === 'BUY' && order.reserved > restCap) {
      this.s.sheet.reserve(order.maker, asset, restCap - order.reserved);
      order.reserved = restCap;
    }
    if (!outcome.rested && order.reserved !== 0n) {
      this.s.sheet.reserve(order.maker, asset, -order.reserved);
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
      this.s.live.set(order.id, order);
      if (order.orderType === 'GTD') this.s.expiry.add(order.id, expiryDeadline(order));
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
}
