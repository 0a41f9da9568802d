// Journey: the account views. After a cross, the maker sees its balance split into available and
// reserved, its position with average price and PnL, the trade explained (maker, which of its resting
// orders matched, the fee), its activity, exports trades and positions as CSV, and once the market
// resolves redeems the winning position with the Redeem button.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, exportCsv, onboardTrader, placeLimit, startJourney, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('positions, trade explainer, activity, balance split, CSV export and redeem', async () => {
  const question = `E2E account ${Date.now()}`;
  const market = await j.admin<{ condition_id: string }>('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  const a = await j.newTrader();
  const b = await j.newTrader();
  await onboardTrader(a.page);
  await onboardTrader(b.page);

  await crossAtPrice(a.page, b.page, question, '0.4');
  // A rests a second bid: 20 × 0.10 = 2 USDC reserved.
  assert.equal((await placeLimit(a.page, { side: 'BUY', price: '0.1', size: '20' })).status, 'live');

  await eventually('the balance split', async () => (await a.page.getByTestId('balance-reserved').innerText()) === '2.00');
  assert.equal(await a.page.getByTestId('balance-total').innerText(), '9,996.00');
  assert.equal(await a.page.getByTestId('balance-available').innerText(), '9,994.00');

  await a.page.getByTestId('account-open').click();
  const row = a.page.getByTestId('account-position-row');
  await eventually('A’s position', async () => (await row.count()) === 1);
  assert.equal(await row.getAttribute('data-size'), '10');
  assert.match(await row.innerText(), /Yes[\s\S]*10\.00[\s\S]*0\.400/);

  const positionsCsv = await exportCsv(a.page, 'export-positions');
  assert.match(positionsCsv, /^market,outcome,asset,size,avg_price,mark,value,unrealized_pnl,realized_pnl,redeemable\r\n/);
  assert.match(positionsCsv, new RegExp(`${question},Yes,\\d+,10,0\\.4,`));

  await a.page.getByTestId('account-tab-trades').click();
  const trade = a.page.getByTestId('account-trade-row');
  await eventually('A’s trade', async () => (await trade.count()) === 1);
  assert.equal(await trade.getAttribute('data-role'), 'MAKER');
  await trade.getByTestId('fill-explain-toggle').click();
  const explainer = a.page.getByTestId('fill-explainer');
  assert.equal(await explainer.getAttribute('data-role'), 'maker');
  assert.equal(await explainer.getAttribute('data-fee'), '0');
  assert.match(await explainer.innerText(), /hit your resting order: 10 @ 0\.4 Yes/);
  const tradesCsv = await exportCsv(a.page, 'export-trades');
  assert.equal(tradesCsv.trimEnd().split('\r\n').length, 2);
  assert.match(tradesCsv, /,MAKER,0,/);

  await a.page.getByTestId('account-tab-activity').click();
  await eventually('A’s trade in the activity', async () => (await a.page.locator('[data-testid="activity-row"][data-type="TRADE"]').count()) >= 1);
  await j.screenshot(a.page, 'account-activity');

  // Resolution: Yes wins; A redeems 10 shares for 10 USDC from the positions view.
  await j.admin(`/markets/${market.condition_id}/resolve`, { winningOutcomeIndex: 0 });
  await a.page.getByTestId('account-tab-positions').click();
  await eventually('the redeemable position', async () => (await row.getAttribute('data-redeemable')) === 'true');
  await j.screenshot(a.page, 'account-positions-redeemable');
  await row.getByTestId('redeem').click();
  await eventually('the payout', async () => /Paid 10/.test(await row.getByTestId('redeem').innerText().catch(() => '')) || (await row.count()) === 0);
  await a.page.keyboard.press('Escape');
  // 9,996 + the 2 released by the resolution's cancel is already in the balance; the payout adds 10.
  await eventually('the payout in the balance', async () => (await a.page.getByTestId('balance-total').innerText()) === '10,006.00');
  assert.equal(await a.page.getByTestId('balance-reserved').innerText(), '0.00');
});
