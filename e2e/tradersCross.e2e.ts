// Journey (b): two traders (two browser contexts, each with its own burner wallet) cross on a fresh
// market: A rests BUY Yes, B buys No at the complementary price (a mint). The fill shows in both
// traders' trades and positions, and in the market's holders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, onboardTrader, placeLimit, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
before(async () => {
  j = await startJourney();
});
after(async () => {
  await j?.close();
});

test('two traders cross and the fill shows in trades, positions and holders', async () => {
  const question = `E2E cross ${Date.now()}`;
  const market = await j.admin<{ condition_id: string }>('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
  assert.match(market.condition_id, /^0x[0-9a-f]{64}$/);

  const a = await j.newTrader();
  const b = await j.newTrader();
  const addrA = await onboardTrader(a.page);
  const addrB = await onboardTrader(b.page);
  assert.notEqual(addrA.toLowerCase(), addrB.toLowerCase());

  await selectMarket(a.page, question, 0);
  const restA = await placeLimit(a.page, { side: 'BUY', price: '0.4', size: '10' });
  assert.deepEqual(restA, { success: 'true', status: 'live' });

  // B sees A's bid mirrored as the best No ask at 0.60 and lifts it.
  await selectMarket(b.page, question, 1);
  await eventually('A’s bid mirrored as a No ask', async () => (await b.page.locator('[data-testid="book-ask-row"][data-price="0.6"]').count()) === 1);
  const crossB = await placeLimit(b.page, { side: 'BUY', price: '0.6', size: '10' });
  assert.deepEqual(crossB, { success: 'true', status: 'matched' });

  for (const [who, page] of [
    ['A', a.page],
    ['B', b.page],
  ] as const) {
    await page.getByTestId('tab-trades').click();
    await eventually(`${who}'s trade row`, async () => (await page.getByTestId('my-trade-row').count()) >= 1);
    await page.getByTestId('tab-positions').click();
    const row = page.getByTestId('position-row');
    await eventually(`${who}'s position`, async () => (await row.count()) >= 1);
    assert.equal(await row.first().getAttribute('data-size'), '10', `${who} holds 10 shares`);
    assert.match(await row.first().innerText(), who === 'A' ? /Yes/ : /No/);
  }

  // The tape shows the fill at A's (maker) price from the Yes side.
  await a.page.getByTestId('outcome-tab-0').click();
  await eventually('the tape row', async () => (await a.page.locator('[data-testid="tape-row"][data-price="0.4"]').count()) >= 1);

  await a.page.getByTestId('tab-holders').click();
  await eventually('both holders listed', async () => (await a.page.getByTestId('holder-row').count()) >= 2);
  await j.screenshot(a.page, 'journey-b-trader-a');
  await b.page.getByTestId('tab-trades').click();
  await j.screenshot(b.page, 'journey-b-trader-b');
});
