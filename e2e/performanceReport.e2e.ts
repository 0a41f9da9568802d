// Issue 24: the performance report in the terminal. A trader's order fills; the Report tab shows the
// engine's numbers for the account (the same as GET /admin/reports/{address}, the MCP report tool's),
// the equity curve draws its per-exchange-minute points, and the exports download the curve as CSV
// and the report as JSON.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { eventually, exportCsv, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';
import type { PerformanceReport } from '../engine/client/agentsClient.js';

let j: Journey;
before(async () => {
  // 120× : an exchange minute passes every half second, so the curve gains points while we watch.
  j = await startJourney({ config: { speed: 120 } });
});
after(async () => {
  await j?.close();
});

test("an account's fill shows in the Report tab with the API's numbers, an equity curve with points, and CSV and JSON exports", async () => {
  const { page } = await j.newTrader();
  const address = (await onboardTrader(page)).toLowerCase();
  await selectMarket(page, 'Bitcoin', 0);
  // Takes 10 shares from the demo book's best Yes ask (0.39; a limit of 0.41 crosses it).
  assert.deepEqual(await placeLimit(page, { side: 'BUY', price: '0.41', size: '10' }), { success: 'true', status: 'matched' });

  await page.getByTestId('tab-report').click();
  await page.getByTestId('report-to-admin').click();
  await page.getByTestId('admin-token').fill(j.ready.operatorToken);
  await page.getByTestId('admin-token-use').click();
  await page.getByTestId('tab-report').click();
  assert.equal(await page.getByTestId('report-account').inputValue(), address, 'the selected wallet by default');

  const curve = page.getByTestId('equity-curve');
  await eventually('an equity curve of several points', async () => Number(await curve.getAttribute('data-points')) >= 3);
  // The lightweight-charts canvas is drawn.
  assert.ok((await curve.locator('canvas').count()) > 0);

  const api = (await fetch(`${j.ready.trading}/admin/reports/${address}`, { headers: { authorization: `Bearer ${j.ready.operatorToken}`, connection: 'close' } }).then((r) => r.json())) as PerformanceReport;
  assert.equal(api.trades, 1);
  const shown = async (key: string) => (await page.getByTestId(`report-${key}`).innerText()).trim();
  // The book is frozen (no participants), so the figures hold still between the page's read and ours.
  for (const key of ['pnl', 'realisedPnl', 'unrealisedPnl', 'maxDrawdown', 'fees', 'turnover'] as const) {
    await eventually(`${key} as the API says`, async () => (await shown(key)) === api[key]);
  }
  assert.equal(await shown('trades'), String(api.trades));
  assert.equal(api.turnover, '3.9', '10 shares at the best ask');
  assert.notEqual(api.unrealisedPnl, '0', 'the position is marked at the mid, not at cost');
  assert.equal(await page.locator('[data-testid="report-markets"] tbody tr').count(), 1);
  await j.screenshot(page, 'issue24-performance-report');
    const axe = await new AxeBuilder({ page }).include('[data-testid="report"]').withTags(['wcag2a', 'wcag2aa']).analyze();
    assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`), [], 'no serious/critical accessibility violation in the view');

  const csv = await exportCsv(page, 'report-export-csv');
  const lines = csv.trim().split('\r\n');
  assert.equal(lines[0], 'time_utc,exchange_ms,equity');
  assert.ok(lines.length >= 4, `rows: ${lines.length - 1}`);
  for (const l of lines.slice(1)) assert.equal(Number(l.split(',')[1]) % 60_000, 0, 'one row per exchange minute');
  const json = JSON.parse(await exportCsv(page, 'report-export-json')) as PerformanceReport;
  assert.equal(json.account, address);
  assert.equal(json.pnl, api.pnl);
});
