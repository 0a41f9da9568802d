// Journey: the paper banner is always on screen; a trader with a position and a resting order resets
// the paper account through the confirmation dialog, gets the starting balance back with no orders or
// positions, and finds the previous session archived with its trade and position.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, placeLimit, startJourney, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('reset of the paper account: confirmation, starting balance restored, previous session archived', async () => {
  const question = `E2E paper ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  const a = await j.newTrader();
  const b = await j.newTrader();
  await a.page.getByTestId('paper-banner').getByText('PAPER', { exact: true }).waitFor();
  await onboardTrader(a.page);
  await onboardTrader(b.page);

  await crossAtPrice(a.page, b.page, question, '0.4');
  assert.equal((await placeLimit(a.page, { side: 'BUY', price: '0.1', size: '20' })).status, 'live');
  await eventually('A’s reduced balance', async () => /9,996/.test(await a.page.getByTestId('wallet-balance').innerText()));

  // Cancelling the dialog changes nothing.
  await a.page.getByTestId('paper-reset-open').click();
  await a.page.getByTestId('paper-reset-dialog').waitFor();
  await a.page.getByTestId('paper-reset-cancel').click();
  assert.equal(await a.page.getByTestId('paper-reset-dialog').count(), 0);

  await a.page.getByTestId('paper-reset-open').click();
  await j.screenshot(a.page, 'paper-reset-confirmation');
  await a.page.getByTestId('paper-reset-confirm').click();
  await a.page.getByTestId('paper-reset-done').waitFor();
  await eventually('the starting balance back', async () => /10,000\.00/.test(await a.page.getByTestId('wallet-balance').innerText()));
  await a.page.getByTestId('tab-orders').click();
  await eventually('no open orders', async () => (await a.page.getByTestId('open-order-row').count()) === 0);
  await a.page.getByTestId('tab-positions').click();
  await eventually('no positions', async () => (await a.page.getByTestId('position-row').count()) === 0);

  await a.page.getByTestId('paper-sessions-open').click();
  const session = a.page.getByTestId('paper-session');
  await eventually('the archived session', async () => (await session.count()) === 1);
  assert.equal(await session.getAttribute('data-trades'), '1');
  assert.equal(await session.getAttribute('data-collateral'), '9996');
  assert.match(await session.innerText(), /Yes: 10 @ 0\.4/);
  await j.screenshot(a.page, 'paper-archived-session');
});
