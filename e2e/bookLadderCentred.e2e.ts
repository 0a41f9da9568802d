// Issue 23, item 4: the book ladder is centred on the spread. At every supported size (1024×700 up) the
// best ask, the spread row and the best bid are inside the book's scroll box at once; when the spread
// moves the ladder follows it; the deeper levels stay reachable by scrolling.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { atEachSize, binaryMarket, eventually, onboardTrader, placeLimit, selectMarket, startJourney, SUPPORTED_SIZES, type Journey } from './journeyHarness.js';

let j: Journey;
let question: string;
before(async () => {
  j = await startJourney();
  question = `E2E ladder ${Date.now()}`;
  await binaryMarket(j, question);
});
after(async () => {
  await j?.close();
});

/** Whether the element is wholly inside the book's scroll box and the window (not under the fold). */
async function shown(page: Page, selector: string): Promise<string | true> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const box = document.querySelector('[data-testid="book-scroll"]') ?? document.querySelector('[data-testid="book-panel"] .panel-body');
    if (!el || !box) return `missing ${el ? 'scroll box' : sel}`;
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const ok = r.height > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.bottom <= window.innerHeight;
    return ok ? true : `${sel} at ${Math.round(r.top)}–${Math.round(r.bottom)}, box ${Math.round(b.top)}–${Math.round(b.bottom)}, window ${window.innerHeight}`;
  }, selector);
}

const BEST_ASK = '[data-testid="book-ask-row"]:last-of-type';
const BEST_BID = '[data-testid="book-bid-row"]:first-of-type';
const SPREAD = '[data-testid="book-spread"]';

test('both best prices and the spread are in view at 1024×700, 1280×720, 1366×768, 1440×900 and 1920×1080, and stay centred as the spread moves', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  // A deep book: 12 bids 0.20–0.31 and 12 asks 0.51–0.62 (the asks are No bids at 0.49–0.38: a trader
  // holds no shares to sell, and the book shows a No bid as a Yes ask at 1 − price).
  for (let i = 0; i < 12; i++) await placeLimit(page, { side: 'BUY', price: (0.2 + i / 100).toFixed(2), size: '5' });
  await page.getByTestId('outcome-tab-1').click();
  for (let i = 0; i < 12; i++) await placeLimit(page, { side: 'BUY', price: (0.49 - i / 100).toFixed(2), size: '5' });
  await page.getByTestId('outcome-tab-0').click();
  await eventually('12 levels a side', async () => (await page.getByTestId('book-ask-row').count()) === 12 && (await page.getByTestId('book-bid-row').count()) === 12);

  await atEachSize(
    page,
    async (w, h) => {
      for (const sel of [BEST_ASK, SPREAD, BEST_BID]) {
        await eventually(`${sel} in view at ${w}×${h}`, async () => (await shown(page, sel)) === true, 5000).catch(async (e) => {
          await j.screenshot(page, `issue23-ladder-${w}x${h}-failed`);
          throw new Error(`${String(e)} (${await shown(page, sel)})`);
        });
      }
      if (w === 1024 || w === 1440 || w === 1920) await j.screenshot(page, `issue23-ladder-${w}x${h}`);
    },
    SUPPORTED_SIZES,
  );

  // The deeper levels are reachable: the ladder scrolls.
  await page.setViewportSize({ width: 1366, height: 768 });
  const scrolls = await page.evaluate(() => {
    const box = document.querySelector<HTMLElement>('[data-testid="book-scroll"]');
    return !!box && box.scrollHeight > box.clientHeight && getComputedStyle(box).overflowY !== 'hidden';
  });
  assert.ok(scrolls, 'the ladder scrolls to its deeper levels');

  // The spread moves (a bid inside it at 0.37): the ladder follows and the new best bid is in view.
  await placeLimit(page, { side: 'BUY', price: '0.37', size: '5' });
  await eventually('the new best bid', async () => (await page.locator(BEST_BID).getAttribute('data-price')) === '0.37');
  for (const sel of [BEST_ASK, SPREAD, BEST_BID]) await eventually(`${sel} in view after the move`, async () => (await shown(page, sel)) === true, 5000);

  // Scrolling away stops the following; Centre brings the spread back.
  const box = (await page.getByTestId('book-scroll').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 600);
  await eventually('the spread scrolled out of view', async () => (await shown(page, SPREAD)) !== true, 5000);
  await page.getByTestId('book-centre').click();
  for (const sel of [BEST_ASK, SPREAD, BEST_BID]) await eventually(`${sel} in view after Centre`, async () => (await shown(page, sel)) === true, 5000);
});
