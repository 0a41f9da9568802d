// Issue 23, item 12: words. The raw makerAmount/takerAmount sit behind a "details" disclosure; the order
// type is explained inline; prices can show in cents like Polymarket's site; the Safe and relayer say
// they are optional for paper trading; no "CVD-safe" or "chain 31337" jargon on screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onboardTrader, selectMarket, showSideTab, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('plain words: amounts behind details, order types explained, prices in cents on demand, no jargon', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await page.getByTestId('onboarding-skip').click().catch(() => undefined);
  await selectMarket(page, 'Bitcoin', 0);
  await page.getByTestId('ticket-price').fill('0.3');
  await page.getByTestId('ticket-size').fill('10');

  // The signed amounts are there for the curious, not in the way.
  assert.equal(await page.getByTestId('ticket-maker-amount').isVisible(), false, 'makerAmount hidden until asked for');
  await page.getByTestId('ticket-details').locator('summary').click();
  assert.match(await page.getByTestId('ticket-maker-amount').innerText(), /^3000000 \(3\.0000\)$/);

  // Each order type says what it does, beside the choice.
  for (const [type, words] of [
    ['GTC', /rests on the book until it fills or you cancel/],
    ['GTD', /until the expiry you set/],
    ['FOK', /whole size fills at once .* or nothing/],
    ['FAK', /takes what the book has now .* cancels the rest/],
  ] as const) {
    await page.getByTestId('ticket-type').selectOption(type);
    assert.match(await page.getByTestId('ticket-type-help').innerText(), words, type);
  }

  // Prices in cents, as Polymarket shows them; the order itself is unchanged.
  const bid = page.getByTestId('book-bid-row').first();
  const price = await bid.getAttribute('data-price');
  await page.getByTestId('price-style-toggle').check();
  assert.equal((await bid.locator('.v').innerText()).trim(), `${Math.round(Number(price) * 100)}¢`);
  assert.match(await page.getByTestId('outcome-tab-0').innerText(), /\d+¢/);
  assert.equal(await bid.getAttribute('data-price'), price, 'the level keeps its protocol price');
  await j.screenshot(page, 'issue23-prices-in-cents-1440x900');
  await page.getByTestId('price-style-toggle').uncheck();

  // Optional set-up says so; no jargon in the bars.
  await showSideTab(page, 'safe');
  assert.match(await page.getByTestId('safe-optional').innerText(), /Optional for paper trading/);
  const bars = `${await page.locator('header.topbar').innerText()} ${await page.getByTestId('status-bar').innerText()}`;
  assert.doesNotMatch(bars, /CVD|31337/, bars);
  assert.match(bars, /Colour-blind\s+palette/, 'at 1440 px the label is whole');
  assert.match(bars, /no chain \(paper trading only\)|local test chain/);
});
