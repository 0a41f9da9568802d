import { createOrderBook } from '../../book/orderBook.js';
import type { MarketBook, OrderHandle } from '../../book/types.js';
import { ONE } from '../../protocol/amounts.js';
import type { Address } from '../../protocol/eip712.js';
import { UlidFactory, normalizeUlid } from '../../protocol/ulid.js';
import { deriveProxyWalletAddress, deriveSafeAddress } from '../../protocol/walletAddresses.js';
import { BalanceRepo } from '../../store/balanceRepo.js';
import { OrderRepo, type OrderRow, type OrderSide } from '../../store/orderRepo.js';
import type { OrderWriter } from '../../store/orderWriter.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import { TradeRepo, type TradeRow } from '../../store/tradeRepo.js';
import type { OrderDeps } from './orderDeps.js';
import { BalanceSheet } from './balanceSheet.js';
import { ExpiryTimer } from './expiryTimer.js';
import { LatencyGate } from './latencyGate.js';
import type { LiveOrder, TradableMarket } from './liveOrder.js';
import { LiveOrders, MAX_OPEN_ORDERS } from './liveOrders.js';
import type { OrderEvents } from './orderEvents.js';
import type { PublicDepth } from './publicDepth.js';
import { GTD_BUFFER_SECONDS } from './validateOrder.js';

/** A market's book and its resting orders by book handle (an order is in `orders` exactly while it rests on `book`). */
export interface MarketBookState {
  readonly book: MarketBook;
  readonly orders: Map<OrderHandle, LiveOrder>;
  /** A mirrored market's public layer (decisions §10): book entries that are no stored order. */
  public?: PublicDepth;
}

/**
 * The order service's memory, shared by its parts (placement, settlement, cancels, queries, paper
 * account): books, live orders, balances, the duplicate index, last trades, the GTD timer and the
 * writer every change goes through. It changes synchronously so placements within one event-loop
 * turn see each other.
 */
export class TradingState {
  readonly orderRepo: OrderRepo;
  readonly tradeRepo: TradeRepo;
  readonly balanceRepo: BalanceRepo;
  /** Per market: its book and the live orders resting on it by book handle (fills name their maker by handle). */
  readonly books = new Map<string, MarketBookState>();
  readonly live: LiveOrders;
  readonly sheet = new BalanceSheet();
  /**
   * Duplicate index, the only one (the table has no unique keys, see migration 006): 'd:'+digest and
   * 's:'+maker+':'+salt of every order ever stored or accepted and being committed, each mapped to
   * its order id. Loaded from the table on first use, so placement never queries for duplicates.
   */
  private dupKeys: Map<string, string> | undefined;
  private readonly lastTrades = new Map<string, { price: bigint; side: OrderSide }>();
  /** Order and trade ids; drawn from the run's seed in fast and stepped runs (decisions §11). */
  readonly ids: UlidFactory;
  readonly expiry: ExpiryTimer;
  /** Holds orders on mirrored markets for the fill latency (config.latencyMs). */
  readonly latency: LatencyGate;
  /** Orders answered `delayed` (stepped clocks) and not placed yet: their id → their 0x hash. */
  readonly delayed = new Map<string, string>();
  private readonly wallets = new Map<string, string>();
  /** The streams service's hooks (services/streams): told of every change, then of its commit. */
  events: OrderEvents | undefined;
  /** Groups submitted to the writer and not yet committed (see `track`). */
  private inFlight = 0;
  private lastSubmitted: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: OrderDeps,
    /** Every write of the orders, trades, balances and ledger tables goes through it, in order. */
    readonly writer: OrderWriter,
    onExpiryDue: () => unknown,
  ) {
    this.orderRepo = new OrderRepo(ctx.db);
    this.tradeRepo = new TradeRepo(ctx.db);
    this.balanceRepo = new BalanceRepo(ctx.db);
    this.ids = new UlidFactory(ctx.ids?.random80);
    this.live = new LiveOrders(ctx.config.maxOpenOrders ?? MAX_OPEN_ORDERS);
    this.expiry = new ExpiryTimer(ctx.clock, onExpiryDue);
    this.latency = new LatencyGate(ctx.clock);
  }

  /** The duplicate index (see dupKeys), built from the orders table on first use. */
  duplicateKeys(): Map<string, string> {
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

  /** Drops keys of an order that was not stored after all (so it is a duplicate of nothing). */
  forgetKeys(keys: readonly string[]): void {
    for (const k of keys) this.dupKeys?.delete(k);
  }

  bookOf(conditionId: string): MarketBookState {
    let b = this.books.get(conditionId);
    if (!b) {
      b = { book: createOrderBook(), orders: new Map() };
      this.books.set(conditionId, b);
    }
    return b;
  }

  /** `market`: the trade's market when the caller has it at hand (saves a lookup per public print). */
  rememberLastTrade(t: TradeRow, market: Pick<TradableMarket, 'tokenIds'> | undefined = this.ctx.markets.byCondition(t.conditionId)): void {
    const tokens = market ? market.tokenIds : [t.takerAssetId];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      this.lastTrades.set(token, { price: priceOnToken(t, token), side: token === t.takerAssetId ? t.takerSide : t.takerSide === 'BUY' ? 'SELL' : 'BUY' });
    }
  }

  /** The last fill seen on a token (a fill on the other token of the market counts, mirrored). */
  lastTrade(tokenId: string): { price: bigint; side: OrderSide } | undefined {
    return this.lastTrades.get(canonicalTokenId(tokenId));
  }

  outcomesOf(conditionId: string): readonly [string, string] | undefined {
    return this.ctx.markets.byCondition(conditionId)?.outcomes;
  }

  /** The proxy (1) or Safe (2) wallet of an owner, lower-case (CREATE2 addresses: derived once, then cached). */
  walletOf(type: 1 | 2, owner: string): string | undefined {
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

  /** An order id as given: a ULID (any case) or the order's 0x EIP-712 hash (decisions §6), as its ULID. */
  resolveId(raw: string): string {
    if (/^0x[0-9a-fA-F]{64}$/.test(raw)) return this.duplicateKeys().get('d:' + raw.toLowerCase()) ?? raw;
    return normalizeUlid(raw);
  }

  /** An order's id in answers: its 0x hash in the polymarket profile, else its ULID. */
  answerId(o: OrderRow): string {
    return this.ctx.config.profile === 'polymarket' ? o.digest : o.id;
  }

  /** An order's row: live in memory, else as stored. */
  rowOf(id: string): OrderRow | undefined {
    return this.live.get(id) ?? this.orderRepo.get(id);
  }

  /** Makes `ops` durable as one group, telling the listener before and after (`told` too: changes to tell that are not stored). */
  async commit(ops: OrderWrite[], told: readonly OrderWrite[] = []): Promise<void> {
    if (ops.length === 0) return;
    const captured = this.events?.capture(told.length === 0 ? ops : [...ops, ...told]);
    await this.track(this.writer.submit(ops));
    if (captured !== undefined) this.events?.committed(captured);
  }

  /**
   * Marks a group as being committed, so a change with nothing to store (the public layer) is told
   * after it: listeners hear changes in the order they happened.
   */
  track(submitted: Promise<void>): Promise<void> {
    this.inFlight++;
    const done = submitted.finally(() => this.inFlight--);
    this.lastSubmitted = done.catch(() => undefined);
    return done;
  }

  /**
   * A change with nothing to store (the public layer of a mirrored market, public prints as `told` trades):
   * told at once, or after the groups being committed.
   */
  publishUncommitted(conditionId: string, told: readonly OrderWrite[] = []): void {
    if (!this.events) return;
    this.events.touched(conditionId);
    const captured = this.events.capture(told);
    if (captured === undefined) return;
    if (this.inFlight === 0) this.events.committed(captured);
    else void this.lastSubmitted.then(() => this.events?.committed(captured));
  }
}

/** When a GTD order leaves the book: expiration − 60 s (decisions §3), in ms. */
export function expiryDeadline(o: Pick<OrderRow, 'expiration'>): number {
  return (o.expiration - GTD_BUFFER_SECONDS) * 1000;
}

/** Token ids are decimal uint256 strings; compare their canonical form (no leading zeros). */
export function canonicalTokenId(tokenId: unknown): string {
  const s = String(tokenId ?? '');
  return /^\d{1,78}$/.test(s) ? BigInt(s).toString() : s;
}

/** A fill's price seen on `token`: the taker's or maker's price, or the complement for the other token. */
export function priceOnToken(t: TradeRow, token: string): bigint {
  if (token === t.takerAssetId) return t.price;
  if (token === t.makerAssetId) return t.makerPrice;
  return ONE - t.price;
}
