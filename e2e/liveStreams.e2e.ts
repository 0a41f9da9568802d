// Journey: the terminal runs on the streams. With the HTTP book route blocked in the page, a trader's
// book still follows another trader's orders (market channel); the maker's open order shows its
// partial fill without waiting for a poll (user channel); the last trade and an operator's tick
// change reach the header.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('the book, the open orders, the last trade and a tick change update from the streams, with GET /book blocked', async () => {
  const question = 'Will the terminal stream?';
  const market = await j.admin<{ condition_id: string }>('/markets', { question, tickSize: '0.01', minOrderSize: '1' });

  const watcher = await j.newTrader();
  const maker = await j.newTrader();
  await onboardTrader(watcher.page);
  await onboardTrader(maker.page);

  // The watcher's page may not fetch a book over HTTP: whatever book it shows came from the market channel.
  let bookFetches = 0;
  await watcher.page.route(/\/books?(\?|$)/, (route) => {
    bookFetches += 1;
    return route.abort();
  });
  await selectMarket(watcher.page, question, 0);
  await eventually('the market stream open in the status bar', async () => (await watcher.page.getByTestId('stream-state').innerText()) === 'open');

  await selectMarket(maker.page, question, 0);
  assert.equal((await placeLimit(maker.page, { side: 'BUY', price: '0.40', size: '10' })).status, 'live');
  const answered = Date.now();
  const bid = watcher.page.locator('[data-testid="book-bid-row"][data-price="0.4"]');
  await bid.waitFor({ timeout: 5000 });
  const bookLatencyMs = Date.now() - answered;
  assert.equal(await bid.getAttribute('data-size'), '10');
  assert.ok(bookFetches > 0, 'the page tried GET /book and was refused, so the level came from the stream');

  // The watcher sells into the bid by buying No at 0.60 (a mint): half the maker's order fills.
  await watcher.page.getByTestId('outcome-tab-1').click();
  assert.equal((await placeLimit(watcher.page, { side: 'BUY', price: '0.60', size: '5' })).status, 'matched');
  const filled = Date.now();

  // The maker's open order shows 5 matched well inside the 10 s poll that runs while the stream is open.
  await maker.page.getByTestId('tab-orders').click();
  await eventually('the partial fill in the maker’s open orders', async () => (await maker.page.getByTestId('open-order-row').first().innerText()).includes('5.00'), 5000);
  const fillLatencyMs = Date.now() - filled;
  assert.ok(fillLatencyMs < 5000);

  // The watcher's book (No side now) shows the rest of the bid as a 0.6 ask of 5; the header the last trade.
  await eventually('the remaining 5 as a No ask at 0.6', async () => (await watcher.page.locator('[data-testid="book-ask-row"][data-price="0.6"]').getAttribute('data-size')) === '5', 5000);
  await eventually('the last trade in the header', async () => (await watcher.page.getByTestId('last-trade-price').innerText()).startsWith('0.6'), 5000);

  // The operator tightens the tick: the header follows without a reload.
  const res = await fetch(`${j.ready.trading}/admin/markets/${market.condition_id}/tick-size`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${j.ready.operatorToken}`, 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ tickSize: '0.001' }),
  });
  assert.equal(res.status, 200, await res.text());
  await eventually('the new tick in the header', async () => (await watcher.page.getByTestId('market-tick').innerText()) === '0.001', 5000);
  await j.screenshot(watcher.page, 'live-streams-watcher');
  console.log(`book update ${bookLatencyMs} ms after the placement answer; partial fill in open orders ${fillLatencyMs} ms after the cross`);
});
