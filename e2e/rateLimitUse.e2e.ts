// Issue 14, workspace: the status bar shows this client's rate-limit use from the engine's
// X-RateLimit-* headers, "rate limit: used/limit" of the tightest window, and turns to the warning
// colour above 80 %; once the window slides past the burst it is calm again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, selectMarket, startJourney, type Journey } from './journeyHarness.js';

let j: Journey;
let question: string;
before(async () => {
  j = await startJourney();
  question = `E2E rate limit ${Date.now()}`;
  await j.admin('/markets', { question, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' });
});
after(async () => {
  await j?.close();
});

test('a burst of GET /book from this machine turns the status bar’s rate-limit use to the warning colour', async () => {
  const { page } = await j.newTrader();
  // The first-run card sits over the status bar's left end; this journey is not about it.
  await page.getByTestId('onboarding-skip').click();
  const meter = page.getByTestId('status-ratelimit');
  await meter.waitFor();
  assert.equal(await meter.getAttribute('data-level'), 'ok');
  assert.match(await meter.innerText(), /^rate limit: \d+\/\d+$/);
  await j.screenshot(page, 'issue14-ratelimit-ok');

  // 170 of the 200 GET /book a client may send per 10 s, from the same address as the browser (no API key).
  const burst = 170;
  for (let i = 0; i < burst; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${j.ready.trading}/book?token_id=1`, { headers: { connection: 'close' } }).then((r) => r.arrayBuffer())),
    );
  }
  // The terminal's next GET /book (a newly selected market) reports the window the burst filled.
  await selectMarket(page, question, 0);
  const text = await eventually('the warning level', async () => ((await meter.getAttribute('data-level')) === 'warn' ? meter.innerText() : undefined), 10_000);
  const m = /^rate limit: (\d+)\/200$/.exec(text);
  assert.ok(m, `the meter shows the GET /book window: ${text}`);
  assert.ok(Number(m[1]) > burst && Number(m[1]) <= 200, `used counts the burst and the terminal's own request: ${text}`);
  const colour = await meter.evaluate((el) => getComputedStyle(el).color);
  const calm = await page.getByTestId('status-bar').evaluate((el) => getComputedStyle(el).color);
  assert.notEqual(colour, calm, 'the warning colour differs from the status bar’s');
  await j.screenshot(page, 'issue14-ratelimit-warn');

  // 10 s later the burst has left the window: the meter is calm again.
  await eventually('the calm level after the window slides', async () => (await meter.getAttribute('data-level')) === 'ok', 20_000);
});
