/**
 * The read-only data service (interface §4.5, decisions §5, data-api.md): portfolio, activity, tape,
 * holders and market aggregates, computed from the fill ledger at read time (no sync lag).
 *
 * Money is bigint micro-units (pico-units for price × size products) until the JSON edge
 * (wireNumber.ts). Every list has a total order with a tie-break, so limit/offset paging never repeats
 * or skips a row while nothing new arrives.
 */
import {
  ACTIVITY_SORTS,
  ACTIVITY_TYPES,
  CLOSED_POSITION_SORTS,
  FILTER_TYPES,
  POSITION_SORTS,
  SORT_ALIASES,
  SORT_DIRECTIONS,
  TIME_PERIODS,
  TRADE_SIDES,
  type ActivityJson,
  type ActivityType,
  type ClosedPositionJson,
  type HolderGroupJson,
  type LiveVolumeJson,
  type OpenInterestJson,
  type PositionJson,
  type SortDirection,
  type TradeJson,
  type UserTradedJson,
  type UserValueJson,
} from '../../protocol/schemas/data.js';
import { DataRepo } from '../../store/dataRepo.js';
import type { DataDeps } from './dataDeps.js';
import {
  addressParam,
  amountParam,
  boolParam,
  conditionListParam,
  enumListParam,
  enumParam,
  intParam,
  invalidQuery,
  marketOrEvent,
  optionalIntParam,
  requireParam,
  textParam,
  timeWindow,
  type RawQuery,
} from './dataQuery.js';
import { MarketDirectory, marketFields, outcomeFields, type MarketInfo } from './marketInfo.js';
import { MarkPrices } from './markPrices.js';
import { isOpen, replayPositions, type PositionState, type ShareMovement } from './positionLedger.js';
import { compareTokenIds, sortRows, type SortKey } from './rowOrder.js';
import { microToNumber, percentOf, picoToMicro, MICRO } from './wireNumber.js';

const ONE_SHARE = 1_000_000n;
/** Activity types this exchange produces; the others are accepted in filters and never emitted. */
const EMITTED_ACTIVITY: readonly ActivityType[] = ['TRADE', 'REDEEM'];
const DEFAULT_ACTIVITY: readonly ActivityType[] = ACTIVITY_TYPES.filter((t) => !['DEPOSIT', 'WITHDRAWAL', 'YIELD'].includes(t));

const EMPTY_PROFILE = { name: '', pseudonym: '', bio: '', profileImage: '', profileImageOptimized: '' } as const;

/** A position valued at read time, with the bigint figures its sort keys use. */
interface ValuedPosition {
  state: PositionState;
  info: MarketInfo;
  curPrice: bigint;
  exitPrice: bigint;
  initialValue: bigint;
  currentValue: bigint;
  cashPnl: bigint;
  realized: bigint;
}

/** Sort keys the open and the closed position lists share. */
const SHARED_POSITION_KEYS = {
  TITLE: (p: ValuedPosition) => p.info.title,
  PRICE: (p: ValuedPosition) => p.curPrice,
  AVGPRICE: (p: ValuedPosition) => p.state.avgPrice,
};

/** One page of positions in the requested order; ties go by token id, so pages never overlap. */
function positionPage(rows: ValuedPosition[], key: SortKey<ValuedPosition>, direction: SortDirection, offset: number, limit: number): ValuedPosition[] {
  return sortRows(rows, key, direction, (a, b) => compareTokenIds(a.state.asset, b.state.asset)).slice(offset, offset + limit);
}

export class DataService {
  private repoInstance: DataRepo | undefined;

  constructor(private readonly ctx: DataDeps) {}

  private get repo(): DataRepo {
    return (this.repoInstance ??= new DataRepo(this.ctx.db));
  }

  health(): { data: 'OK' } {
    return { data: 'OK' };
  }

  // ── portfolio ────────────────────────────────────────────────────────────────────────────────────

  /** GET /positions: open positions (size > 0.01) of a wallet, average-cost, valued now. */
  positions(q: RawQuery): PositionJson[] {
    const user = addressParam(q, 'user', true)!;
    const dir = new MarketDirectory(this.ctx);
    const scope = this.scope(q, dir);
    const sizeThreshold = amountParam(q, 'sizeThreshold', ONE_SHARE)!;
    const onlyRedeemable = boolParam(q, 'redeemable', false);
    const onlyMergeable = boolParam(q, 'mergeable', false);
    const limit = intParam(q, 'limit', 100, 0, 500);
    const offset = intParam(q, 'offset', 0, 0, 10_000);
    const sortBy = enumParam(q, 'sortBy', POSITION_SORTS, 'TOKENS', SORT_ALIASES);
    const direction = enumParam(q, 'sortDirection', SORT_DIRECTIONS, 'DESC');
    const title = textParam(q, 'title', 100)?.toLowerCase();
    if (limit === 0) return [];

    const marks = new MarkPrices(this.ctx);
    const fees = this.feesByToken(user, scope);
    const open = this.replay(user, scope, dir)
      .all()
      .filter(isOpen)
      .map((s) => this.valued(s, dir, marks));
    // Mergeable: the wallet holds both outcomes of an unresolved market.
    const heldTokens = new Set(open.map((p) => p.state.asset));
    const isMergeable = (p: ValuedPosition) =>
      p.info.winner === null && p.info.market !== undefined && p.info.market.tokenIds.every((t) => heldTokens.has(t));

    const rows = open
      .filter((p) => p.state.amount >= sizeThreshold)
      .filter((p) => !onlyRedeemable || p.info.winner !== null)
      .filter((p) => !onlyMergeable || isMergeable(p))
      .filter((p) => title === undefined || p.info.title.toLowerCase().includes(title));

    const key: SortKey<ValuedPosition> = {
      CURRENT: (p: ValuedPosition) => p.currentValue,
      INITIAL: (p: ValuedPosition) => p.initialValue,
      TOKENS: (p: ValuedPosition) => p.state.amount,
      CASHPNL: (p: ValuedPosition) => p.cashPnl,
      PERCENTPNL: (p: ValuedPosition) => percentOf(p.cashPnl, p.initialValue),
      RESOLVING: (p: ValuedPosition) => p.info.endDateTime,
      ...SHARED_POSITION_KEYS,
    }[sortBy];
    return positionPage(rows, key, direction, offset, limit).map((p) => {
      const s = p.state;
      return {
        proxyWallet: user,
        asset: s.asset,
        conditionId: s.conditionId,
        size: microToNumber(s.amount),
        avgPrice: microToNumber(s.avgPrice),
        initialValue: microToNumber(p.initialValue),
        currentValue: microToNumber(p.currentValue),
        cashPnl: microToNumber(p.cashPnl),
        percentPnl: percentOf(p.cashPnl, p.initialValue),
        totalBought: microToNumber(s.totalBought),
        realizedPnl: microToNumber(p.realized - (fees.get(feeKey(s, 'SELL')) ?? 0n)),
        ...entryFeeFields(fees.get(feeKey(s, 'BUY')), p.initialValue),
        percentRealizedPnl: percentOf(picoToMicro(s.amount * p.exitPrice) - p.initialValue, p.initialValue),
        curPrice: microToNumber(p.curPrice),
        redeemable: p.info.winner !== null,
        mergeable: isMergeable(p),
        ...marketFields(p.info),
        eventId: p.info.eventId,
        ...outcomeFields(p.info, s.outcomeIndex),
        endDate: p.info.endDay,
        negativeRisk: p.info.negativeRisk,
      };
    });
  }

  /** GET /closed-positions: positions sold, merged or redeemed down to ≤ 0.01 shares. */
  closedPositions(q: RawQuery): ClosedPositionJson[] {
    const user = addressParam(q, 'user', true)!;
    const dir = new MarketDirectory(this.ctx);
    const scope = this.scope(q, dir);
    const title = textParam(q, 'title', 100)?.toLowerCase();
    const limit = intParam(q, 'limit', 10, 0, 50);
    const offset = intParam(q, 'offset', 0, 0, 100_000);
    const sortBy = enumParam(q, 'sortBy', CLOSED_POSITION_SORTS, 'REALIZEDPNL', SORT_ALIASES);
    const direction = enumParam(q, 'sortDirection', SORT_DIRECTIONS, 'DESC');
    if (limit === 0) return [];

    const marks = new MarkPrices(this.ctx);
    const fees = this.feesByToken(user, scope);
    const rows = this.replay(user, scope, dir)
      .all()
      .filter((s) => !isOpen(s) && s.closedAtMs !== undefined)
      .map((s) => this.valued(s, dir, marks))
      .filter((p) => title === undefined || p.info.title.toLowerCase().includes(title));

    const key: SortKey<ValuedPosition> = {
      REALIZEDPNL: (p: ValuedPosition) => p.realized,
      ...SHARED_POSITION_KEYS,
      TIMESTAMP: (p: ValuedPosition) => p.state.closedAtMs ?? 0,
    }[sortBy];
    return positionPage(rows, key, direction, offset, limit).map((p) => {
      const s = p.state;
      return {
        proxyWallet: user,
        asset: s.asset,
        conditionId: s.conditionId,
        avgPrice: microToNumber(s.avgPrice),
        totalBought: microToNumber(s.totalBought),
        realizedPnl: microToNumber(p.realized - (fees.get(feeKey(s, 'SELL')) ?? 0n)),
        curPrice: microToNumber(p.curPrice),
        timestamp: Math.floor((s.closedAtMs ?? 0) / 1000),
        ...marketFields(p.info),
        ...outcomeFields(p.info, s.outcomeIndex),
        endDate: p.info.endDateTime,
      };
    });
  }

  /** GET /value: Σ currentValue of the wallet's open positions, as an array of one. */
  value(q: RawQuery): UserValueJson[] {
    const user = addressParam(q, 'user', true)!;
    const markets = conditionListParam(q, 'market', false);
    const dir = new MarketDirectory(this.ctx);
    const marks = new MarkPrices(this.ctx);
    let total = 0n;
    for (const s of this.replay(user, markets, dir).all()) {
      if (isOpen(s)) total += this.valued(s, dir, marks).currentValue;
    }
    return [{ user, value: microToNumber(total) }];
  }

  /** GET /traded: how many distinct markets the wallet ever traded. */
  traded(q: RawQuery): UserTradedJson {
    const user = addressParam(q, 'user', true)!;
    return { user, traded: this.repo.tradedMarketCount(user) };
  }

  // ── market aggregates ────────────────────────────────────────────────────────────────────────────

  /**
   * GET /oi: collateral locked in outstanding complete sets. Unresolved, that is the outstanding supply
   * of either outcome (they are equal: shares only come into being as pairs); resolved, the winning
   * shares not yet redeemed.
   */
  openInterest(q: RawQuery): OpenInterestJson[] {
    const markets = conditionListParam(q, 'market', false);
    const supplies = this.repo.tokenSupplies();
    const oiOf = (conditionId: string): bigint => {
      const m = this.ctx.markets.byCondition(conditionId);
      if (!m) return 0n;
      const s0 = supplies.get(m.tokenIds[0]) ?? 0n;
      const s1 = supplies.get(m.tokenIds[1]) ?? 0n;
      if (m.winner !== null) return m.winner === 0 ? s0 : s1;
      return s0 > s1 ? s0 : s1;
    };
    if (!markets) {
      let total = 0n;
      for (const m of this.ctx.markets.list()) total += oiOf(m.conditionId);
      return [{ market: 'GLOBAL', value: microToNumber(total) }];
    }
    return markets.map((c) => ({ market: c, value: microToNumber(oiOf(c)) }));
  }

  /** GET /live-volume?id=<eventId>: traded notional of each market of the event and their total. */
  liveVolume(q: RawQuery): LiveVolumeJson[] {
    requireParam(q, 'id', 'the event id, an integer ≥ 1');
    const id = optionalIntParam(q, 'id', 1, 'an event id, an integer ≥ 1')!;
    const dir = new MarketDirectory(this.ctx);
    const conditions = dir.conditionsOfEvents([String(id)]);
    const volumes = this.repo.volumeByCondition(conditions);
    let total = 0n;
    const markets = conditions.map((c) => {
      const v = volumes.get(c) ?? 0n;
      total += v;
      return { market: c, value: microToNumber(v) };
    });
    return [{ total: microToNumber(total), markets }];
  }

  // ── tape and activity ────────────────────────────────────────────────────────────────────────────

  /** GET /trades: fills newest first; with `user`, that wallet's taker fills (and maker fills with takerOnly=false). */
  trades(q: RawQuery): TradeJson[] {
    const user = addressParam(q, 'user', false);
    const dir = new MarketDirectory(this.ctx);
    const scope = this.scope(q, dir);
    const limit = intParam(q, 'limit', 100, 0, 10_000);
    const offset = intParam(q, 'offset', 0, 0, 10_000);
    const takerOnly = boolParam(q, 'takerOnly', true);
    const filterType = q.filterType === undefined || q.filterType === '' ? undefined : enumParam(q, 'filterType', FILTER_TYPES, 'CASH');
    const filterAmount = amountParam(q, 'filterAmount', undefined);
    if (filterType !== undefined && filterAmount === undefined) {
      throw invalidQuery('filterAmount', "Query parameter 'filterAmount' is required with 'filterType': the minimum cash (CASH) or shares (TOKENS).");
    }
    if (filterAmount !== undefined && filterType === undefined) {
      throw invalidQuery('filterType', "Query parameter 'filterType' (CASH or TOKENS) is required with 'filterAmount'.");
    }
    const side = q.side === undefined || q.side === '' ? undefined : enumParam(q, 'side', TRADE_SIDES, 'BUY');
    const window = timeWindow(q);
    if (limit === 0) return [];

    const fills = this.repo.fills({
      ...(user !== undefined ? { user } : {}),
      takerOnly,
      ...(scope !== undefined ? { conditionIds: scope } : {}),
      ...(side !== undefined ? { side } : {}),
      ...(window.start !== undefined ? { fromMs: window.start * 1000 } : {}),
      ...(window.end !== undefined ? { toMs: window.end * 1000 + 999 } : {}),
      ...(filterType === 'TOKENS' ? { minSize: filterAmount } : {}),
      ...(filterType === 'CASH' ? { minCash: filterAmount } : {}),
      limit,
      offset,
    });
    return fills.map((f) => {
      const info = dir.info(f.conditionId);
      return {
        proxyWallet: f.address,
        side: f.side,
        asset: f.asset,
        conditionId: f.conditionId,
        size: microToNumber(f.size),
        price: microToNumber(f.price),
        timestamp: Math.floor(f.timeMs / 1000),
        ...marketFields(info),
        outcome: info.outcome(f.outcomeIndex),
        outcomeIndex: f.outcomeIndex,
        ...EMPTY_PROFILE,
        transactionHash: f.transactionHash,
        ...feeField(f.fee),
        ...rebateField(f.rebate),
      };
    });
  }

  /** GET /activity: a wallet's fills (TRADE) and redemptions (REDEEM). */
  activity(q: RawQuery): ActivityJson[] {
    const user = addressParam(q, 'user', true)!;
    const dir = new MarketDirectory(this.ctx);
    const scope = this.scope(q, dir);
    const types = enumListParam(q, 'type', ACTIVITY_TYPES) ?? DEFAULT_ACTIVITY;
    const limit = intParam(q, 'limit', 100, 0, 500);
    const offset = intParam(q, 'offset', 0, 0, 10_000);
    const window = timeWindow(q);
    const sortBy = enumParam(q, 'sortBy', ACTIVITY_SORTS, 'TIMESTAMP');
    const direction = enumParam(q, 'sortDirection', SORT_DIRECTIONS, 'DESC');
    const side = q.side === undefined || q.side === '' ? undefined : enumParam(q, 'side', TRADE_SIDES, 'BUY');
    if (limit === 0 || !types.some((t) => EMITTED_ACTIVITY.includes(t))) return [];

    const fromMs = window.start !== undefined ? window.start * 1000 : -Infinity;
    const toMs = window.end !== undefined ? window.end * 1000 + 999 : Infinity;
    const inWindow = (ms: number) => ms >= fromMs && ms <= toMs;

    interface Row {
      json: ActivityJson;
      timeMs: number;
      seq: number;
      size: bigint;
      usdc: bigint;
    }
    const rows: Row[] = [];
    if (types.includes('TRADE')) {
      const fees = this.repo.feesByTrade(user);
      const rebates = this.repo.rebatesByTrade(user);
      for (const r of this.repo.shareMovements(user, scope)) {
        if (r.kind !== 'trade' || !inWindow(r.timeMs) || r.delta === 0n) continue;
        const rowSide = r.side ?? (r.delta > 0n ? 'BUY' : 'SELL');
        if (side !== undefined && rowSide !== side) continue;
        const size = r.delta < 0n ? -r.delta : r.delta;
        const price = r.price ?? 0n;
        const usdc = picoToMicro(size * price);
        const info = dir.info(r.conditionId);
        rows.push({
          timeMs: r.timeMs,
          seq: r.id,
          size,
          usdc,
          json: {
            proxyWallet: user,
            timestamp: Math.floor(r.timeMs / 1000),
            conditionId: r.conditionId,
            type: 'TRADE',
            size: microToNumber(size),
            usdcSize: microToNumber(usdc),
            transactionHash: r.transactionHash,
            price: microToNumber(price),
            asset: r.asset,
            side: rowSide,
            outcomeIndex: r.outcomeIndex,
            ...marketFields(info),
            outcome: info.outcome(r.outcomeIndex),
            ...EMPTY_PROFILE,
            ...feeField(r.tradeId === null ? undefined : fees.get(r.tradeId)),
            ...rebateField(r.tradeId === null ? undefined : rebates.get(r.tradeId)),
          },
        });
      }
    }
    if (types.includes('REDEEM') && side === undefined) {
      for (const r of this.repo.redemptions(user, scope)) {
        if (!inWindow(r.timeMs)) continue;
        const info = dir.info(r.conditionId);
        rows.push({
          timeMs: r.timeMs,
          seq: r.firstId,
          size: r.payout,
          usdc: r.payout,
          json: {
            proxyWallet: user,
            timestamp: Math.floor(r.timeMs / 1000),
            conditionId: r.conditionId,
            type: 'REDEEM',
            size: microToNumber(r.payout),
            usdcSize: microToNumber(r.payout),
            transactionHash: r.transactionHash,
            price: 0,
            asset: '',
            side: '',
            outcomeIndex: 999,
            ...marketFields(info),
            outcome: '',
            ...EMPTY_PROFILE,
          },
        });
      }
    }
    const key: SortKey<Row> = {
      TIMESTAMP: (r: Row) => r.timeMs,
      TOKENS: (r: Row) => r.size,
      CASH: (r: Row) => r.usdc,
    }[sortBy];
    // Ties: newest first, then transaction hash, then ledger order (newest first) – a total order.
    const tie = (a: Row, b: Row) =>
      b.timeMs - a.timeMs || (a.json.transactionHash < b.json.transactionHash ? 1 : a.json.transactionHash > b.json.transactionHash ? -1 : 0) || b.seq - a.seq;
    return sortRows(rows, key, direction, tie)
      .slice(offset, offset + limit)
      .map((r) => r.json);
  }

  // ── holders ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * GET /holders: per requested market (request order), one group per outcome that has holders
   * (outcome order), wallets by balance descending then address (decisions §5).
   */
  holders(q: RawQuery): HolderGroupJson[] {
    const markets = conditionListParam(q, 'market', true)!;
    const limit = intParam(q, 'limit', 100, 0, 500);
    const minBalance = amountParam(q, 'minBalance', ONE_SHARE)!;
    if (limit === 0) return [];
    const out: HolderGroupJson[] = [];
    for (const conditionId of markets) {
      const m = this.ctx.markets.byCondition(conditionId);
      if (!m) continue;
      for (const outcomeIndex of [0, 1] as const) {
        const asset = m.tokenIds[outcomeIndex];
        const holders = this.repo.holders(asset, minBalance, limit);
        if (holders.length === 0) continue;
        out.push({
          token: `${conditionId}:${outcomeIndex}`,
          holders: holders.map((h) => ({
            proxyWallet: h.address.toLowerCase(),
            bio: '',
            asset,
            pseudonym: '',
            amount: microToNumber(h.amount),
            displayUsernamePublic: false,
            outcomeIndex,
            name: '',
            profileImage: '',
            profileImageOptimized: '',
          })),
        });
      }
    }
    return out;
  }

  // ── builders (decisions §5: validate, return []) ─────────────────────────────────────────────────

  buildersLeaderboard(q: RawQuery): never[] {
    enumParam(q, 'timePeriod', TIME_PERIODS, 'DAY');
    intParam(q, 'limit', 25, 0, 50);
    intParam(q, 'offset', 0, 0, 1000);
    return [];
  }

  buildersVolume(q: RawQuery): never[] {
    enumParam(q, 'timePeriod', TIME_PERIODS, 'DAY');
    return [];
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────────

  /** The condition ids a `market` / `eventId` filter selects; undefined = no filter. */
  private scope(q: RawQuery, dir: MarketDirectory): string[] | undefined {
    const { markets, eventIds } = marketOrEvent(q);
    if (markets) return markets;
    if (eventIds) return dir.conditionsOfEvents(eventIds);
    return undefined;
  }

  /** Replays a wallet's share movements (optionally of some markets) into average-cost positions. */
  /** Net fees of the wallet (fees paid less rebates earned), by token and side (feeKey). Realized PnL is net of those on exits. */
  private feesByToken(user: string, conditionIds: readonly string[] | undefined): Map<string, bigint> {
    return new Map(this.repo.feesPaid(user, conditionIds).map((f) => [feeKey(f, f.side), f.fee]));
  }

  private replay(user: string, conditionIds: readonly string[] | undefined, dir: MarketDirectory) {
    const movements: ShareMovement[] = [];
    for (const r of this.repo.shareMovements(user, conditionIds)) {
      if (r.delta === 0n) continue;
      const side = r.side ?? (r.delta > 0n ? 'BUY' : 'SELL');
      let price = r.price;
      if (price === null) {
        // A redemption row without a price still pays the payout; any other unpriced row (a share grant)
        // enters at cost 0.
        const info = dir.info(r.conditionId);
        price = r.kind === 'redeem' && info.winner !== null ? (info.winner === r.outcomeIndex ? MICRO : 0n) : 0n;
      }
      movements.push({
        asset: r.asset,
        conditionId: r.conditionId,
        outcomeIndex: r.outcomeIndex,
        side,
        size: r.delta < 0n ? -r.delta : r.delta,
        price,
        timeMs: r.timeMs,
        kind: r.kind === 'redeem' ? 'redeem' : 'trade',
      });
    }
    return replayPositions(movements);
  }

  private valued(s: PositionState, dir: MarketDirectory, marks: MarkPrices): ValuedPosition {
    const info = dir.info(s.conditionId);
    const { curPrice, exitPrice } = marks.of(info, s.outcomeIndex);
    const initialValue = picoToMicro(s.amount * s.avgPrice);
    const currentValue = picoToMicro(s.amount * curPrice);
    return {
      state: s,
      info,
      curPrice,
      exitPrice,
      initialValue,
      currentValue,
      cashPnl: currentValue - initialValue,
      realized: picoToMicro(s.realizedPico),
    };
  }
}

function feeKey(p: { conditionId: string; outcomeIndex: number }, side: 'BUY' | 'SELL'): string {
  return p.conditionId + ':' + p.outcomeIndex + ':' + side;
}

/** The newer data-API fields for fees paid on entry (data-api.md): only when there were any. */
function entryFeeFields(fee: bigint | undefined, initialValue: bigint): { entryFeesUsdc?: number; grossInitialValue?: number } {
  if (fee === undefined || fee === 0n) return {};
  return { entryFeesUsdc: microToNumber(fee), grossInitialValue: microToNumber(initialValue + fee) };
}

function rebateField(rebate: bigint | undefined): { rebate?: number } {
  return rebate === undefined || rebate === 0n ? {} : { rebate: microToNumber(rebate) };
}

function feeField(fee: bigint | undefined): { fee?: number } {
  return fee === undefined || fee === 0n ? {} : { fee: microToNumber(fee) };
}
