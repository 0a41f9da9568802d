// Issue 23, items 5 and 6: toasts covered the Buy/Sell button for 4 s after every order; immediate fills
// (market orders, marketable limits) raised no toast; cancels named an id. Every fill is announced with
// side, size, average price and market; cancels name the order; toasts cover no control; errors stay.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { atEachSize, binaryMarket, eventually, onboardTrader, placeLimit, selectMarket, startJourney, toast, type Journey } from './journeyHarness.js';
import { twoTradersWithMirroredAsk } from './twoTraders.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

/** Visible controls whose box the toast overlaps (buttons, fields, links, tabs). */
async function controlsUnder(page: Page, text: string): Promise<string[]> {
  return toast(page, text)
    .first()
    .evaluate((t) => {
      const r = t.getBoundingClientRect();
      const hits: string[] = [];
      for (const el of document.querySelectorAll('button, input, select, textarea, a[href], [role="tab"], [role="button"]')) {
        if (t.contains(el) || el.closest('[data-sonner-toaster]')) continue;
        const b = el.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden') continue;
        if (b.right > r.left && b.left < r.right && b.bottom > r.top && b.top < r.bottom) {
          // Covered only if the toast is what the point shows (not a control in a scrolled-away pane).
          const x = Math.min(Math.max(b.left + b.width / 2, r.left + 1), r.right - 1);
          const y = Math.min(Math.max(b.top + b.height / 2, r.top + 1), r.bottom - 1);
          const under = document.elementsFromPoint(x, y);
          if (under.includes(el)) hits.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? (el as HTMLInputElement).placeholder ?? '').trim().slice(0, 30)}" ${el.getAttribute('data-testid') ?? ''}`);
        }
      }
      if (hits.length) hits.push(`toast at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}; chart slot at ${JSON.stringify(document.querySelector('[data-slot="chart"]')?.getBoundingClientRect())}`);
      return hits;
    });
}

test('an immediate fill is toasted with side, size, average price and market; the maker’s later fill too; a cancel names the order', async () => {
  const question = `E2E toasts ${Date.now()}`;
  await binaryMarket(j, question);
  const { a, b } = await twoTradersWithMirroredAsk(j, question);

  // B lifts A's mirrored ask with a market buy: the fill is immediate (status matched).
  await b.page.getByTestId('ticket-mode-market').click();
  await b.page.getByTestId('ticket-side-buy').click();
  await b.page.getByTestId('ticket-amount').fill('6');
  await eventually('market preview', async () => /Up to 0\.60 · 10\.00 shares/.test(await b.page.getByTestId('ticket-market-price').innerText()));
  await b.page.getByTestId('ticket-submit').click();
  await b.page.getByTestId('order-confirm').click();
  const filled = toast(b.page, 'Order filled');
  await filled.waitFor();
  const text = await filled.innerText();
  assert.match(text, /BUY 10\.00 No/, text);
  assert.match(text, /avg 0\.60/, text);
  assert.ok(text.includes(question), text);

  // A's resting bid was filled by B: A hears it with size, price and market.
  const makerToast = toast(a.page, 'Order filled');
  await makerToast.waitFor();
  assert.match(await makerToast.innerText(), /BUY 10\.00 Yes[\s\S]*0\.40/);
  assert.ok((await makerToast.innerText()).includes(question));

  // A rests a bid and cancels it from Open orders: the toast names the order, not an id.
  await placeLimit(a.page, { side: 'BUY', price: '0.3', size: '5' });
  await a.page.getByTestId('tab-orders').click();
  await a.page.getByTestId('open-order-row').first().waitFor();
  await a.page.getByTestId('open-order-row').first().getByRole('button', { name: /cancel/i }).click();
  const cancelled = toast(a.page, 'Order cancelled');
  await cancelled.waitFor();
  assert.match(await cancelled.innerText(), /BUY 5\.00 Yes @ 0\.30/);
  assert.ok((await cancelled.innerText()).includes(question));
  assert.doesNotMatch(await cancelled.innerText(), /order [0-9A-Z]{6,}/);
});

test('toasts cover no control at 1024×700, 1440×900 and 1920×1080; an error stays until dismissed', async () => {
  const question = `E2E toast place ${Date.now()}`;
  await binaryMarket(j, question);
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await atEachSize(page, async (w, h) => {
    await placeLimit(page, { side: 'BUY', price: '0.2', size: '5' });
    await toast(page, 'Order placed').first().waitFor();
    // Measured where it rests, after sonner's slide-in.
    await page.waitForTimeout(800);
    const covered = await controlsUnder(page, 'Order placed');
    await j.screenshot(page, `issue23-toast-${w}x${h}`);
    assert.deepEqual(covered, [], `at ${w}×${h} the toast covers ${covered.join(', ')}`);
    for (const close of await page.locator('[data-sonner-toast] [data-close-button]').all()) await close.click().catch(() => undefined);
  });

  // A rejection (far too large for the balance) stays past the 4 s the others live, until dismissed.
  await placeLimit(page, { side: 'BUY', price: '0.5', size: '50000' });
  const error = toast(page, 'Not enough balance');
  await error.waitFor();
  await page.waitForTimeout(6000);
  assert.equal(await error.count(), 1, 'the error toast is still there after 6 s');
  await error.locator('[data-close-button]').click();
  await error.waitFor({ state: 'detached' });
});
