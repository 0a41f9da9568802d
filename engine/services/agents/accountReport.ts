import { formatUnits } from '../../protocol/amounts.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import type { OrderService } from '../orders/orderService.js';
import type { PerformanceReport, ReportService } from '../reports/reportService.js';

/** An agent's report: the terminal's and the run report's numbers (reportService.ts), without the curve's points. */
export type AgentReport = Omit<PerformanceReport, 'curve'>;

/**
 * One account's performance with the run report's maths: in a stepped or fast run the run recorder's
 * own ledger (so the numbers equal report.json's), otherwise the engine's live ledger, both sampled
 * once per exchange minute. The curve itself stays out (`equityPoints` counts it): the terminal and
 * `GET /admin/reports/{address}` carry it.
 */
export function accountReport(ctx: { readonly reports: Pick<ReportService, 'account'> }, address: string): AgentReport {
  const { curve: _curve, ...rest } = ctx.reports.account(address);
  return rest;
}

/** An account's paper collateral as decimal text: total, reserved by open orders, available. */
export function collateralOf(ctx: { readonly orders: Pick<OrderService, 'balanceOf'> }, address: string): { balance: string; reserved: string; available: string } {
  const b = ctx.orders.balanceOf(address, COLLATERAL);
  return { balance: formatUnits(b.balance), reserved: formatUnits(b.reserved), available: formatUnits(b.available) };
}
