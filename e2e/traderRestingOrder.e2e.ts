// Journey (a): a trader creates a wallet and an API key, sees the demo markets, places a resting
// limit order, sees it in the book and in open orders, and cancels it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, placeLimit, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

const micros = (s: string) => Math.round(Number(s) * 1e6);
const fromMicros = (m: number) => String(m / 1e6);

test('a trader rests a limit order, sees it in the book and open orders, then cancels it', async () => {
  const { page } = await j.newTrader();

  const rows = page.getByTestId('market-row');
  await rows.first().waitFor();
  assert.ok((await rows.count()) >= 1, 'the demo markets are listed');

  const address = await onboardTrader(page);
  assert.match(address, /^0x[0-9a-fA-F]{40}$/);
  assert.match(await page.getByTestId('wallet-balance').innerText(), /10,000\.00/);

  // First demo market, first outcome; find a price on the tick below the best ask with no bid level yet.
  await rows.first().click();
  await page.getByTestId('outcome-tab-0').click();
  await page.getByTestId('book-spread').waitFor();
  const tick = micros((await rows.first().locator('.chip.dim').innerText()).replace('tick', '').trim());
  const asks = await page.getByTestId('book-ask-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-price') ?? ''));
  const bids = new Set(await page.getByTestId('book-bid-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-price') ?? '')));
  const bestAsk = asks.length ? Math.min(...asks.map(micros)) : 1_000_000;
  let price = bestAsk - tick;
  while (price > tick && bids.has(fromMicros(price))) price -= tick;
  const priceText = fromMicros(price);

  const placed = await placeLimit(page, { side: 'BUY', price: priceText, size: '12' });
  assert.equal(placed.success, 'true');
  assert.equal(placed.status, 'live');
  await j.screenshot(page, 'journey-a-resting-order');

  // The order shows in the book as a bid level at our price with our size.
  await eventually('our bid in the book', async () => {
    const level = page.locator(`[data-testid="book-bid-row"][data-price="${priceText}"]`);
    return (await level.count()) === 1 && (await level.getAttribute('data-size')) === '12';
  });

  // And in open orders.
  await page.getByTestId('tab-orders').click();
  const openRow = page.getByTestId('open-order-row');
  await openRow.first().waitFor();
  assert.equal(await openRow.count(), 1);
  assert.equal(await openRow.first().getAttribute('data-price'), priceText);
  assert.equal(await openRow.first().getAttribute('data-side'), 'BUY');

  await openRow.first().getByTestId('cancel-order').click();
  await page.getByTestId('open-orders-empty').waitFor();
  await eventually('our bid gone from the book', async () => (await page.locator(`[data-testid="book-bid-row"][data-price="${priceText}"]`).count()) === 0);
  await j.screenshot(page, 'journey-a-cancelled');
});
