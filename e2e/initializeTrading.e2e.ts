// Journey, on a real local chain: the "Initialize trading" wizard deploys the wallet's Safe, then
// approves the exchanges from it; each step shows its relayer transaction's states as a timeline.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, showSideTab, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney({ chain: 'anvil' });
});
after(async () => {
  await j?.close();
});

test('the wizard deploys the Safe and approves trading, with a per-step timeline of transaction states', async () => {
  const { page } = await j.newTrader();
  await page.getByTestId('onboarding-skip').click();
  await onboardTrader(page);
  await showSideTab(page, 'safe');
  await page.getByTestId('init-trading-open').click();
  const wizard = page.getByTestId('init-trading');
  const deploy = page.getByTestId('init-step-deploy');
  const approve = page.getByTestId('init-step-approve');
  await eventually('deploy ready', async () => (await deploy.getAttribute('data-status')) === 'ready');
  assert.equal(await approve.getAttribute('data-status'), 'waiting');
  assert.equal(await approve.getByTestId('init-run-approve').count(), 0, 'approval cannot start before the Safe exists');

  await deploy.getByTestId('init-run-deploy').click();
  await eventually('the Safe deployed', async () => (await deploy.getAttribute('data-status')) === 'done', 60_000);
  const reached = (step: typeof deploy) => step.locator('[data-testid="init-timeline-state"][data-reached="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
  assert.deepEqual((await reached(deploy)).slice(0, 3), ['STATE_NEW', 'STATE_EXECUTED', 'STATE_MINED']);

  await eventually('approve ready', async () => (await approve.getAttribute('data-status')) === 'ready');
  await approve.getByTestId('init-run-approve').click();
  await eventually('approved', async () => (await approve.getAttribute('data-status')) === 'done', 60_000);
  assert.ok((await reached(approve)).includes('STATE_MINED'));
  await page.getByTestId('init-trading-done').waitFor();
  assert.equal(await wizard.getAttribute('data-done'), 'true');
  await j.screenshot(page, 'initialize-trading-wizard');
});
