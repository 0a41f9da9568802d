// Issue 23, item 13: the book ladder works from the keyboard (↑/↓ pick a level, Enter prices the
// ticket), the Buy button comes early in the tab order, checkboxes show their focus, focus comes back to
// the ticket after sending, and axe finds no serious or critical violation on the main screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { eventually, onboardTrader, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

const active = (page: import('playwright-core').Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');

test('ladder by keys, Buy early in the tab order, visible checkbox focus, focus back after sending, axe clean', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await page.getByTestId('onboarding-skip').click().catch(() => undefined);
  await selectMarket(page, 'Bitcoin', 0);
  await page.getByTestId('book-bid-row').first().waitFor();
  const bestAsk = await page.locator('[data-testid="book-ask-row"]:last-of-type').getAttribute('data-price');
  const bestBid = await page.getByTestId('book-bid-row').first().getAttribute('data-price');

  // The ladder: one tab stop; ↑ lands on the best ask, Enter buys at it; ↓ steps over the spread to the best bid, Enter sells at it.
  await page.getByTestId('book-scroll').focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  // The price and the side land in the ticket from one key press; the side's class may follow a render later.
  await eventually('the ticket takes the best ask on the BUY side', async () => (await page.getByTestId('ticket-price').inputValue()) === bestAsk && (await page.getByTestId('ticket-side-buy').getAttribute('class'))?.includes('on'));
  await page.getByTestId('book-scroll').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await eventually('the ticket takes the best bid on the SELL side', async () => (await page.getByTestId('ticket-price').inputValue()) === bestBid && (await page.getByTestId('ticket-side-sell').getAttribute('class'))?.includes('on'));

  // A resting bid well below the book, typed; then from the top of the page, the Buy button within 25 Tabs.
  await page.getByTestId('ticket-side-buy').click();
  await page.getByTestId('ticket-price').fill('0.05');
  await page.getByTestId('ticket-size').fill('10');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  let presses = 0;
  while (presses < 60 && (await active(page)) !== 'ticket-submit') {
    await page.keyboard.press('Tab');
    presses++;
  }
  assert.ok(presses <= 25, `the Buy button is reached within 25 Tabs (took ${presses})`);

  // Checkboxes show where the focus is.
  await page.getByTestId('ticket-submit').focus();
  await page.keyboard.press('Tab');
  while ((await active(page)) !== 'ticket-confirm-toggle') await page.keyboard.press('Tab');
  const outline = await page.getByTestId('ticket-confirm-toggle').evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  assert.ok(outline.style !== 'none' && outline.width >= 1, `a visible focus ring on the checkbox (${JSON.stringify(outline)})`);
  await j.screenshot(page, 'issue23-checkbox-focus-1440x900');

  // Send from the keyboard through the confirmation: focus comes back to the ticket's button.
  await page.getByTestId('ticket-submit').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('order-confirm').waitFor();
  await page.getByTestId('order-confirm').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('ticket-result').waitFor();
  await eventually('focus back on the Buy button', async () => (await active(page)) === 'ticket-submit', 5000);

  // axe, every rule (not only WCAG A/AA): nothing serious or critical.
  for (const [w, h] of [
    [1024, 700],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(300);
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')}`), [], `no serious/critical axe violations at ${w}×${h}`);
  }
});
