import { formatUnits } from '../../protocol/amounts.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { TradeRepo } from '../../store/tradeRepo.js';
import type { Infra } from '../infra.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';
import type { ClockService } from '../runs/clockService.js';
import { markOf } from '../runs/markOf.js';
import { fillsOf, RunLedger, type AccountReport } from '../runs/runLedger.js';

export interface AgentReport extends Omit<AccountReport, 'maxDrawdown'> {
  /** From the run's equity curve (sampled each exchange minute) in a stepped or fast run; null in real time, where no curve is kept. */
  maxDrawdown: string | null;
  source: 'run' | 'trades';
  runId: string | null;
}

/**
 * One account's performance with the run report's maths (runLedger.ts): in a stepped or fast run the run
 * recorder's own ledger (so the numbers equal report.json's), otherwise a ledger replayed from the
 * account's trades and marked now.
 */
/** What a report reads: the run recorder (stepped and fast runs), else the trades table, and the marks. */
export type ReportDeps = Pick<Infra, 'db'> & {
  readonly clockService?: Pick<ClockService, 'recorder'>;
  readonly markets: Pick<MarketService, 'byToken'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade'>;
};

export function accountReport(ctx: ReportDeps, address: string): AgentReport {
  const key = address.toLowerCase();
  const recorder = ctx.clockService?.recorder;
  if (recorder) {
    const line = recorder.account(key) ?? emptyReport(key);
    return { ...line, source: 'run', runId: recorder.runId };
  }
  const ledger = new RunLedger();
  const repo = new TradeRepo(ctx.db);
  // Oldest first: average cost depends on the order of the fills.
  const rows = repo.list({ owner: key }, 1_000_000, 0).rows.slice().reverse();
  for (const t of rows) for (const f of fillsOf(t)) if (f.account.toLowerCase() === key) ledger.apply(f);
  const line = ledger.report(markOf(ctx)).find((a) => a.account === key) ?? emptyReport(key);
  return { ...line, maxDrawdown: null, source: 'trades', runId: null };
}

function emptyReport(account: string): AccountReport {
  return { account, pnl: '0', realisedPnl: '0', unrealisedPnl: '0', fees: '0', trades: 0, turnover: '0', maxDrawdown: '0', positions: [] };
}

/** An account's paper collateral as decimal text: total, reserved by open orders, available. */
export function collateralOf(ctx: { readonly orders: Pick<OrderService, 'balanceOf'> }, address: string): { balance: string; reserved: string; available: string } {
  const b = ctx.orders.balanceOf(address, COLLATERAL);
  return { balance: formatUnits(b.balance), reserved: formatUnits(b.reserved), available: formatUnits(b.available) };
}
