// Issue 23, item 3: after resolution the losing side was labelled REDEEMABLE and its $0 redeem said
// "the winning shares were paid out", and only a trader with a cancelled order heard of it. The header
// says "Resolved: Yes", losing positions read "Lost" with nothing to redeem, and every holder is told.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryMarket, eventually, screenshotAtEachSize, startJourney, toast, twoOnboardedTraders, type Journey } from './journeyHarness.js';
import { crossAtPrice } from './crossAtPrice.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('every holder hears of the resolution; the winner redeems, the loser reads Lost with nothing to redeem', async () => {
  const question = `E2E resolved holders ${Date.now()}`;
  const market = await binaryMarket(j, question);
  const { a, b } = await twoOnboardedTraders(j);
  // A holds 10 Yes, B 10 No; neither has an open order left.
  await crossAtPrice(a.page, b.page, question, '0.4');
  await b.page.getByTestId('tab-positions').click();
  await b.page.getByTestId('position-row').first().waitFor();
  await a.page.getByTestId('tab-positions').click();
  await a.page.getByTestId('position-row').first().waitFor();

  await j.admin(`/markets/${market.condition_id}/resolve`, { winningOutcomeIndex: 0 });

  // The loser, who had no order to cancel, is told too.
  const lost = toast(b.page, 'Resolved: Yes won');
  await lost.waitFor();
  assert.match(await lost.innerText(), /10\.00 No shares lost/);
  const bRow = b.page.getByTestId('position-row').first();
  await eventually('Lost on the losing position', async () => /Lost/.test(await bRow.innerText()));
  assert.equal(await bRow.getByTestId('redeem').count(), 0, 'nothing to redeem on a losing position');
  assert.doesNotMatch(await bRow.innerText(), /REDEEMABLE/);
  await eventually('the header says who won', async () => /Resolved: Yes/.test(await b.page.getByTestId('market-header').innerText()));

  const won = toast(a.page, 'Resolved: Yes won');
  await won.waitFor();
  assert.match(await won.innerText(), /10\.00 Yes shares won/);
  const aRow = a.page.getByTestId('position-row').first();
  await aRow.getByTestId('redeem').waitFor();
  await screenshotAtEachSize(j, b.page, 'issue23-resolved-lost');
  await aRow.getByTestId('redeem').click();
  const paid = toast(a.page, 'Redeemed');
  await paid.waitFor();
  assert.match(await paid.innerText(), /Paid 10\.00 USDC/);
});
