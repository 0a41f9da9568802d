// `npm run screenshot`: refreshes the README's docs/screenshot-main.png from a real engine and the built
// renderer. An explicit command, not a test: tests leave the working tree clean (issue 23).
import { fileURLToPath } from 'node:url';
import { onboardTrader, placeLimit, startJourney } from './journeyHarness.js';

const out = fileURLToPath(new URL('../docs/screenshot-main.png', import.meta.url));
const j = await startJourney();
try {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await page.getByTestId('onboarding-skip').click().catch(() => undefined);
  // A resting bid of one's own, so the ladder shows its marker and Open orders a row.
  const bestBid = await page.getByTestId('book-bid-row').first().getAttribute('data-price');
  if (bestBid) await placeLimit(page, { side: 'BUY', price: bestBid, size: '10' });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await j.close();
}
