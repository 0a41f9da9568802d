// Journey: the price chart draws an outcome's history from /prices-history, adds a new trade live
// from the tape, switches range, and shows a crosshair readout under the pointer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, selectMarket, startJourney, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('the chart renders history, then a new trade arrives live, and the crosshair reads the price', async () => {
  const question = `E2E chart ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  const a = await j.newTrader();
  const b = await j.newTrader();
  await onboardTrader(a.page);
  await onboardTrader(b.page);

  // First trade: A bids Yes 0.40, B buys No at 0.60 (a mint at Yes 0.40).
  await crossAtPrice(a.page, b.page, question, '0.4');

  const chart = a.page.getByTestId('price-chart');
  await eventually('the first point', async () => (await chart.getAttribute('data-points')) === '1');
  assert.equal(await chart.getAttribute('data-last'), '0.4');
  // The library's own attribution link is on the chart (licence requirement), plus the footer credit.
  assert.ok((await a.page.locator('[data-testid="price-chart"] a[href*="tradingview.com"]').count()) >= 1);

  // A fresh page load draws it again (history from /prices-history, newer trades from the tape).
  await a.page.reload();
  await selectMarket(a.page, question, 0);
  await eventually('history after reload', async () => (await chart.getAttribute('data-last')) === '0.4');

  // A second trade at 0.45, a second or more later, appears live.
  await new Promise((r) => setTimeout(r, 1100));
  await crossAtPrice(a.page, b.page, question, '0.45');
  await eventually('the live trade on the chart', async () => (await chart.getAttribute('data-last')) === '0.45');
  assert.ok(Number(await chart.getAttribute('data-points')) >= 1);

  // Ranges: every button answers; ALL still holds the trades.
  for (const r of ['1H', '6H', '1W', '1M', 'ALL']) {
    await a.page.getByTestId(`chart-range-${r}`).click();
    assert.equal(await a.page.getByTestId(`chart-range-${r}`).getAttribute('aria-pressed'), 'true');
  }
  await eventually('ALL range data', async () => (await chart.getAttribute('data-last')) === '0.45');

  // Crosshair: hover across the plot until the readout shows a price.
  const box = (await a.page.getByTestId('chart-canvas').boundingBox())!;
  const readout = await eventually('the crosshair readout', async () => {
    for (let x = box.x + box.width - 70; x > box.x + 10; x -= 15) {
      await a.page.mouse.move(x, box.y + box.height / 2);
      const el = a.page.getByTestId('chart-crosshair-price');
      if ((await el.count()) > 0) return el.getAttribute('data-price');
    }
    return undefined;
  });
  assert.ok(['0.4', '0.45'].includes(readout!), `crosshair price ${readout}`);
  await j.screenshot(a.page, 'chart-history-and-live-trade');
});
