// Issue 14, defect 2 and the workspace: no sideways scroll at 1024×700 with the ticket reachable; the
// Open orders Cancel button inside its pane at 1440×900; `?` opens the shortcut help; axe-core finds no
// serious or critical violation on the main screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { eventually, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
let question: string;
before(async () => {
  j = await startJourney();
  question = `E2E layout ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
});
after(async () => {
  await j?.close();
});

test('at 1440×900 the Cancel button of an open order is inside its pane; at 1024×700 nothing scrolls sideways and the ticket is whole', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await page.getByTestId('ticket-type').selectOption('GTD');
  await placeLimit(page, { side: 'BUY', price: '0.3', size: '12', type: 'GTD' });
  await page.getByTestId('tab-orders').click();
  const cancel = page.getByTestId('open-order-row').first().getByTestId('cancel-order');
  await cancel.waitFor();
  const pane = (await page.getByTestId('bottom-tabs').boundingBox())!;
  const btn = (await cancel.boundingBox())!;
  assert.ok(btn.x + btn.width <= pane.x + pane.width, `Cancel (right ${btn.x + btn.width}) inside the pane (right ${pane.x + pane.width})`);

  await page.setViewportSize({ width: 1024, height: 700 });
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `no sideways scroll at 1024 px (${sideways}px)`);
  for (const id of ['ticket-side-sell', 'ticket-price', 'ticket-size', 'ticket-submit']) {
    const box = (await page.getByTestId(id).boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 1024, `${id} within the window (${box.x}+${box.width})`);
  }
  const btn1024 = (await cancel.boundingBox())!;
  assert.ok(btn1024.x + btn1024.width <= 1024, 'Cancel within the window at 1024 px');
  await j.screenshot(page, 'issue14-layout-1024');
});

test('? opens the shortcut help, and the main screen has no serious or critical axe violation', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await page.getByTestId('shortcut-help').waitFor();
  assert.match(await page.getByTestId('shortcut-help').innerText(), /Search markets/);
  await page.keyboard.press('Escape');
  await page.getByTestId('shortcut-help').waitFor({ state: 'detached' });

  await page.getByTestId('ticket-price').fill('0.25');
  await page.getByTestId('ticket-size').fill('20');
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')}`),
    [],
    'no serious/critical accessibility violations',
  );
  // The README's screenshot is refreshed by `npm run screenshot`, never by a test (the tree stays clean).
  await j.screenshot(page, 'main-screen-axe');
});

test('Ctrl+K picks a market by name; the market, the colour-vision-safe palette and the panel split survive a reload', async () => {
  const other = `E2E palette ${Date.now()}`;
  await j.admin('/markets', { question: other, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  const { page } = await j.newTrader();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(other);
  await page.keyboard.press('Enter');
  await page.getByTestId('market-question').getByText(other).waitFor();
  await page.getByTestId('cvd-toggle').check();
  // The bottom tabs made taller from the keyboard keep their height across the reload.
  const height = async () => Math.round((await page.getByTestId('bottom-tabs').boundingBox())!.height);
  const before = await height();
  await page.getByTestId('split-handle').focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowUp');
  const resized = await height();
  assert.ok(resized > before + 20, `the bottom tabs grew (${before} → ${resized})`);
  await page.waitForTimeout(300);
  await page.reload();
  await page.getByTestId('bottom-tabs').waitFor();
  await eventually('the split restored', async () => Math.abs((await height()) - resized) <= 3);
  await page.getByTestId('market-question').getByText(other).waitFor();
  assert.equal(await page.locator('.terminal.cvd-safe').count(), 1, 'the palette choice persisted');
  await j.screenshot(page, 'issue14-cvd-safe');
});
