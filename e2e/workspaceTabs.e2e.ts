// Issue 14, workspace: favourites (a watchlist with live best bid / ask / last), several markets open as
// tabs (click, `]`, Ctrl+Tab, the command palette, close), all restored after a reload; and the paper
// banner as a row of the layout grid that covers nothing at 1280×720 and 2560×1440.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
let a: string;
let b: string;
before(async () => {
  j = await startJourney();
  const stamp = Date.now();
  a = `E2E watch A ${stamp}`;
  b = `E2E watch B ${stamp}`;
  for (const question of [a, b]) await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
});
after(async () => {
  await j?.close();
});

const active = (page: Page) => page.getByTestId('market-question').innerText();
const tabQuestions = (page: Page) => page.getByTestId('market-tab-pick').allInnerTexts();

test('star two markets, open both as tabs, switch by click, ] , Ctrl+Tab and the palette; the watchlist follows the book live; a reload restores it all', async () => {
  const { page } = await j.newTrader();
  await selectMarket(page, a, 0);
  await page.getByTestId('market-header').getByTestId('favourite-toggle').click();
  await selectMarket(page, b, 0);
  await page.getByTestId('market-header').getByTestId('favourite-toggle').click();
  assert.equal(await page.getByTestId('market-header').getByTestId('favourite-toggle').getAttribute('aria-pressed'), 'true');

  // Both open as tabs, B active.
  assert.deepEqual((await tabQuestions(page)).map((t) => t.replace('★', '').trim()), [a, b]);
  assert.equal(await active(page), b);
  await page.getByTestId('market-tab').filter({ hasText: a }).getByTestId('market-tab-pick').click();
  assert.equal(await active(page), a);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(']');
  await page.getByTestId('market-question').getByText(b).waitFor();
  await page.keyboard.press('Control+Tab');
  await page.getByTestId('market-question').getByText(a).waitFor();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('next market tab');
  await page.keyboard.press('Enter');
  await page.getByTestId('market-question').getByText(b).waitFor();

  // The watchlist lists both; A's book is empty until another trader bids on it.
  const rowA = page.getByTestId('watch-row').filter({ hasText: a });
  assert.equal(await page.getByTestId('watch-row').count(), 2);
  assert.equal(await rowA.getAttribute('data-bid'), '');
  const other = await j.newTrader();
  await onboardTrader(other.page);
  await selectMarket(other.page, a, 0);
  await placeLimit(other.page, { side: 'BUY', price: '0.42', size: '10' });
  await eventually('the watchlist shows the new best bid of A', async () => (await rowA.getAttribute('data-bid')) === '0.42');
  assert.match(await rowA.innerText(), /0\.42/);
  assert.equal(await active(page), b, 'watching A did not switch away from B');
  await j.screenshot(page, 'issue14-watchlist-tabs');

  // Reload: favourites, tabs and the active tab come back.
  await page.waitForTimeout(300);
  await page.reload();
  await page.getByTestId('market-question').getByText(b).waitFor();
  assert.deepEqual((await tabQuestions(page)).map((t) => t.replace('★', '').trim()), [a, b]);
  assert.equal(await page.getByTestId('watch-row').count(), 2);
  await eventually('the bid after reload', async () => (await rowA.getAttribute('data-bid')) === '0.42');
  assert.equal(await page.getByTestId('market-header').getByTestId('favourite-toggle').getAttribute('aria-pressed'), 'true');

  // Closing the active tab activates its neighbour; un-starring takes the market off the watchlist.
  await page.getByTestId('market-tab').filter({ hasText: b }).getByTestId('market-tab-close').click();
  await page.getByTestId('market-question').getByText(a).waitFor();
  assert.deepEqual((await tabQuestions(page)).map((t) => t.replace('★', '').trim()), [a]);
  await page.getByTestId('market-header').getByTestId('favourite-toggle').click();
  assert.equal(await page.getByTestId('watch-row').count(), 1);
  await page.waitForTimeout(300);
  await page.reload();
  await page.getByTestId('market-question').getByText(a).waitFor();
  assert.deepEqual((await tabQuestions(page)).map((t) => t.trim()), [a]);
  assert.equal(await page.getByTestId('watch-row').count(), 1);
  await j.screenshot(page, 'issue14-watchlist-after-reload');
});

test('the paper banner has its own grid row: at 1280×720 and 2560×1440 it overlaps no panel and stays whole', async () => {
  const { page } = await j.newTrader();
  await selectMarket(page, a, 0);
  for (const [width, height] of [
    [1280, 720],
    [2560, 1440],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    const banner = (await page.getByTestId('paper-banner').boundingBox())!;
    assert.ok(banner.height >= 20 && banner.x >= 0 && banner.x + banner.width <= width && banner.y + banner.height <= height, `banner inside the window at ${width}×${height}`);
    // Every other child of the terminal grid, and the panels inside them.
    const boxes = await page.evaluate(() => {
      const els = [...document.querySelectorAll('.terminal > *:not(.paper-banner), [data-testid="market-header"], [data-testid="book-panel"], [data-testid="bottom-tabs"]')];
      return els
        .filter((e) => getComputedStyle(e).position !== 'fixed' && (e as HTMLElement).offsetParent !== null)
        .map((e) => {
          const r = e.getBoundingClientRect();
          return { name: `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 60), x: r.x, y: r.y, w: r.width, h: r.height };
        })
        .filter((r) => r.w > 0 && r.h > 0);
    });
    assert.ok(boxes.length >= 6, `found the layout's panels (${boxes.length})`);
    // A grid item in the flow (not a fixed strip laid over the page), in the row under the top bar.
    const placement = await page.getByTestId('paper-banner').evaluate((e) => ({ position: getComputedStyle(e).position, area: getComputedStyle(e).gridArea, inGrid: e.parentElement?.classList.contains('terminal') }));
    assert.deepEqual(placement, { position: 'static', area: 'banner', inGrid: true });
    const top = (await page.locator('.topbar').boundingBox())!;
    assert.ok(banner.y >= top.y + top.height - 0.5, 'the banner sits under the top bar');
    for (const r of boxes) {
      const overlap = Math.min(banner.x + banner.width, r.x + r.w) - Math.max(banner.x, r.x) > 0 && Math.min(banner.y + banner.height, r.y + r.h) - Math.max(banner.y, r.y) > 0;
      assert.ok(!overlap, `the banner (${JSON.stringify(banner)}) overlaps ${r.name} (${JSON.stringify(r)}) at ${width}×${height}`);
    }
    const status = (await page.getByTestId('status-bar').boundingBox())!;
    assert.ok(status.y + status.height <= height + 0.5, `the status bar is on screen at ${width}×${height}`);
    await j.screenshot(page, `issue14-paper-banner-${width}x${height}`);
  }
});
