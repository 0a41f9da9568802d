// Issue 14, ticket: the form's rules come from the market (a zod schema on react-hook-form). On a
// tick-0.1, minimum-5 market a price off the tick and a size under the minimum are explained under the
// fields and beside the disabled button, Enter does not open the confirmation, a GTD lifetime under a
// minute is refused, a market buy on an empty book says there is nothing to take, and a valid ticket
// reaches the confirmation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onboardTrader, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('the ticket checks the market’s tick, minimum size, GTD lifetime and the book before it lets an order go', async () => {
  const question = `E2E ticket rules ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.1', minOrderSize: '5' });
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  const submit = page.getByTestId('ticket-submit');
  const blocker = page.getByTestId('ticket-blocker');

  await page.getByTestId('ticket-price').fill('0.55');
  await page.getByTestId('ticket-size').fill('3');
  await page.getByTestId('ticket-price-error').getByText('The price must be a multiple of the tick 0.1.').waitFor();
  assert.equal(await page.getByTestId('ticket-size-error').innerText(), 'The minimum size of this market is 5 shares.');
  assert.equal(await blocker.innerText(), 'The price must be a multiple of the tick 0.1.');
  assert.equal(await submit.isDisabled(), true);
  await page.getByTestId('ticket-size').press('Enter');
  assert.equal(await page.getByTestId('order-confirm-dialog').count(), 0, 'Enter on an invalid ticket opens nothing');
  await j.screenshot(page, 'issue14-ticket-rules');

  await page.getByTestId('ticket-price').fill('0.5');
  await page.getByTestId('ticket-size').fill('5');
  await page.getByTestId('ticket-price-error').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('ticket-size-error').count(), 0);
  assert.equal(await submit.isDisabled(), false);

  // GTD: the lifetime must be at least a minute (the order is signed with 60 s on top).
  await page.getByTestId('ticket-type').selectOption('GTD');
  await page.getByTestId('ticket-expiry').fill('0');
  await page.getByTestId('ticket-expiry-error').getByText('Set a GTD lifetime of at least a minute.').waitFor();
  assert.equal(await submit.isDisabled(), true);
  await page.getByTestId('ticket-expiry').fill('2');
  await page.getByTestId('ticket-expiry-at').waitFor();
  assert.equal(await submit.isDisabled(), false);

  // Market mode on an empty book: the amount buys nothing.
  await page.getByTestId('ticket-mode-market').click();
  await page.getByTestId('ticket-amount').fill('3');
  await page.getByTestId('ticket-amount-error').getByText('Nothing on the book to take.').waitFor();
  assert.equal(await submit.isDisabled(), true);

  // Back to a valid limit order: Enter reaches the confirmation.
  await page.getByTestId('ticket-mode-limit').click();
  assert.equal(await page.getByTestId('ticket-type').inputValue(), 'GTC');
  await page.getByTestId('ticket-size').press('Enter');
  await page.getByTestId('order-confirm-dialog').waitFor();
  assert.match(await page.getByTestId('order-confirm-dialog').innerText(), /Buy 5\.00 Yes @ 0\.5 \(GTC\)/);
});
