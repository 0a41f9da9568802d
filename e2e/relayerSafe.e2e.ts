// Journey (c), on a real local chain: the relayer panel deploys the wallet's Safe, then the Safe
// approves the exchange through a relayed SAFE transaction, which reaches a final state in the list.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney({ chain: 'anvil' });
});
after(async () => {
  await j?.close();
});

test('the relayer panel deploys the Safe and shows its transaction reaching a final state', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await page.getByTestId('tab-relayer').click();

  const status = page.getByTestId('relayer-deployed');
  await eventually('the Safe status', async () => (await status.getAttribute('data-deployed')) === 'false');
  const safeAddress = await page.getByTestId('relayer-safe-address').innerText();
  assert.match(safeAddress, /^0x[0-9a-fA-F]{40}$/);

  await page.getByTestId('relayer-deploy').click();
  await page.getByTestId('relayer-deploy-result').waitFor({ timeout: 60_000 });
  await eventually('the Safe deployed', async () => (await status.getAttribute('data-deployed')) === 'true', 60_000);
  assert.equal(await page.getByTestId('relayer-safe-address').innerText(), safeAddress, 'the Safe lands at its predicted address');

  // The Safe approves collateral and outcome tokens to the exchanges through POST /submit.
  await page.getByTestId('relayer-approve').click();
  await page.getByTestId('relayer-approve-result').waitFor({ timeout: 60_000 });
  const rows = page.getByTestId('relayer-tx-row');
  const finalRows = page.locator('[data-testid="relayer-tx-row"][data-final="true"]');
  // Both the deployment and the approval transaction reach a final state.
  await eventually('every relayer transaction in a final state', async () => (await rows.count()) >= 2 && (await finalRows.count()) === (await rows.count()), 60_000);
  const states = await page.getByTestId('relayer-tx-state').allInnerTexts();
  assert.ok(states.some((s) => s === 'MINED' || s === 'CONFIRMED'), `a transaction was mined or confirmed (states: ${states.join(', ')})`);
  assert.ok(!states.includes('FAILED'), `no relayer transaction failed (states: ${states.join(', ')})`);
  // Issue 14, defect 8: the approval's badge follows the list (no NEW after CONFIRMED) and the button locks.
  await eventually('the approval badge follows the list', async () => /MINED|CONFIRMED/.test(await page.getByTestId('relayer-approve-state').innerText()));
  assert.equal(await page.getByTestId('relayer-approve').isDisabled(), true, 'Approve for trading is disabled once approved');
  await j.screenshot(page, 'journey-c-relayer');
});
