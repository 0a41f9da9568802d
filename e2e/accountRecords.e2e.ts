// Issue 23, items 2 and 10: the account's records. Trade history and trades.csv showed the
// counterparty's side for maker fills ("No BUY 0.63" for my Yes BUY at 0.37) while the Trades tab was
// right; one derivation of "my side" for every view and export, with the market named. Item 10's
// order history: cancelled, expired and rejected orders with their reasons.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { binaryMarket, DEFAULT_VIEWPORT, eventually, exportCsv, onboardTrader, placeLimit, screenshotAtEachSize, selectMarket, startJourney, twoOnboardedTraders, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  await screenshotAtEachSize(j, page, name);
  await page.setViewportSize(DEFAULT_VIEWPORT);
}

test('a maker’s Yes BUY at 0.37 reads Yes BUY 0.37 with the market in Trade history and trades.csv', async () => {
  const question = `E2E records ${Date.now()}`;
  await binaryMarket(j, question);
  const { a, b } = await twoOnboardedTraders(j);
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

test('Order history lists a cancelled and a rejected order with their reasons', async () => {
  const question = `E2E history ${Date.now()}`;
  await binaryMarket(j, question);
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await placeLimit(page, { side: 'BUY', price: '0.2', size: '5' });
  await page.getByTestId('tab-orders').click();
  await page.getByTestId('open-order-row').first().getByRole('button', { name: /cancel/i }).click();
  await page.getByTestId('open-orders-empty').waitFor();
  // Far beyond the balance: the exchange refuses it.
  await placeLimit(page, { side: 'BUY', price: '0.5', size: '50000' });
  await page.getByTestId('ticket-rejection').waitFor();

  await page.getByTestId('account-open').click();
  await page.getByTestId('account-tab-history').click();
  const rows = page.getByTestId('order-history-row');
  await eventually('two orders in the history', async () => (await rows.count()) === 2);
  const rejected = rows.filter({ has: page.locator('[data-status="rejected"]') });
  assert.match(await rejected.innerText(), /Not enough balance/);
  assert.match(await rejected.innerText(), /50,000\.00|50000/);
  const cancelled = rows.filter({ has: page.locator('[data-status="cancelled"]') });
  assert.match(await cancelled.innerText(), /cancelled by owner/);
  assert.ok((await cancelled.innerText()).includes(question));
  await shoot(page, 'issue23-order-history');
});
