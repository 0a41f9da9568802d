import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PerformanceReport } from '../../../engine/client/agentsClient.js';
import { equityCsv, exportName, marketsCsv, percentOf, ratioPercent } from './reportExport.js';

const report: PerformanceReport = {
  account: '0xabcdef0123456789abcdef0123456789abcdef01',
  pnl: '-8.605',
  realisedPnl: '-10',
  unrealisedPnl: '2',
  fees: '0.605',
  trades: 5,
  turnover: '196',
  maxDrawdown: '60.315',
  return: '-0.00086',
  sharpe: -0.2373,
  hitRate: 0.5,
  closingFills: 2,
  winningFills: 1,
  equityPoints: 2,
  positions: [],
  markets: [{ market: '0xm1', pnl: '-9.055', realisedPnl: '-10', unrealisedPnl: '1.5', fees: '0.555', trades: 4, turnover: '191' }],
  source: 'live',
  runId: null,
  asOf: 180_000,
  capital: '10000',
  curve: [
    { t: 60_000, equity: '-0.24' },
    { t: 120_000, equity: '29.76' },
  ],
};

describe('the performance report exports', () => {
  it('writes the curve and the per-market lines as CSV, names the files after the account and the run, and shows fractions as exact percentages', () => {
    assert.equal(equityCsv(report), 'time_utc,exchange_ms,equity\r\n1970-01-01T00:01:00.000Z,60000,-0.24\r\n1970-01-01T00:02:00.000Z,120000,29.76\r\n');
    assert.equal(
      marketsCsv(report, () => 'Will it rain?'),
      'market,condition_id,pnl,realised_pnl,unrealised_pnl,fees,trades,turnover\r\nWill it rain?,0xm1,-9.055,-10,1.5,0.555,4,191\r\nall markets,,-8.605,-10,2,0.605,5,196\r\n',
    );
    assert.equal(exportName(report, 'equity', 'csv'), 'report-0xabcdef01-live-equity.csv');
    assert.equal(percentOf('-0.00086'), '-0.086');
    assert.equal(percentOf('0.123456'), '12.3456');
    assert.equal(percentOf(null), '—');
    assert.equal(ratioPercent(0.5), '50');
    assert.equal(ratioPercent(null), '—');
  });
});
