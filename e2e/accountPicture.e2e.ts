// Issue 23, item 10: an account picture. Portfolio value (cash + positions at mark), total and day PnL
// in the top bar and the Account view; an Activity CSV; a redeemed position stays visible with its
// realised PnL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { atEachSize, binaryMarket, DEFAULT_VIEWPORT, eventually, exportCsv, startJourney, twoOnboardedTraders, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

const text = (page: Page, id: string) => page.getByTestId(id).innerText().catch(() => '');

test('portfolio value and PnL in the top bar and Account view; a redeemed position stays with its realised PnL; activity exports as CSV', async () => {
  const question = `E2E picture ${Date.now()}`;
  const market = await binaryMarket(j, question);
  const { a, b } = await twoOnboardedTraders(j);
  const page = a.page;
  await eventually('the starting portfolio', async () => (await text(page, 'topbar-portfolio-value')) === '10,000.00');
  assert.equal(await text(page, 'topbar-total-pnl'), '+0.00');

  // 10 Yes bought at 0.40: 9,996 cash + 10 × 0.40 at the last trade.
  await crossAtPrice(page, b.page, question, '0.4');
  await eventually('the position at mark', async () => (await text(page, 'topbar-portfolio-value')) === '10,000.00' && (await text(page, 'account-positions-value')) === '4.00');

  await j.admin(`/markets/${market.condition_id}/resolve`, { winningOutcomeIndex: 0 });
  await page.getByTestId('tab-positions').click();
  await page.getByTestId('position-row').first().getByTestId('redeem').click();
  await eventually('the redeemed payout in the picture', async () => (await text(page, 'topbar-portfolio-value')) === '10,006.00');
  await eventually('total and day PnL', async () => (await text(page, 'topbar-total-pnl')) === '+6.00' && (await text(page, 'topbar-day-pnl')) === '+6.00');

  await page.getByTestId('account-open').click();
  assert.equal(await text(page, 'account-portfolio-value'), '10,006.00');
  assert.equal(await text(page, 'account-total-pnl'), '+6.00');
  await page.getByTestId('account-tab-closed').click();
  const closed = page.getByTestId('closed-position-row');
  await eventually('the redeemed position stays', async () => (await closed.count()) === 1);
  assert.match(await closed.innerText(), /Yes[\s\S]*\+6\.00/);
  // The screenshot sizes, a 1280-wide laptop and one pixel above the 1,700 px cut-off of the top bar's extras.
  const sizes = [[1024, 700], [1280, 800], [1440, 900], [1701, 900], [1920, 1080]] as const;
  await atEachSize(page, async (w, h) => {
    const box = await page.getByTestId('topbar-portfolio').boundingBox();
    assert.ok(box && box.x + box.width <= w, `the top bar's account picture is in view at ${w}×${h}: ${JSON.stringify(box)}`);
    await j.screenshot(page, `issue23-account-picture-${w}x${h}`);
  }, sizes);
  await page.setViewportSize(DEFAULT_VIEWPORT);

  await page.getByTestId('account-tab-activity').click();
  await eventually('activity rows', async () => (await page.getByTestId('activity-row').count()) >= 2);
  const csv = await exportCsv(page, 'export-activity');
  const lines = csv.trimEnd().split('\r\n');
  assert.equal(lines[0], 'time_utc,type,market,outcome,side,shares,price,usdc,transaction_hash');
  assert.ok(lines.some((l) => l.includes(',REDEEM,') && l.includes(question)), csv);
  assert.ok(lines.some((l) => l.includes(',TRADE,') && l.includes(',BUY,')), csv);
});
