import { createHash } from 'node:crypto';
import { PRICE_ONE, type BookSide } from '../../book/types.js';
import { ApiError } from '../../protocol/errors.js';
import { ulidHex } from '../../protocol/ulid.js';
import type { OrderWrite } from '../../store/orderWrites.js';
import type { PublicBookEvent, PublicLevel } from '../mirror/mirrorTypes.js';
import type { LiveOrder, TradableMarket } from './liveOrder.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import type { OrderDeps } from './orderDeps.js';
import type { OrderSettlement } from './orderSettlement.js';
import { PUBLIC_MARKET_ACCOUNT, PUBLIC_MARKET_NAME, PublicDepth } from './publicDepth.js';
import { publicOrder } from './publicOrder.js';
import type { MarketBookState, TradingState } from './tradingState.js';

/**
 * Feeds a mirrored market's decoded upstream events into its book (decisions §10): depth into the public
 * layer (publicDepth.ts), public prints walked against the book so local resting orders fill from them.
 * One call is one change: its fills settle as ONE write group, and the book change streams like any
 * committed change; a change of public depth alone writes nothing to SQLite.
 */
/** What most calls answer (no local fill, nothing to wait for): one settled promise shared by all of them. */
const NO_FILLS: Promise<{ fills: number }> = Promise.resolve(Object.freeze({ fills: 0 }));
const NOTHING_TOLD: readonly OrderWrite[] = Object.freeze([]);

export class PublicFeed {
  /**
   * What the call being applied collects, made on first use: local fills to store, and public prints no
   * local order took part in (streamed as `last_trade_price`, never stored). A call runs synchronously up
   * to its commit, so one pair of fields serves every call.
   */
  private ops: OrderWrite[] | undefined;
  private told: OrderWrite[] | undefined;

  constructor(
    private readonly ctx: OrderDeps,
    private readonly s: TradingState,
    private readonly settlement: OrderSettlement,
  ) {}

  /**
   * Not an async function: a call that stores nothing (nearly all of them) answers one shared settled
   * promise and allocates nothing for it. Errors still reject (never throw to the caller).
   */
  apply(conditionId: string, events: readonly PublicBookEvent[]): Promise<{ fills: number }> {
    this.ops = undefined;
    this.told = undefined;
    try {
      const market = this.ctx.markets.byCondition(conditionId);
      if (!market) throw new ApiError('market_not_found', `No market has condition id ${conditionId}: create the mirrored market before feeding it.`);
      const state = this.s.bookOf(market.conditionId);
      const depth = (state.public ??= new PublicDepth(state.book));
      if (market.winner !== null) {
        // Resolved here: late upstream depth must not come back to a book that no longer trades.
        this.drop(market.conditionId);
        return NO_FILLS;
      }
      /** The exchange time of this call's prints, read at the first one. */
      let now: number | undefined;
      let fills = 0;
      let changed = false;
      // Indexed loops on this path: a for-of over an array costs an iterator in code that is not optimised yet.
      for (let i = 0; i < events.length; i++) {
        const e = events[i];
        switch (e?.kind) {
          case 'snapshot':
            depth.snapshot(validLevels(e.bids), validLevels(e.asks));
            changed = true;
            break;
          case 'level':
            if (isSide(e.side) && isLevel(e.price, e.size)) changed = depth.update(e.side, e.price, e.size) || changed;
            break;
          case 'print':
            if (!isSide(e.aggressor) || !isLevel(e.price, e.size) || e.size === 0 || !depth.live) break;
            fills += this.print(market, state, depth, e.aggressor, e.price, e.size, (now ??= this.ctx.clock.nowMs()));
            changed = true;
            break;
          case 'tick':
          case 'closed':
          case 'resolved':
            // The market service changes the tick or resolves; the public layer waits for the next snapshot (or goes for good).
            changed = depth.drop() || changed;
            break;
        }
      }
      if (!changed) return NO_FILLS;
      const ops = this.ops;
      const told = this.told ?? NOTHING_TOLD;
      if (ops === undefined) {
        // No local fill (so fills is 0): a change with nothing to store.
        this.s.publishUncommitted(market.conditionId, told);
        return NO_FILLS;
      }
      this.s.events?.touched(market.conditionId);
      return this.s.commit(ops, told).then(() => ({ fills }));
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  /** Takes the public layer off the market's book (stale or closed upstream, stop following). */
  drop(conditionId: string): void {
    const state = this.s.books.get(conditionId);
    if (state?.public?.drop()) this.s.publishUncommitted(conditionId);
  }

  /**
   * A public trade print walked like a public taker limit order at its price: from the best level to the
   * price (at or through it) in queue order. Public entries it meets shrink silently; local orders fill
   * (taker public-market, at the local order's price). The levels it touched are then reconciled to their
   * targets, so a print and the upstream update it caused give one book in either order.
   */
  private print(market: TradableMarket, state: MarketBookState, depth: PublicDepth, aggressor: BookSide, price: number, size: number, now: number): number {
    const out = state.book.place({ side: aggressor, price, size, tif: 'FAK' });
    // The print's id (the trade row's id when public size traded) and its transaction hash, minted when first needed.
    let printId: string | undefined;
    let txHash = '';
    let taker: LiveOrder | undefined;
    let fills = 0;
    let publicSize = size;
    for (let i = 0; i < out.fills.length; i++) {
      const f = out.fills[i]!;
      if (depth.owns(f.makerHandle)) {
        depth.printed(f.makerHandle, f.size, f.makerRemaining);
        continue;
      }
      const maker = state.orders.get(f.makerHandle);
      if (!maker) throw new Error(`book returned a fill against unknown order handle ${f.makerHandle}`);
      if (printId === undefined) txHash = printHash((printId = this.s.ids.next(now)));
      taker ??= publicOrder(market, aggressor, price, now);
      (this.ops ??= []).push(...this.settlement.settle(taker, maker, f.price, BigInt(f.size), f.makerRemaining === 0, txHash, now));
      if (f.makerRemaining === 0) state.orders.delete(f.makerHandle);
      publicSize -= f.size;
      fills++;
    }
    if (out.fills.length > 0) depth.settlePrint();
    if (publicSize > 0) {
      // What traded between public parties only: the market's last trade, as the public stream shows it.
      if (printId === undefined) txHash = printHash((printId = this.s.ids.next(now)));
      const row = publicPrint(market, aggressor, printId, BigInt(price), BigInt(publicSize), txHash, now);
      this.s.rememberLastTrade(row, market);
      (this.told ??= []).push({ kind: 'trade', row });
    }
    return fills;
  }
}

/** The first half of every print's transaction hash: the first 16 bytes of sha256("public-print"), marking it as no chain transaction. */
const PRINT_TAG = createHash('sha256').update('public-print').digest('hex').slice(0, 32);

/**
 * A print's transaction hash, 32 bytes like a chain one: PRINT_TAG, then the 128 bits of the print's
 * ULID. Unique per print as its id is, reproducible where the ids are (decisions §11), and cheap: a
 * digest per public print was a real part of the cost of mirroring.
 */
export function printHash(printId: string): string {
  return '0x' + PRINT_TAG + ulidHex(printId);
}

/** A public print as a trade row between public parties (streamed, never stored), in outcome-0 terms like publicOrder's. */
function publicPrint(market: TradableMarket, aggressor: BookSide, id: string, price: bigint, size: bigint, txHash: string, now: number): TradeRow {
  const side = aggressor === 'bid' ? 'BUY' : 'SELL';
  return {
    id,
    matchTime: now,
    conditionId: market.conditionId,
    takerOrderId: PUBLIC_MARKET_NAME,
    makerOrderId: PUBLIC_MARKET_NAME,
    takerAssetId: market.tokenIds[0],
    makerAssetId: market.tokenIds[0],
    takerOutcomeIndex: 0,
    makerOutcomeIndex: 0,
    takerAddress: PUBLIC_MARKET_ACCOUNT,
    makerAddress: PUBLIC_MARKET_ACCOUNT,
    takerOwner: PUBLIC_MARKET_ACCOUNT,
    makerOwner: PUBLIC_MARKET_ACCOUNT,
    takerSide: side,
    makerSide: side === 'BUY' ? 'SELL' : 'BUY',
    price,
    makerPrice: price,
    size,
    kind: 'NORMAL',
    takerFeeRateBps: '0',
    makerFeeRateBps: '0',
    fee: 0n,
    makerRebate: 0n,
    transactionHash: txHash,
  };
}

function validLevels(levels: unknown): readonly PublicLevel[] {
  if (!Array.isArray(levels)) return [];
  // A decoded book is all valid: keep the array as it is (no copy per book).
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i] as PublicLevel | null;
    if (l === null || typeof l !== 'object' || !isLevel(l.price, l.size)) return levels.filter(isValidLevel);
  }
  return levels as PublicLevel[];
}

function isValidLevel(l: PublicLevel | null): boolean {
  return l !== null && typeof l === 'object' && isLevel(l.price, l.size);
}

function isSide(v: unknown): v is BookSide {
  return v === 'bid' || v === 'ask';
}

/** A public level the book can hold: a price strictly inside (0, 1) and a whole, safe size (0 removes). */
function isLevel(price: number, size: number): boolean {
  // `% 1 === 0` is false for NaN and ±Infinity too; the bounds keep both in range (no builtin calls on this path).
  return typeof price === 'number' && price > 0 && price < PRICE_ONE && price % 1 === 0 && typeof size === 'number' && size >= 0 && size <= Number.MAX_SAFE_INTEGER && size % 1 === 0;
}
