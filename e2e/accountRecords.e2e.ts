// Issue 23, items 2 and 10: the account's records. Trade history and trades.csv showed the
// counterparty's side for maker fills ("No BUY 0.63" for my Yes BUY at 0.37) while the Trades tab was
// right; one derivation of "my side" for every view and export, with the market named.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { eventually, onboardTrader, startJourney, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

async function exportCsv(page: Page, testId: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return readFile((await download.path())!, 'utf8');
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [w, h] of [
    [1024, 700],
    [1440, 900],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await j.screenshot(page, `${name}-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a maker’s Yes BUY at 0.37 reads Yes BUY 0.37 with the market in Trade history and trades.csv', async () => {
  const question = `E2E records ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  const a = await j.newTrader();
  const b = await j.newTrader();
  await onboardTrader(a.page);
  await onboardTrader(b.page);
  await crossAtPrice(a.page, b.page, question, '0.37');

  await a.page.getByTestId('account-open').click();
  await a.page.getByTestId('account-tab-trades').click();
  const row = a.page.getByTestId('account-trade-row');
  await eventually('A’s trade', async () => (await row.count()) === 1);
  const cells = await row.locator('td').allInnerTexts();
  assert.ok(cells.includes(question), `the market is named: ${cells.join(' | ')}`);
  assert.ok(cells.includes('Yes') && cells.includes('BUY') && cells.some((c) => /^0\.37/.test(c)), `A’s own side: ${cells.join(' | ')}`);
  assert.ok(!cells.includes('No') && !cells.some((c) => /^0\.63/.test(c)), `not the taker’s side: ${cells.join(' | ')}`);
  const csv = await exportCsv(a.page, 'export-trades');
  assert.match(csv.split('\r\n')[1]!, new RegExp(`,${question},0x[0-9a-f]+,Yes,BUY,0\\.37,10,MAKER,`));
  await shoot(a.page, 'issue23-trade-history');
});
