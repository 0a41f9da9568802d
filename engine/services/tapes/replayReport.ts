import { formatUnits, ONE } from '../../protocol/amounts.js';
import { OrderRepo, type OrderRow } from '../../store/orderRepo.js';
import { TradeRepo } from '../../store/tradeRepo.js';
import type { Db } from '../../store/database.js';
import type { Clock } from '../clock.js';
import type { MarketService } from '../markets/marketService.js';
import type { PublicMarketIdentity } from '../mirror/mirrorTypes.js';
import type { OrderService } from '../orders/orderService.js';
import { isPublicMarket } from '../orders/publicDepth.js';
import { markOf } from '../runs/markOf.js';
import { fillsOf, RunLedger, type AccountReport, type Mark } from '../runs/runLedger.js';
import { fillableAt, type ReplayOrder } from './fillableView.js';
import type { ReplayState, ReplayTimeline } from './replayTypes.js';

/** The latencies the fillable view always shows (ms), beside the engine's own. */
export const FILLABLE_LATENCIES = [0, 150, 500] as const;

export interface ReplayReportDeps {
  readonly clock: Clock;
  readonly db: Db;
  readonly markets: Pick<MarketService, 'byToken'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade'>;
  /** The engine's fill latency (`--latency-ms`). */
  readonly latencyMs: number;
  readonly isSimulated?: (address: string) => boolean;
}

export interface FillableAccount {
  account: string;
  orders: number;
  /** Orders that got any fill. */
  filledOrders: number;
  /** Shares filled over all orders. */
  filled: string;
  /** Σ price × shares of the fills, collateral. */
  notional: string;
  /** realised + unrealised PnL of those fills at today's marks, before fees. */
  pnlBeforeFees: string;
}

export interface ReplayReport extends ReplayState {
  now: number;
  latencyMs: number;
  marking: string;
  /** Each user account that traded on the replayed market (not `public-market`, not simulated participants): its PnL on this market. */
  accounts: Array<AccountReport & { fills: number }>;
  fillable: { method: string; latencies: Array<{ latencyMs: number; accounts: FillableAccount[] }> };
}

const MARKING = 'mid of the book; the last trade where a side is empty; the payout once resolved; cost where nothing marks it';
const METHOD =
  "the user's stored orders re-matched against the same tape in an in-memory book (the engine's matching core and public layer), at each latency; orders the exchange refused are not stored and not re-run; no fees or balance checks";

/** A replay's report (GET /admin/replays/{id}, and `replay-<id>.json` in the run folder). */
export function replayReport(deps: ReplayReportDeps, state: ReplayState, timeline: ReplayTimeline): ReplayReport {
  const now = deps.clock.nowMs();
  const isUser = (a: string) => !isPublicMarket(a) && !(deps.isSimulated?.(a) ?? false);
  const mark: Mark = markOf(deps);
  const ledger = new RunLedger();
  for (const t of new TradeRepo(deps.db).inWindow(state.conditionId, state.startedAt, now)) {
    for (const f of fillsOf(t)) if (isUser(f.account)) ledger.apply(f);
  }
  ledger.sample(mark);
  const accounts = ledger.report(mark).map((a) => ({ ...a, fills: a.trades }));

  const orders = new OrderRepo(deps.db)
    .ofMarketSince(state.conditionId, state.startedAt)
    .filter((o) => isUser(o.owner) || isUser(o.maker))
    .map((o) => replayOrder(o, deps.latencyMs));
  const latencies = [...new Set<number>([...FILLABLE_LATENCIES, deps.latencyMs])].sort((a, b) => a - b);
  const fillable = latencies.map((latencyMs) => ({ latencyMs, accounts: fillableAccounts(orders, fillableAt(timeline.decoder, timeline.entries, orders, latencyMs), timeline.identity, mark) }));
  return { ...state, now, latencyMs: deps.latencyMs, marking: MARKING, accounts, fillable: { method: METHOD, latencies: fillable } };
}

/** A stored order as the fillable view re-runs it: it arrived `latency` before it met the book (created_at). */
function replayOrder(o: OrderRow, latencyMs: number): ReplayOrder {
  return {
    id: o.id,
    account: o.maker.toLowerCase(),
    outcomeIndex: o.outcomeIndex,
    side: o.side,
    price: Number(o.price),
    size: Number(o.originalSize),
    orderType: o.orderType,
    arrivedAt: o.createdAt - latencyMs,
    cancelledAt: o.status === 'cancelled' ? o.updatedAt : null,
  };
}

function fillableAccounts(orders: readonly ReplayOrder[], fills: Map<string, { filled: number; notional: bigint }>, identity: PublicMarketIdentity, mark: Mark): FillableAccount[] {
  const by = new Map<string, { orders: number; filledOrders: number; filled: bigint; notional: bigint; ledger: RunLedger }>();
  for (const o of orders) {
    let a = by.get(o.account);
    if (!a) by.set(o.account, (a = { orders: 0, filledOrders: 0, filled: 0n, notional: 0n, ledger: new RunLedger() }));
    a.orders++;
    const f = fills.get(o.id)!;
    if (f.filled === 0) continue;
    a.filledOrders++;
    const size = BigInt(f.filled);
    const notional = f.notional / ONE;
    a.filled += size;
    a.notional += notional;
    // One fill per order at its average price: the same cost basis as its fills one by one.
    a.ledger.apply({ account: o.account, tokenId: identity.tokenIds[o.outcomeIndex], side: o.side, price: f.notional / size, size, fee: 0n });
  }
  return [...by.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([account, a]) => ({
      account,
      orders: a.orders,
      filledOrders: a.filledOrders,
      filled: formatUnits(a.filled),
      notional: formatUnits(a.notional),
      pnlBeforeFees: a.ledger.report(mark)[0]?.pnl ?? '0',
    }));
}
