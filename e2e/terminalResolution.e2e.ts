// Issue 14, defect 5 and 9: resolution is announced (a resting GTD vanished silently), a REDEEMABLE
// position has a Redeem action that pays out, and a fresh profile opens on a market that takes orders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { placeLimit, startJourney, type Journey } from './journeyHarness.js';
import { twoTradersWithMirroredAsk } from './twoTraders.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('resolution cancels a resting order with a notice, and the winning position redeems', async () => {
  const question = `E2E resolve ${Date.now()}`;
  const market = await j.admin<{ condition_id: string }>('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  const { a, b } = await twoTradersWithMirroredAsk(j, question);
  await placeLimit(b.page, { side: 'BUY', price: '0.6', size: '10' });
  // A holds 10 Yes and rests another bid that the resolution will cancel.
  await a.page.getByTestId('ticket-type').selectOption('GTD');
  await placeLimit(a.page, { side: 'BUY', price: '0.3', size: '5', type: 'GTD' });
  await a.page.getByTestId('tab-orders').click();
  await a.page.getByTestId('open-order-row').first().waitFor();

  await j.admin(`/markets/${market.condition_id}/resolve`, { winningOutcomeIndex: 0 });
  await a.page.locator('[data-sonner-toast]').filter({ hasText: 'Market resolved' }).waitFor();

  await a.page.getByTestId('tab-positions').click();
  const redeem = a.page.getByTestId('redeem');
  await redeem.waitFor();
  await j.screenshot(a.page, 'issue14-redeemable');
  await redeem.click();
  await a.page.locator('[data-sonner-toast]').filter({ hasText: 'Redeemed' }).waitFor();
});

test('a fresh profile opens on a market that accepts orders, not a closed one', async () => {
  const first = (await (await fetch(`${j.ready.trading}/markets`, { headers: { connection: 'close' } })).json()) as { data: { condition_id: string; question: string }[] };
  const closed = first.data[0]!;
  await j.admin(`/markets/${closed.condition_id}/resolve`, { winningOutcomeIndex: 0 });
  const { page } = await j.newTrader();
  const q = page.getByTestId('market-question');
  await q.waitFor();
  assert.notEqual(await q.innerText(), closed.question);
});
