// Two onboarded traders on one fresh market: A rests a Yes bid at 0.40 and B sees it mirrored as a No ask
// at 0.60, ready to trade against it. Several issue-14 journeys start here.
import { eventually, placeLimit, selectMarket, twoOnboardedTraders, type Journey, type Trader } from './journeyHarness.js';

export async function twoTradersWithMirroredAsk(j: Journey, question: string, a: { size?: string; type?: 'GTC' | 'GTD' } = {}): Promise<{ a: Trader; b: Trader }> {
  const { a: ta, b: tb } = await twoOnboardedTraders(j);
  await selectMarket(ta.page, question, 0);
  if (a.type === 'GTD') {
    await ta.page.getByTestId('ticket-type').selectOption('GTD');
    await ta.page.getByTestId('ticket-expiry').fill('5');
  }
  const rest = await placeLimit(ta.page, { side: 'BUY', price: '0.4', size: a.size ?? '10', type: a.type ?? 'GTC' });
  if (rest.status !== 'live') throw new Error(`A's bid did not rest: ${JSON.stringify(rest)}`);
  await selectMarket(tb.page, question, 1);
  await eventually('A’s bid mirrored as a No ask', async () => (await tb.page.locator('[data-testid="book-ask-row"][data-price="0.6"]').count()) === 1);
  return { a: ta, b: tb };
}
