// Issue 14, book and ticket: the trader's own resting orders show their queue position ("ahead X of Y")
// in the book ladder and in Open orders, and it moves as orders ahead of them fill or cancel.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
let question: string;
before(async () => {
  j = await startJourney();
  question = `E2E queue ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
});
after(async () => {
  await j?.close();
});

async function trader(outcome: 0 | 1): Promise<Page> {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, outcome);
  return page;
}

/** The queue shown for my order at 0.40, in the book and in Open orders, once both agree. */
async function shownQueue(page: Page, ahead: string, level: string): Promise<void> {
  const book = page.locator('[data-testid="book-bid-row"][data-price="0.4"]').getByTestId('book-own-queue');
  const row = page.getByTestId('open-order-row').first().getByTestId('open-order-queue');
  await eventually(`ahead ${ahead} of ${level}`, async () => {
    const [ba, bl, ra, rl] = await Promise.all([book.getAttribute('data-ahead'), book.getAttribute('data-level'), row.getAttribute('data-ahead'), row.getAttribute('data-level')]);
    return ba === ahead && bl === level && ra === ahead && rl === level;
  });
  assert.match(await book.innerText(), new RegExp(`ahead ${Number(ahead).toFixed(2)} of ${Number(level).toFixed(2)}`));
  assert.equal(await row.innerText(), `ahead ${Number(ahead).toFixed(2)} of ${Number(level).toFixed(2)}`);
}

test('my resting bid shows the shares ahead of it at its price and the level total, and moves up as the order ahead partly fills and is cancelled', async () => {
  const first = await trader(0);
  await placeLimit(first, { side: 'BUY', price: '0.40', size: '10' });

  const me = await trader(0);
  await placeLimit(me, { side: 'BUY', price: '0.40', size: '7' });
  await me.getByTestId('tab-orders').click();
  await shownQueue(me, '10', '17');
  await j.screenshot(me, 'issue14-queue-position');

  // A buyer of No at 0.60 crosses the 0.40 Yes bids (a mint) and takes 5 from the order ahead of mine.
  const taker = await trader(1);
  await placeLimit(taker, { side: 'BUY', price: '0.60', size: '5' });
  await shownQueue(me, '5', '12');

  // The order ahead is cancelled: mine is at the front.
  await first.getByTestId('tab-orders').click();
  await first.getByTestId('open-order-row').first().getByTestId('cancel-order').click();
  await shownQueue(me, '0', '7');
  await j.screenshot(me, 'issue14-queue-front');
});
