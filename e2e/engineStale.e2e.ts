// Issue 23, item 8: stale states. While the engine is down the book says its levels are stale and the
// terminal polls gently (not 150 console errors in 15 s); once it is back, "Engine unreachable" leaves
// the ticket and "network_error" the API keys; a global pause by the operator is announced.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryMarket, eventually, onboardTrader, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
let question: string;
before(async () => {
  j = await startJourney();
  question = `E2E stale ${Date.now()}`;
  await binaryMarket(j, question);
});
after(async () => {
  await j?.close();
});

test('engine down: stale book, few errors, and every "unreachable" clears once it is back; a global pause is announced', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await page.getByTestId('onboarding-skip').click().catch(() => undefined);
  await page.getByTestId('ticket-price').fill('0.3');
  await page.getByTestId('ticket-size').fill('10');
  // Something on the book, so there are levels to go stale.
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  await page.locator('[data-testid="book-bid-row"][data-price="0.3"]').waitFor();

  await j.stopEngine();
  let errors = 0;
  page.on('console', (m) => {
    if (m.type() === 'error') errors++;
  });
  await page.locator('[data-testid="status-engine"][data-state="down"]').waitFor({ timeout: 10_000 });
  // An order sent while the engine is down fails at once, in the ticket's words.
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  await page.getByTestId('ticket-error').getByText('Engine unreachable').waitFor();
  // So does a new API key (the key list itself waits, paused, instead of failing every second).
  await page.getByTestId('apikey-create').click();
  await page.getByTestId('apikeys-panel').getByText('network_error').waitFor();
  await page.getByTestId('book-stale').waitFor();
  await j.screenshot(page, 'issue23-engine-down-1440x900');
  errors = 0;
  await page.waitForTimeout(15_000);
  const quiet = errors;
  assert.ok(quiet <= 20, `at most 20 console errors in 15 s while down (got ${quiet})`);

  await j.restartEngine();
  await page.locator('[data-testid="status-engine"][data-state="up"]').waitFor({ timeout: 15_000 });
  await eventually('the ticket forgets "Engine unreachable"', async () => (await page.getByTestId('ticket-error').count()) === 0, 10_000);
  await eventually('API keys forget network_error', async () => !(await page.getByTestId('apikeys-panel').innerText()).includes('network_error'), 10_000);
  await eventually('the book is live again', async () => (await page.getByTestId('book-stale').count()) === 0, 10_000);

  // The operator's global breaker: every page says so until it is released.
  await j.admin('/pause', {});
  await page.getByTestId('system-paused').waitFor({ timeout: 10_000 });
  assert.match(await page.getByTestId('system-paused').innerText(), /paused/i);
  await j.screenshot(page, 'issue23-system-paused-1440x900');
  await j.admin('/resume', {});
  await page.getByTestId('system-paused').waitFor({ state: 'detached', timeout: 10_000 });
});
