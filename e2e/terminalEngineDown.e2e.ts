// Issue 14, defect 1: the status shows the engine down once it stops answering (it stayed green).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('the connection dot turns red and says "engine down" when the engine stops', async () => {
  const { page } = await j.newTrader();
  await page.locator('[data-testid="status-engine"][data-state="up"]').waitFor();
  await j.engine.close();
  await page.locator('[data-testid="status-engine"][data-state="down"]').waitFor({ timeout: 10_000 });
  await page.getByTestId('engine-down').waitFor();
  assert.match(await page.getByTestId('engine-status').innerText(), /engine down/);
  assert.equal(await page.locator('[data-testid="engine-status"] .dot.ok').count(), 0, 'no green dot while down');
  await j.screenshot(page, 'issue14-engine-down');
});
