// Issue 23, item 11: the chart draws candles (open, high, low, close) with volume bars from the price
// history's new fields and the live tape, switches to the book's closing mid, shows prices at the
// market's tick and grows with the window.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { atEachSize, binaryMarket, eventually, placeLimit, selectMarket, startJourney, twoOnboardedTraders, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('three fills in one minute make one candle 0.40 → 0.45 → 0.42 with their volume; Mid draws the closing mid; the chart grows with the window', async () => {
  const question = `E2E candles ${Date.now()}`;
  await binaryMarket(j, question);
  const { a, b } = await twoOnboardedTraders(j);
  // Wait for a fresh minute so the three fills share one 1-minute candle. Started with 30 s of the minute left,
  // the crosses can straddle a minute on a loaded machine; start only with 50 s left.
  const s = new Date().getUTCSeconds();
  if (s > 10) await new Promise((r) => setTimeout(r, (61 - s) * 1000));
  await crossAtPrice(a.page, b.page, question, '0.4', '10');
  await crossAtPrice(a.page, b.page, question, '0.45', '5');
  await crossAtPrice(a.page, b.page, question, '0.42', '15');
  // A two-sided book afterwards, so the candle has a closing mid: 0.30 bid, 0.60 ask → mid 0.45.
  await selectMarket(a.page, question, 0);
  await placeLimit(a.page, { side: 'BUY', price: '0.3', size: '5' });
  await selectMarket(b.page, question, 1);
  await placeLimit(b.page, { side: 'BUY', price: '0.4', size: '5' });

  const page = a.page;
  await selectMarket(page, question, 0);
  await page.getByTestId('chart-range-1H').click();
  const chart = page.getByTestId('price-chart');
  await eventually('one candle open 0.4 high 0.45 low 0.4 close 0.42, volume 30', async () => (await chart.getAttribute('data-candle')) === '0.4 0.45 0.4 0.42 30');
  assert.equal(await chart.getAttribute('data-points'), '1');
  // Prices at the market's tick (0.01): two decimals, not three.
  assert.equal((await page.getByTestId('chart-last').textContent())?.trim(), '0.42 (+0.00)');

  // The history route carries the candle too (a reload draws it from /prices-history alone).
  await page.reload();
  await selectMarket(page, question, 0);
  await page.getByTestId('chart-range-1H').click();
  await eventually('the candle after a reload', async () => (await chart.getAttribute('data-candle')) === '0.4 0.45 0.4 0.42 30');

  await page.getByTestId('chart-mode-mid').click();
  assert.equal(await chart.getAttribute('data-mode'), 'mid');
  await eventually('the closing mid 0.45', async () => (await chart.getAttribute('data-last')) === '0.45');
  assert.match(await chart.locator('h2').innerText(), /^MID · YES/i);
  await j.screenshot(page, 'issue23-chart-mid-1440x900');
  await page.getByTestId('chart-mode-last').click();

  const heights: number[] = [];
  await atEachSize(page, async (w, h) => {
    await page.waitForTimeout(300);
    heights.push(Math.round((await page.getByTestId('chart-canvas').boundingBox())!.height));
    await j.screenshot(page, `issue23-chart-${w}x${h}`);
  });
  assert.ok(heights[0]! >= 60 && heights[1]! > heights[0]! && heights[2]! > heights[1]!, `the chart grows with the window (${heights.join(' → ')} px)`);
});
