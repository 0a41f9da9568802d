// Issue 22, the terminal journey: a trader searches the public catalogue by words, mirrors a public
// market, sees its public depth on the ladder, fills a market order against it, and a resting order
// fills when a public trade prints through its price. The public exchange is a second engine of this
// project in the polymarket profile with simulated participants (upstreamKit); the public search is
// a recorded Gamma answer served locally (gammaKit) with that engine's market in place of one leg.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { GammaKit } from '../engine/testkit/gammaKit.js';
import { UpstreamKit } from '../engine/testkit/upstreamKit.js';
import { PUBLIC_MARKET_ACCOUNT } from '../engine/services/orders/orderService.js';
import { eventually, onboardTrader, placeLimit, screenshotAtEachSize, startJourney, type Journey } from './journeyHarness.js';

let up: UpstreamKit;
let gamma: GammaKit;
let j: Journey;
let conditionId: `0x${string}`;

before(async () => {
  up = await UpstreamKit.start();
  conditionId = up.market().conditionId;
  gamma = await GammaKit.start(await up.identity(conditionId));
  j = await startJourney({ config: { upstreamClob: up.base, upstreamWs: up.wsUrl, upstreamGamma: gamma.base } });
});
after(async () => {
  await j?.close();
  await gamma?.close();
  await up?.close();
});

interface Level {
  price: number;
  size: number;
}
const levels = (rows: { price: string; size: string }[]): Level[] => rows.map((r) => ({ price: Number(r.price), size: Number(r.size) }));

/** The upstream's public book of outcome 0, best first on each side. */
async function upstreamBook(): Promise<{ bids: Level[]; asks: Level[] }> {
  const token = up.market().tokenIds[0];
  const b = (await (await fetch(`${up.base}/book?token_id=${token}`)).json()) as { bids: { price: string; size: string }[]; asks: { price: string; size: string }[] };
  return { bids: levels(b.bids).sort((x, y) => y.price - x.price), asks: levels(b.asks).sort((x, y) => x.price - y.price) };
}

/** The terminal's ladder, best first on each side. */
async function ladder(page: Page): Promise<{ bids: Level[]; asks: Level[] }> {
  const read = (side: 'bid' | 'ask') =>
    page.getByTestId(`book-${side}-row`).evaluateAll((els) => els.map((e) => ({ price: e.getAttribute('data-price') ?? '', size: e.getAttribute('data-size') ?? '' })));
  return { bids: levels(await read('bid')).sort((x, y) => y.price - x.price), asks: levels(await read('ask')).sort((x, y) => x.price - y.price) };
}

const same = (a: Level[], b: Level[], n: number) => a.length >= n && b.length >= n && a.slice(0, n).every((l, i) => l.price === b[i]!.price && Math.abs(l.size - b[i]!.size) < 1e-6);

test('a trader searches the public markets, mirrors one, trades on its public depth, and a public print fills a resting order', async () => {
  const { page } = await j.newTrader();
  const me = (await onboardTrader(page)).toLowerCase();
  await giveOperatorToken(page);

  // Words → public results with price, volume and state; "+ Public" puts the cursor in the search.
  await page.getByTestId('open-public-markets').click();
  await eventually('the public search focused', async () => (await page.evaluate(() => document.activeElement?.id)) === 'public-search');
  await page.keyboard.type('fed july');
  await page.keyboard.press('Enter');
  const results = page.getByTestId('public-result');
  await results.first().waitFor();
  assert.equal(await results.count(), 3, 'the three legs of the recorded Gamma event');
  const row = page.locator(`[data-testid="public-result"][data-condition-id="${conditionId}"]`);
  assert.match(await row.innerText(), /Will the Fed cut rates by 25 bps in July 2026\?/);
  assert.match(await row.getByTestId('public-price').innerText(), /0\.315/);
  assert.equal(await row.getByTestId('public-volume').innerText(), '$1.8M');
  assert.equal(await row.getAttribute('data-closed'), 'false');
  assert.equal(await page.getByTestId('public-closed').count(), 0, 'no leg of the event is closed');
  await screenshotAtEachSize(j, page, 'issue22-mirror-search');

  // Mirror: the market opens in the terminal with its public identity and a live MIRRORED badge.
  await row.getByTestId('public-mirror').click();
  const header = page.getByTestId('market-header');
  await eventually('the mirrored market on screen', async () => (await header.getByTestId('mirror-badge').count()) === 1);
  const badge = header.getByTestId('mirror-badge');
  assert.equal(await badge.getAttribute('data-label'), 'MIRRORED');
  await eventually('the mirror live', async () => (await badge.getAttribute('data-state')) === 'live');
  await eventually('the age of the last upstream event on the badge', async () => /MIRRORED · live · \d+s/.test(await badge.innerText()));
  assert.equal(await page.locator(`[data-testid="market-row"][data-condition-id="${conditionId}"]`).getByTestId('mirror-badge').count(), 1, 'the market list marks it too');
  assert.equal(await row.getByTestId('public-open').count(), 1, 'the search result now offers Open instead of Mirror');
  const mirrored = page.locator(`[data-testid="mirror-row"][data-condition-id="${conditionId}"]`);
  await mirrored.waitFor();
  assert.equal(await mirrored.getAttribute('data-state'), 'live');

  // The public depth is on the ladder: the top levels of both sides equal the upstream's book at some moment
  // (the participants keep trading upstream, so the two are compared together until they agree).
  await eventually(
    'the ladder showing the public book',
    async () => {
      const [theirs, ours] = [await upstreamBook(), await ladder(page)];
      return same(theirs.bids, ours.bids, 2) && same(theirs.asks, ours.asks, 2);
    },
    30_000,
  );

  // A market buy of $10 fills against the public asks.
  await page.getByTestId('ticket-mode-market').click();
  await page.getByTestId('ticket-side-buy').click();
  await page.getByTestId('ticket-amount').fill('10');
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  await eventually('the market order filled', async () => (await page.getByTestId('ticket-result').getAttribute('data-order-status').catch(() => '')) === 'matched' || /filled [1-9]/.test(await page.getByTestId('ticket-result').innerText().catch(() => '')));
  await eventually('the market buy on the tape, taken from the public market', async () => (await tradesWithPublic(me)).some((t) => t.role === 'taker' && t.side === 'BUY'));

  // A resting bid one tick above the public best bid (or at it when the spread is one tick) fills only when
  // a public trade prints at or through its price: the upstream trades there, enough to pass any public size ahead.
  await page.getByTestId('ticket-mode-limit').click();
  const ours = await ladder(page);
  const tick = 0.01;
  const bestBid = ours.bids[0]!.price;
  const bestAsk = ours.asks[0]!.price;
  const price = Number((bestBid + tick < bestAsk - 1e-9 ? bestBid + tick : bestBid).toFixed(2));
  const ahead = ours.bids.find((l) => Math.abs(l.price - price) < 1e-9)?.size ?? 0;
  const placed = await placeLimit(page, { side: 'BUY', price: String(price), size: '10' });
  assert.equal(placed.status, 'live', 'the bid rests: nothing public sells at its price');
  await page.getByTestId('tab-orders').click();
  await page.getByTestId('open-order-row').first().waitFor();
  const before = (await tradesWithPublic(me)).length;
  await up.trade(conditionId, String(price), String(Math.ceil(ahead) + 100));
  await eventually('the resting bid filled by the public print', async () => (await page.getByTestId('open-order-row').count()) === 0, 30_000);
  const fills = await tradesWithPublic(me);
  assert.ok(fills.length > before, 'a new fill against the public market');
  assert.ok(
    fills.some((t) => t.role === 'maker' && Number(t.price) === price && t.side === 'BUY'),
    `our bid filled as maker at ${price}, the public print its taker: ${JSON.stringify(fills)}`,
  );
  await page.getByTestId('tab-trades').click();
  await page.getByTestId('my-trade-row').nth(1).waitFor();
  // Both fills name the public market as the other side (the terminal's copy of its address agrees with the engine's).
  await eventually('both fills marked public', async () => (await page.getByTestId('my-trade-row').getByTestId('public-marker').count()) === (await page.getByTestId('my-trade-row').count()));
  await screenshotAtEachSize(j, page, 'issue22-mirror-fills');
});

test('the record switch writes the mirrored market to a tape, and a listed tape replays as a REPLAY market', async () => {
  const { page } = await j.newTrader();
  await giveOperatorToken(page);
  // Seven bottom tabs: the Mirrors tab is whole inside its pane at the smallest supported window too.
  await page.setViewportSize({ width: 1024, height: 700 });
  const [tabBox, paneBox] = [await page.getByTestId('tab-mirrors').boundingBox(), await page.getByTestId('bottom-tabs').boundingBox()];
  assert.ok(tabBox && paneBox && tabBox.x + tabBox.width <= paneBox.x + paneBox.width, `the Mirrors tab inside the bottom pane at 1024×700: ${JSON.stringify({ tabBox, paneBox })}`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('tab-mirrors').click();
  const toggle = page.getByTestId('record-toggle');
  await eventually('the record switch ready', async () => (await toggle.isEnabled()) && !(await toggle.isChecked()));
  await toggle.press('Space');
  await eventually('recording on', async () => toggle.isChecked());
  const mirrored = page.locator(`[data-testid="mirror-row"][data-condition-id="${conditionId}"]`);
  await mirrored.getByText('REC').waitFor();
  const tape = page.locator(`[data-testid="tape-row"][data-condition-id="${conditionId}"]`);
  await tape.waitFor();
  assert.match(await tape.innerText(), /Will the Fed cut rates by 25 bps in July 2026\?/);
  assert.match(await tape.innerText(), new RegExp(new Date().toISOString().slice(0, 10)), 'the tape of the UTC day');
  assert.match(await tape.innerText(), /\d+(\.\d)? (B|kB)/, 'its size');
  await toggle.press('Space');
  await eventually('recording off', async () => !(await toggle.isChecked()));

  // A tape in the data directory's tapes/ is listed; Replay opens its market, marked REPLAY.
  const example = 'example-calm-market.jsonl.gz';
  copyFileSync(fileURLToPath(new URL(`../resources/tapes/${example}`, import.meta.url)), join(j.dataDir, 'tapes', example));
  const exampleRow = page.locator(`[data-testid="tape-row"][data-name="${example}"]`);
  await exampleRow.waitFor();
  await screenshotAtEachSize(j, page, 'issue22-mirror-tapes');
  const axe = await new AxeBuilder({ page }).include('[data-testid="mirrors"]').analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')}`), [], 'the Mirrors tab has no serious or critical axe violations');
  await exampleRow.getByTestId('tape-replay').click();
  const badge = page.getByTestId('market-header').getByTestId('mirror-badge');
  await eventually('the replayed market on screen', async () => (await badge.getAttribute('data-label').catch(() => null)) === 'REPLAY');
  assert.equal(await badge.getAttribute('data-source'), `tape:${example}`);
  assert.match(await page.getByTestId('market-question').innerText(), /Will Bitcoin close above \$150,000 on 26 May 2027\?/);
});

test('when the public market goes silent the badge turns stale with the age, the header says why, and a market order is refused in plain words', async () => {
  const { page } = await j.newTrader();
  await onboardTrader(page);
  await page.locator(`[data-testid="market-row"][data-condition-id="${conditionId}"]`).click();
  const badge = page.getByTestId('market-header').getByTestId('mirror-badge');
  await eventually('the mirror live', async () => (await badge.getAttribute('data-state')) === 'live');
  assert.equal(await page.getByTestId('mirror-notice').count(), 0, 'no notice while live');

  await up.kill();
  // decisions §10: stale after 30 s without an upstream event; the market list is refetched every 5 s.
  await eventually('the badge stale', async () => (await badge.getAttribute('data-state')) === 'stale', 60_000);
  assert.match(await badge.innerText(), /MIRRORED · stale · (3\d|[4-9]\d)s/);
  assert.match(await page.getByTestId('mirror-notice').innerText(), /silent for \d+s: orders that would trade now are refused/);
  await page.getByTestId('ticket-mode-market').click();
  await page.getByTestId('ticket-side-buy').click();
  await page.getByTestId('ticket-amount').fill('10');
  await page.getByTestId('ticket-submit').click();
  await page.getByTestId('order-confirm').click();
  const refusal = page.getByTestId('ticket-error');
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /Mirror is stale/);
  assert.match(await refusal.innerText(), /market_stale/);
  await screenshotAtEachSize(j, page, 'issue22-mirror-stale');

  // The upstream comes back: the feed reconnects, resyncs, and the badge is live again.
  await up.restart();
  await eventually('the mirror live again', async () => (await badge.getAttribute('data-state')) === 'live', 60_000);
  await eventually('the notice gone', async () => (await page.getByTestId('mirror-notice').count()) === 0);
});

/** Mirroring is an operator action: the browser is given the operator token once (Admin tab). */
async function giveOperatorToken(page: Page): Promise<void> {
  await page.getByTestId('tab-admin').click();
  await page.getByTestId('admin-token').fill(j.ready.operatorToken);
  await page.getByTestId('admin-token-use').click();
  await page.getByTestId('admin-faucet').waitFor();
}

interface TapeTrade {
  maker_address: string;
  side: string;
  price: string;
  maker_orders: { maker_address: string; price: string; side: string; matched_amount: string }[];
}

/** The trader's fills on the mirrored market with the public market on the other side (the public tape). */
interface PublicFill {
  role: 'taker' | 'maker';
  side: string;
  price: string;
}

async function tradesWithPublic(me: string): Promise<PublicFill[]> {
  const res = await fetch(`${j.ready.trading}/trades?market=${conditionId}`, { headers: { connection: 'close' } });
  const body = (await res.json()) as TapeTrade[] | { data: TapeTrade[] };
  const all = Array.isArray(body) ? body : body.data;
  const pub = PUBLIC_MARKET_ACCOUNT.toLowerCase();
  return all.flatMap((t): PublicFill[] => {
    const taker = t.maker_address.toLowerCase();
    if (taker === me && t.maker_orders.some((m) => m.maker_address.toLowerCase() === pub)) return [{ role: 'taker', side: t.side, price: t.price }];
    if (taker !== pub) return [];
    return t.maker_orders.filter((m) => m.maker_address.toLowerCase() === me).map((m) => ({ role: 'maker', side: m.side, price: m.price }));
  });
}
