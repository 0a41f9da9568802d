// A fill between two traders on a fresh binary market, through the terminal: A rests BUY Yes at
// `yesPrice`, B lifts it by buying No at the complementary price (a mint). Shared by the journeys that
// need a trade to look at (chart, paper reset, account views).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, placeLimit, selectMarket } from './journeyHarness.js';

export async function crossAtPrice(a: Page, b: Page, question: string, yesPrice: string, size = '10'): Promise<void> {
  const noPrice = String(Math.round((1 - Number(yesPrice)) * 100) / 100);
  await selectMarket(a, question, 0);
  assert.equal((await placeLimit(a, { side: 'BUY', price: yesPrice, size })).status, 'live');
  await selectMarket(b, question, 1);
  await eventually(`A’s ${yesPrice} bid as a No ask`, async () => (await b.locator(`[data-testid="book-ask-row"][data-price="${noPrice}"]`).count()) === 1);
  assert.equal((await placeLimit(b, { side: 'BUY', price: noPrice, size })).status, 'matched');
}
