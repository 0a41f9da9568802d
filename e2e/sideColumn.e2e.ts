// Issue 23, item 7: the side column was a 1,437 px stack (wallet, ticket, keys, account, keys at rest,
// relayer wizard) with the Buy button below the fold at 1024×700, 1280×720 and 1366×768. The ticket's
// action is in view at every supported size without scrolling; the rest sits behind tabs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { atEachSize, binaryMarket, onboardTrader, selectMarket, showSideTab, startJourney, SUPPORTED_SIZES, type Journey } from './journeyHarness.js';

let j: Journey;
let question: string;
before(async () => {
  j = await startJourney();
  question = `E2E side ${Date.now()}`;
  await binaryMarket(j, question);
});
after(async () => {
  await j?.close();
});

test('the Buy button is in view without scrolling at 1024×700, 1280×720, 1366×768, 1440×900 and 1920×1080; keys and the Safe wizard are a tab away', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await selectMarket(page, question, 0);
  await page.getByTestId('ticket-price').fill('0.3');
  await page.getByTestId('ticket-size').fill('10');
  await atEachSize(
    page,
    async (w, h) => {
      await page.evaluate(() => document.querySelectorAll('.side').forEach((el) => (el.scrollTop = 0)));
      const btn = (await page.getByTestId('ticket-submit').boundingBox())!;
      if (w === 1024 || w === 1440 || w === 1920) await j.screenshot(page, `issue23-side-${w}x${h}`);
      assert.ok(btn.y >= 0 && btn.y + btn.height <= h - 24, `Buy button in view at ${w}×${h} (${Math.round(btn.y)}–${Math.round(btn.y + btn.height)})`);
      assert.ok(btn.x >= 0 && btn.x + btn.width <= w, `Buy button within the width at ${w}×${h}`);
    },
    SUPPORTED_SIZES,
  );
  // One panel at a time below the ticket: the keys-at-rest panel and the Safe wizard wait behind tabs.
  assert.equal(await page.getByTestId('keys-panel').isVisible(), false, 'keys at rest hidden until chosen');
  assert.equal(await page.getByTestId('init-trading-open').isVisible(), false, 'the Safe wizard hidden until chosen');
  await showSideTab(page, 'keys');
  await page.getByTestId('keys-panel').waitFor();
  assert.equal(await page.getByTestId('wallet-panel').isVisible(), false, 'the wallet gives way to the keys');
  await showSideTab(page, 'safe');
  await page.getByTestId('init-trading-open').waitFor();
  assert.match(await page.getByTestId('safe-optional').innerText(), /Optional for paper trading/);
  await showSideTab(page, 'wallet');
  await page.getByTestId('wallet-balance').waitFor();
});
