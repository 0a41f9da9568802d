// Issue 23, item 1: a $20 market BUY with 80 shares at 0.36 on the book confirmed "Buy 55.55 Yes @ 0.51
// (FAK)" (a $20 order allowed to spend $28.33) with a fat-finger warning. It must sign the worst level
// its amount actually reaches, never more than the amount, with a visible slippage setting.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryMarket, eventually, placeLimit, screenshotAtEachSize, selectMarket, startJourney, twoOnboardedTraders, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('a $20 market buy signs 55.55 @ 0.36, spends at most $20 and raises no fat-finger warning; slippage is visible and moves the limit', async () => {
  const question = `E2E market limit ${Date.now()}`;
  await binaryMarket(j, question);
  const { a: maker, b: taker } = await twoOnboardedTraders(j);
  // No bids mirror as Yes asks: 80 @ 0.36, 100 @ 0.43 and 500 @ 0.51.
  await selectMarket(maker.page, question, 1);
  await placeLimit(maker.page, { side: 'BUY', price: '0.64', size: '80' });
  await placeLimit(maker.page, { side: 'BUY', price: '0.57', size: '100' });
  await placeLimit(maker.page, { side: 'BUY', price: '0.49', size: '500' });

  const page = taker.page;
  await selectMarket(page, question, 0);
  await eventually('the Yes asks', async () => (await page.locator('[data-testid="book-ask-row"][data-price="0.51"]').count()) === 1);
  await page.getByTestId('ticket-mode-market').click();
  await page.getByTestId('ticket-side-buy').click();
  await page.getByTestId('ticket-amount').fill('20');
  const slippage = page.getByTestId('ticket-slippage');
  assert.equal(await slippage.isVisible(), true, 'the slippage setting is shown in market mode');
  assert.equal(await slippage.inputValue(), '0');
  await eventually('market preview', async () => /Up to 0\.36 · 55\.55 shares/.test(await page.getByTestId('ticket-market-price').innerText()));
  const maker$ = Number((await page.getByTestId('ticket-maker-amount').innerText()).split(' ')[0]) / 1e6;
  assert.ok(maker$ <= 20, `the signed maker amount ${maker$} stays within $20`);

  await page.getByTestId('ticket-submit').click();
  const dialog = page.getByTestId('order-confirm-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /Buy 55\.55 Yes @ 0\.36 \(FAK\)/);
  assert.equal(await page.getByTestId('fat-finger-warning').count(), 0, 'a market order trips no fat-finger warning on its own');
  assert.equal(await page.getByTestId('order-confirm').innerText(), 'Send order');
  await j.screenshot(page, 'issue23-market-buy-confirm');
  await page.getByTestId('order-cancel').click();

  // Two ticks of slippage: the limit moves to 0.38 and the size shrinks so $20 still bounds it.
  await slippage.selectOption('2');
  await eventually('slipped preview', async () => /Up to 0\.38 · 52\.63 shares/.test(await page.getByTestId('ticket-market-price').innerText()));
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  await eventually('filled at the best ask', async () => /filled 52\.63 of 52\.63/.test(await page.getByTestId('ticket-result').innerText().catch(() => '')));
  await screenshotAtEachSize(j, page, 'issue23-market-buy');
});
