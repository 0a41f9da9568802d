// Issue 14 journeys on the ticket: confirmation and fat-finger warning (defect 3), translated rejection
// (4), no stale price (6), fill feedback and book preview (7), ↑ near the market, GTD expiry and
// tick-formatted prices in open orders, distinct trade ids (9), keyboard-only entry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';
import { twoTradersWithMirroredAsk } from './twoTraders.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

async function freshMarket(tag: string): Promise<string> {
  const question = `E2E ${tag} ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  return question;
}

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

test('Enter opens a confirmation instead of sending; a 50,000-share buy warns; a balance rejection is translated and fits the panel', async () => {
  const question = await freshMarket('confirm');
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);

  // Keyboard only: B focuses the price, Tab to the size, Enter submits.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('b');
  await page.keyboard.type('0.5');
  await page.keyboard.press('Tab');
  await page.keyboard.type('50000');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('order-confirm-dialog');
  await dialog.waitFor();
  assert.ok((await page.getByTestId('fat-finger-warning').count()) >= 1, 'a size large against the balance is flagged');
  assert.match(await dialog.innerText(), /of your balance/);
  await j.screenshot(page, 'issue14-confirm-fat-finger');

  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.getByTestId('tab-orders').click();
  await page.getByTestId('open-orders-empty').waitFor();

  // Sent anyway: the engine refuses it for balance; the toast and the ticket say what to do, ids shortened.
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  await toast(page, 'Not enough balance').waitFor();
  assert.match(await toast(page, 'Not enough balance').innerText(), /Lower the size/);
  const ticket = page.getByTestId('ticket-panel');
  await page.getByTestId('ticket-rejection').waitFor();
  const text = await ticket.innerText();
  assert.doesNotMatch(text, /\d{20,}/, 'no full token id in the ticket');
  assert.doesNotMatch(text, /0x[0-9a-fA-F]{40}/, 'no full address in the ticket');
  const overflow = await ticket.evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 0, `the ticket does not overflow sideways (${overflow}px)`);
  await j.screenshot(page, 'issue14-rejection-toast');
});

test('the ticket drops a price typed for another outcome or market', async () => {
  const q1 = await freshMarket('stale-a');
  const q2 = await freshMarket('stale-b');
  const { page } = await j.newTrader();
  await selectMarket(page, q1, 0);
  await page.getByTestId('ticket-price').fill('0.62');
  await page.getByTestId('ticket-size').fill('10');
  await page.getByTestId('outcome-tab-1').click();
  assert.equal(await page.getByTestId('ticket-price').inputValue(), '');
  assert.equal(await page.getByTestId('ticket-cost').innerText(), '—');
  await page.getByTestId('ticket-price').fill('0.62');
  await selectMarket(page, q2, 0);
  assert.equal(await page.getByTestId('ticket-price').inputValue(), '');
});

test('fills are followed: partial then full fill of a resting GTD, a FAK previews and reports what the book filled, ↑ starts at the best price', async () => {
  const question = await freshMarket('fills');
  const { a, b } = await twoTradersWithMirroredAsk(j, question, { type: 'GTD' });
  await a.page.getByTestId('tab-orders').click();
  const row = a.page.getByTestId('open-order-row');
  await row.first().waitFor();
  assert.match(await row.first().getByTestId('open-order-expiry').innerText(), /^\d\d:\d\d:\d\d$/, 'GTD expiry shown');
  assert.match(await row.first().innerText(), /\b0\.40\b/, 'price formatted to the tick');

  // B sees the bid mirrored as a No ask at 0.60; ↑ in B's empty price starts there.
  await b.page.getByTestId('ticket-side-buy').click();
  await b.page.getByTestId('ticket-price').focus();
  await b.page.keyboard.press('ArrowUp');
  assert.equal(await b.page.getByTestId('ticket-price').inputValue(), '0.6');

  assert.deepEqual(await placeLimit(b.page, { side: 'BUY', price: '0.6', size: '5' }), { success: 'true', status: 'matched' });
  await toast(a.page, 'partially filled').waitFor();
  await eventually('A’s ticket shows the partial fill', async () => /filled 5\.00 of 10\.00/.test(await a.page.getByTestId('ticket-result').innerText()));

  assert.deepEqual(await placeLimit(b.page, { side: 'BUY', price: '0.6', size: '5' }), { success: 'true', status: 'matched' });
  await toast(a.page, 'Order filled').waitFor();
  await eventually('A’s ticket says FILLED', async () => /FILLED/.test(await a.page.getByTestId('ticket-result-status').innerText()));
  await j.screenshot(a.page, 'issue14-filled-by-someone-else');

  // A rests again; B's FAK for 25 previews 10 filling now and 15 killed, and reports 10 of 25.
  await a.page.getByTestId('ticket-type').selectOption('GTC');
  await placeLimit(a.page, { side: 'BUY', price: '0.4', size: '10' });
  await eventually('mirrored ask again', async () => (await b.page.locator('[data-testid="book-ask-row"][data-price="0.6"]').count()) === 1);
  await b.page.getByTestId('ticket-price').fill('0.6');
  await b.page.getByTestId('ticket-size').fill('25');
  await b.page.getByTestId('ticket-type').selectOption('FAK');
  await eventually('book preview', async () => /^10\.00 sh/.test(await b.page.getByTestId('ticket-fills-now').innerText()));
  assert.match(await b.page.getByTestId('ticket-rest').innerText(), /15\.00/);
  assert.match(await b.page.getByTestId('ticket-cost').innerText(), /^6\.0000$/);
  const fak = await placeLimit(b.page, { side: 'BUY', price: '0.6', size: '25', type: 'FAK' });
  assert.equal(fak.success, 'true');
  await eventually('B’s ticket shows the FAK quantity', async () => /filled 10\.00 of 25\.00/.test(await b.page.getByTestId('ticket-result').innerText()));
  await j.screenshot(b.page, 'issue14-fak-partial');

  // Three fills for A: three distinct ids in the trades table.
  await a.page.getByTestId('tab-trades').click();
  await eventually('three trades', async () => (await a.page.getByTestId('my-trade-row').count()) >= 3);
  const ids = await a.page.getByTestId('my-trade-row').evaluateAll((rows) => rows.map((r) => r.querySelector('td.mono')?.textContent ?? ''));
  assert.equal(new Set(ids).size, ids.length, `distinct shown trade ids: ${ids.join(', ')}`);
});

test('own orders are marked in the book; a click takes the price, a shift-click the price and size', async () => {
  const question = await freshMarket('own');
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await placeLimit(page, { side: 'BUY', price: '0.35', size: '12' });
  const level = page.locator('[data-testid="book-bid-row"][data-price="0.35"]');
  await eventually('own marker', async () => (await level.getAttribute('data-own')) === '12');
  assert.match(await level.getByTestId('book-own-marker').innerText(), /12\.00/);

  await page.getByTestId('ticket-size').fill('');
  await level.click();
  await eventually('price from the click', async () => (await page.getByTestId('ticket-price').inputValue()) === '0.35');
  assert.equal(await page.getByTestId('ticket-size').inputValue(), '');
  await level.click({ modifiers: ['Shift'] });
  await eventually('size from the shift-click', async () => (await page.getByTestId('ticket-size').inputValue()) === '12');
  await j.screenshot(page, 'issue14-own-orders-in-book');
});

test('a market buy is sized in dollars and sent as FAK at the worst price the amount reaches', async () => {
  const question = await freshMarket('market');
  const { b } = await twoTradersWithMirroredAsk(j, question);
  await b.page.getByTestId('ticket-mode-market').click();
  await b.page.getByTestId('ticket-side-buy').click();
  await b.page.getByTestId('ticket-amount').fill('3');
  await eventually('market preview', async () => /Up to 0\.60 · 5\.00 shares/.test(await b.page.getByTestId('ticket-market-price').innerText()));
  assert.equal(await b.page.getByTestId('ticket-type').inputValue(), 'FAK');
  await b.page.getByTestId('ticket-submit').click();
  await b.page.getByTestId('order-confirm').click();
  await eventually('filled', async () => /filled 5\.00 of 5\.00/.test((await b.page.getByTestId('ticket-result').innerText().catch(() => '')) ?? ''));
  await j.screenshot(b.page, 'issue14-market-buy-dollars');
});
