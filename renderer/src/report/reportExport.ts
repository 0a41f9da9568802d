import type { PerformanceReport } from '../../../engine/client/agentsClient.js';
import { formatUnits, parseUnits } from '../../../engine/protocol/amounts.js';
import { toCsv } from '../account/csv.js';

/** The report's equity curve as CSV: one row per exchange minute, net PnL at that minute. */
export function equityCsv(r: PerformanceReport): string {
  return toCsv(
    ['time_utc', 'exchange_ms', 'equity'],
    r.curve.map((p) => [new Date(p.t).toISOString(), p.t, p.equity]),
  );
}

/** The report's per-market lines as CSV, the account's totals last. */
export function marketsCsv(r: PerformanceReport, question: (conditionId: string) => string = (c) => c): string {
  return toCsv(
    ['market', 'condition_id', 'pnl', 'realised_pnl', 'unrealised_pnl', 'fees', 'trades', 'turnover'],
    [
      ...r.markets.map((m) => [question(m.market), m.market, m.pnl, m.realisedPnl, m.unrealisedPnl, m.fees, m.trades, m.turnover]),
      ['all markets', '', r.pnl, r.realisedPnl, r.unrealisedPnl, r.fees, r.trades, r.turnover],
    ],
  );
}

/** The whole report as the API gave it, curve included (pretty JSON). */
export const reportJson = (r: PerformanceReport): string => JSON.stringify(r, null, 2) + '\n';

/** A decimal fraction as a percentage, exactly ("-0.00086" → "-0.086"); "—" for null. */
export function percentOf(fraction: string | null): string {
  if (fraction === null) return '—';
  const v = parseUnits(fraction.replace(/^-/, ''));
  if (v === undefined) return fraction;
  return `${fraction.startsWith('-') && v !== 0n ? '-' : ''}${formatUnits(v * 100n)}`;
}

/** A ratio (hit rate) as a percentage with at most two decimals; "—" for null. */
export const ratioPercent = (x: number | null): string => (x === null ? '—' : `${Math.round(x * 10_000) / 100}`);

/** File names of the exports: the account and where the figures come from. */
export function exportName(r: PerformanceReport, what: string, ext: string): string {
  const where = r.runId ? r.runId : 'live';
  return `report-${r.account.slice(0, 10)}-${where}-${what}.${ext}`;
}
