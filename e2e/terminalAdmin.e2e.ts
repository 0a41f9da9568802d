// Issue 14, defect 8: a wrong operator token is forgotten on its first 401 (the paste field comes back,
// also after reload), and a later success clears an earlier error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onboardTrader, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('a wrong operator token is refused and forgotten; a success clears the previous error', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await page.getByTestId('tab-admin').click();
  await page.getByTestId('admin-token').fill('not-the-token');
  await page.getByTestId('admin-token-use').click();
  await page.getByTestId('admin-faucet').click();
  await page.getByTestId('admin-token-refused').waitFor();
  await page.getByTestId('admin-token').waitFor();
  await page.reload();
  await page.getByTestId('tab-admin').click();
  await page.getByTestId('admin-token').waitFor();
  assert.equal(await page.getByTestId('admin-faucet').count(), 0, 'the tools stay locked after reload');

  await page.getByTestId('admin-token').fill(j.ready.operatorToken);
  await page.getByTestId('admin-token-use').click();
  await page.getByTestId('admin-faucet-amount').fill('-5');
  await page.getByTestId('admin-faucet').click();
  await page.getByTestId('admin').getByTestId('error').waitFor();
  await page.getByTestId('admin-faucet-amount').fill('100');
  await page.getByTestId('admin-faucet').click();
  await page.getByTestId('admin-last').waitFor();
  assert.equal(await page.getByTestId('admin').getByTestId('error').count(), 0, 'the old error is gone after a success');
  await j.screenshot(page, 'issue14-admin-states');
});
