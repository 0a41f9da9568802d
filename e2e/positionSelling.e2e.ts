// Issue 23, item 9: position-aware selling. The SELL ticket shows the shares held, with 25/50 % and
// Max presets; each position has Sell and Close; selling more than you hold is blocked in the form
// with words about shares (not "add funds").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { atEachSize, binaryMarket, DEFAULT_VIEWPORT, eventually, placeLimit, startJourney, twoOnboardedTraders, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('Sell on a position fills the SELL ticket with the shares held, presets size it, overselling is blocked, Close sells it all at market', async () => {
  const question = `E2E sell position ${Date.now()}`;
  await binaryMarket(j, question, '1');
  const { a, b } = await twoOnboardedTraders(j);
  await crossAtPrice(a.page, b.page, question, '0.4');
  const page = a.page;

  // Another market selected: Sell on the position brings its market and outcome back.
  await page.getByTestId('tab-positions').click();
  const row = page.getByTestId('position-row').filter({ hasText: question });
  await row.waitFor();
  await row.getByTestId('position-sell').click();
  await eventually('the SELL ticket sized to the position', async () => (await page.getByTestId('ticket-size').inputValue()) === '10');
  assert.match((await page.getByTestId('ticket-side-sell').getAttribute('class')) ?? '', /\bon\b/);
  assert.match(await page.getByTestId('ticket-held').innerText(), /10\.00 Yes/);

  await page.getByTestId('ticket-preset-25').click();
  assert.equal(await page.getByTestId('ticket-size').inputValue(), '2.5');
  await page.getByTestId('ticket-preset-max').click();
  assert.equal(await page.getByTestId('ticket-size').inputValue(), '10');

  await page.getByTestId('ticket-price').fill('0.45');
  await page.getByTestId('ticket-size').fill('15');
  const error = page.getByTestId('ticket-size-error');
  await error.waitFor();
  assert.equal(await error.innerText(), 'You hold 10.00 Yes shares: sell at most 10.00.');
  assert.equal(await page.getByTestId('ticket-submit').isDisabled(), true);
  await atEachSize(page, async (w, h) => {
    await page.getByTestId('ticket-held').scrollIntoViewIfNeeded();
    await j.screenshot(page, `issue23-sell-ticket-${w}x${h}`);
  });
  await page.setViewportSize(DEFAULT_VIEWPORT);

  // B bids for Yes; Close on A's position sells all 10 at market.
  await b.page.getByTestId('outcome-tab-0').click();
  await placeLimit(b.page, { side: 'BUY', price: '0.35', size: '10' });
  await eventually('B’s bid', async () => (await page.locator('[data-testid="book-bid-row"][data-price="0.35"]').count()) === 1);
  await page.getByTestId('tab-positions').click();
  await row.getByTestId('position-close').click();
  await eventually('a market SELL of the whole position', async () => (await page.getByTestId('ticket-mode-market').getAttribute('aria-pressed')) === 'true' && (await page.getByTestId('ticket-size').inputValue()) === '10');
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  await eventually('sold', async () => /filled 10\.00 of 10\.00/.test(await page.getByTestId('ticket-result').innerText().catch(() => '')));
  await eventually('the position is gone', async () => (await row.count()) === 0);
});
