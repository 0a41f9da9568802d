// Journey: first run. A newcomer goes from nothing to a filled order through the getting-started card
// (wallet → API key → funded → first order) in well under a minute; once done, a reload never shows
// it again. A second newcomer skips it, and it stays skipped after a reload.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { crossAtPrice } from './crossAtPrice.js';
import { eventually, onboardTrader, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('first-run onboarding takes a newcomer to a filled order in under a minute, and never shows again', async () => {
  const { page } = await j.newTrader();
  const t0 = Date.now();
  const card = page.getByTestId('onboarding');
  assert.equal(await card.getAttribute('data-step'), 'wallet');
  await page.getByTestId('onboarding-wallet').click();
  await page.getByTestId('onboarding-key').click();
  await eventually('funded', async () => (await card.getAttribute('data-step')) === 'order');
  await page.getByTestId('onboarding-order').click();
  await page.getByTestId('onboarding-filled').waitFor();
  const seconds = (Date.now() - t0) / 1000;
  assert.ok(seconds < 60, `took ${seconds} s`);
  await j.screenshot(page, 'onboarding-first-fill');

  // The fill is a real position.
  await page.getByTestId('tab-positions').click();
  await eventually('the first position', async () => (await page.getByTestId('position-row').count()) >= 1);

  await page.getByTestId('onboarding-done').click();
  assert.equal(await card.count(), 0);
  await page.reload();
  await page.getByTestId('engine-status').getByText('engine').waitFor();
  await page.getByTestId('wallet-panel').waitFor();
  assert.equal(await page.getByTestId('onboarding').count(), 0);
});

test('onboarding can be skipped, and stays skipped', async () => {
  const { page } = await j.newTrader();
  await page.getByTestId('onboarding-skip').click();
  assert.equal(await page.getByTestId('onboarding').count(), 0);
  await page.reload();
  await page.getByTestId('wallet-panel').waitFor();
  assert.equal(await page.getByTestId('onboarding').count(), 0);
});

test('a newcomer whose first trade comes from the ticket sees the card go away for good', async () => {
  const question = 'Will the card notice a ticket trade?';
  await j.admin('/markets', { question, tickSize: '0.01', minOrderSize: '1' });
  const a = await j.newTrader();
  const b = await j.newTrader();
  for (const t of [a, b]) await onboardTrader(t.page);
  for (const t of [a, b]) await eventually('the card at its order step', async () => (await t.page.getByTestId('onboarding').getAttribute('data-step')) === 'order');
  await crossAtPrice(a.page, b.page, question, '0.45', '5');
  for (const t of [a, b]) {
    await eventually('the card gone after the first fill', async () => (await t.page.getByTestId('onboarding').count()) === 0);
    await t.page.reload();
    await t.page.getByTestId('wallet-panel').waitFor();
    assert.equal(await t.page.getByTestId('onboarding').count(), 0);
  }
});
