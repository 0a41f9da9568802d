/**
 * Test bench for the data service: a real SQLite file in a temp dir with the real migrations, the real
 * market registry and the orders work's own settlement and repositories to write fills and redemptions
 * exactly as the order service does, plus real order books for midpoints. Only the order service's
 * matching loop is left out, so position math can be driven fill by fill.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrderBook } from '../book/orderBook.js';
import { PRICE_ONE, type MarketBook } from '../book/types.js';
import type { ChainHandle } from '../chain/chainHandle.js';
import { resolveConfig } from '../config.js';
import { BalanceRepo, COLLATERAL, type LedgerEntry } from '../store/balanceRepo.js';
import { openDatabase, type Db } from '../store/database.js';
import type { Secrets } from '../store/secrets.js';
import { TradeRepo } from '../store/tradeRepo.js';
import { WriteBatcher } from '../store/writeBatcher.js';
import { ManualClock } from '../services/clock.js';
import type { EngineContext } from '../http/engineContext.js';
import type { WritableContext } from './engineKit.js';
import { MarketService, type Market } from '../services/markets/marketService.js';
import { RateLimiter } from '../services/ratelimit/rateLimiter.js';
import type { OrderService } from '../services/orders/orderService.js';
import { settleFill } from '../services/orders/settleFill.js';
import { DataService } from '../services/data/dataService.js';

export interface Party {
  address: string;
  outcomeIndex: 0 | 1;
  side: 'BUY' | 'SELL';
}

export interface FillSpec {
  conditionId: string;
  taker: Party;
  maker: Party;
  /** Price on the maker's token, micro-units. */
  makerPrice: bigint;
  /** Shares, micro-units. */
  size: bigint;
}

export interface DataFixture {
  readonly ctx: EngineContext;
  readonly db: Db;
  readonly clock: ManualClock;
  readonly data: DataService;
  createMarket(question: string, opts?: { eventId?: number; endDate?: string; outcomes?: [string, string] }): Promise<Market>;
  /** The market's (outcome-0) book: rest orders on it to move midpoints and best bids. */
  book(conditionId: string): MarketBook;
  /** Settles and records one maker fill; returns the trade id. */
  fill(spec: FillSpec): Promise<string>;
  /** Pays a resolved market's payout to a wallet and zeroes its shares, as POST /redeem does. */
  redeem(address: string, conditionId: string): Promise<void>;
  resolve(conditionId: string, winner: 0 | 1): Promise<void>;
  close(): void;
}

const ONE = BigInt(PRICE_ONE);
const OPERATOR = '0x00000000000000000000000000000000000000aa';
const COLLATERAL_TOKEN = '0x00000000000000000000000000000000000000cc';

export async function createDataFixture(startMs = 1_780_000_000_000): Promise<DataFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'data-svc-'));
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);
  const clock = new ManualClock(startMs);
  const books = new Map<string, MarketBook>();
  const lastTrades = new Map<string, { price: bigint; side: 'BUY' | 'SELL' }>();
  const chain = {
    enabled: false,
    chainId: 31337,
    rpcUrl: null,
    operatorAddress: OPERATOR,
    contracts: { collateral: COLLATERAL_TOKEN },
    stop: async () => undefined,
  } as unknown as ChainHandle;
  const orders = {
    book: (c: string) => books.get(c.toLowerCase()),
    lastTrade: (t: string) => lastTrades.get(t),
  } as unknown as OrderService;
  const ctx = {
    config: resolveConfig({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false }),
    clock,
    db,
    writes,
    secrets: {} as Secrets,
    chain,
    orders,
  } as unknown as WritableContext;
  ctx.markets = new MarketService(ctx);
  await ctx.markets.init();
  ctx.data = new DataService(ctx);
  // Only so the real HTTP app can be built over this context; off by config (rateLimits: false).
  ctx.rateLimiter = new RateLimiter(ctx);
  const balances = new BalanceRepo(db);
  const trades = new TradeRepo(db);
  let seq = 0;

  return {
    ctx,
    db,
    clock,
    data: ctx.data,
    async createMarket(question, opts = {}) {
      const m = await ctx.markets.create({
        question,
        tickSize: 10_000n,
        minOrderSize: 1_000_000n,
        ...(opts.eventId !== undefined ? { eventId: opts.eventId } : {}),
        ...(opts.endDate !== undefined ? { endDate: opts.endDate } : {}),
        ...(opts.outcomes !== undefined ? { outcomes: opts.outcomes } : {}),
      });
      books.set(m.conditionId, createOrderBook());
      return m;
    },
    book(conditionId) {
      const b = books.get(conditionId.toLowerCase());
      if (!b) throw new Error(`no book for ${conditionId}`);
      return b;
    },
    async fill(spec) {
      const m = ctx.markets.byCondition(spec.conditionId);
      if (!m) throw new Error('unknown market');
      const takerToken = m.tokenIds[spec.taker.outcomeIndex];
      const makerToken = m.tokenIds[spec.maker.outcomeIndex];
      const takerPrice = takerToken === makerToken ? spec.makerPrice : ONE - spec.makerPrice;
      const s = settleFill(
        { address: spec.taker.address, tokenId: takerToken, side: spec.taker.side },
        { address: spec.maker.address, tokenId: makerToken, side: spec.maker.side },
        spec.makerPrice,
        spec.size,
        COLLATERAL,
      );
      const now = clock.nowMs();
      seq++;
      const id = `T${String(now).padStart(15, '0')}${String(seq).padStart(6, '0')}`;
      const tx = `0x${seq.toString(16).padStart(64, '0')}`;
      const entries: LedgerEntry[] = s.moves.map((mv) => {
        const party = mv.role === 'taker' ? spec.taker : spec.maker;
        return {
          time: now,
          address: mv.address,
          asset: mv.asset,
          delta: mv.delta,
          kind: 'trade',
          reason: s.kind,
          conditionId: m.conditionId,
          outcomeIndex: party.outcomeIndex,
          side: party.side,
          price: mv.role === 'taker' ? takerPrice : spec.makerPrice,
          tradeId: id,
          orderId: `${mv.role}-${id}`,
          transactionHash: tx,
        };
      });
      await writes.commit(() => {
        trades.insert({
          id,
          matchTime: now,
          conditionId: m.conditionId,
          takerOrderId: `taker-${id}`,
          makerOrderId: `maker-${id}`,
          takerAssetId: takerToken,
          makerAssetId: makerToken,
          takerOutcomeIndex: spec.taker.outcomeIndex,
          makerOutcomeIndex: spec.maker.outcomeIndex,
          takerAddress: spec.taker.address,
          makerAddress: spec.maker.address,
          takerOwner: spec.taker.address,
          makerOwner: spec.maker.address,
          takerSide: spec.taker.side,
          makerSide: spec.maker.side,
          price: takerPrice,
          makerPrice: spec.makerPrice,
          size: spec.size,
          kind: s.kind,
          takerFeeRateBps: '0',
          makerFeeRateBps: '0',
          fee: 0n,
          makerRebate: 0n,
          transactionHash: tx,
        });
        for (const e of entries) balances.apply(e);
      });
      lastTrades.set(takerToken, { price: takerPrice, side: spec.taker.side });
      lastTrades.set(m.tokenIds[1 - spec.taker.outcomeIndex]!, { price: ONE - takerPrice, side: spec.taker.side });
      return id;
    },
    async redeem(address, conditionId) {
      const m = ctx.markets.byCondition(conditionId);
      if (!m || m.winner === null) throw new Error('market not resolved');
      const now = clock.nowMs();
      const entries: LedgerEntry[] = [];
      let payout = 0n;
      for (const i of [0, 1] as const) {
        const size = balances.get(address, m.tokenIds[i]);
        if (size <= 0n) continue;
        if (i === m.winner) payout += size;
        entries.push({ time: now, address, asset: m.tokenIds[i], delta: -size, kind: 'redeem', reason: 'redeem', conditionId: m.conditionId, outcomeIndex: i, side: 'SELL', price: i === m.winner ? ONE : 0n });
      }
      if (payout > 0n) {
        entries.push({ time: now, address, asset: COLLATERAL, delta: payout, kind: 'redeem', reason: 'redeem', conditionId: m.conditionId, outcomeIndex: m.winner, side: 'SELL', price: ONE });
      }
      await writes.commit(() => {
        for (const e of entries) balances.apply(e);
      });
    },
    async resolve(conditionId, winner) {
      await ctx.markets.resolve(conditionId, winner);
    },
    close() {
      writes.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
