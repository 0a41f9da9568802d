import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../../protocol/errors.js';
import { GAMMA_FIXTURE_EVENT_SLUG, GAMMA_FIXTURE_SLUG, GammaKit } from '../../../testkit/gammaKit.js';
import { UpstreamKit } from '../../../testkit/upstreamKit.js';
import type { PublicMarketIdentity } from '../mirrorTypes.js';
import { RequestBudget } from './requestBudget.js';
import { UPSTREAM_USER_AGENT, UpstreamClient } from './upstreamClient.js';

/** A port nothing listens on (a dead upstream). */
async function deadBase(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

async function rejects(p: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, message);
    return true;
  });
}

describe('the upstream REST client against a second engine and a recorded Gamma', () => {
  let upstream: UpstreamKit;
  let gamma: GammaKit;
  let expected: PublicMarketIdentity;
  let client: UpstreamClient;

  before(async () => {
    upstream = await UpstreamKit.start({ simulation: false });
    expected = await upstream.identity();
    gamma = await GammaKit.start(expected);
    client = new UpstreamClient({ clobBase: upstream.base, gammaBase: gamma.base, timeoutMs: 3_000 });
  });
  after(async () => {
    await gamma?.close();
    await upstream?.close();
  });

  it('resolves a condition id through the CLOB alone when Gamma is down', async () => {
    const clobOnly = new UpstreamClient({ clobBase: upstream.base, gammaBase: await deadBase(), timeoutMs: 3_000 });
    const id = await clobOnly.resolveMarket(expected.conditionId);
    const m = upstream.market();
    assert.equal(id.conditionId, m.conditionId);
    assert.deepEqual(id.tokenIds, m.tokenIds);
    assert.equal(typeof id.tokenIds[0], 'string');
    assert.equal(id.tickSize, Number(m.tickSize));
    assert.equal(id.minOrderSize, Number(m.minOrderSize));
    assert.deepEqual(id.outcomes, m.outcomes);
    assert.equal(id.question, m.question);
    assert.equal(id.feeSchedule.rate, 0n, 'the /fee-rate bps (0 here) as a schedule');
    assert.equal(id.winner, null);
  });

  it('resolves a condition id with the fee schedule from Gamma when Gamma answers', async () => {
    const id = await client.resolveMarket(expected.conditionId);
    assert.equal(id.conditionId, expected.conditionId);
    assert.deepEqual(id.feeSchedule, { rate: 50_000n, exponent: 1, takerOnly: true, rebateRate: 250_000n });
    assert.ok(gamma.requests.some((r) => r.startsWith('/markets?condition_ids=') && r.includes('closed=true')));
  });

  it('resolves a slug through Gamma (JSON-in-JSON token ids, tick and size to micro-units, fee schedule)', async () => {
    const id = await client.resolveMarket(GAMMA_FIXTURE_SLUG);
    assert.equal(id.conditionId, expected.conditionId);
    assert.deepEqual(id.tokenIds, expected.tokenIds);
    assert.deepEqual(id.outcomes, ['Yes', 'No']);
    assert.equal(id.tickSize, expected.tickSize);
    assert.equal(id.minOrderSize, 5_000_000);
    assert.equal(id.slug, GAMMA_FIXTURE_SLUG);
    assert.equal(id.endDate, '2026-07-29T00:00:00Z');
    assert.deepEqual(id.feeSchedule, { rate: 50_000n, exponent: 1, takerOnly: true, rebateRate: 250_000n });
    assert.equal(id.closed, false);
    assert.equal(id.acceptingOrders, true);
  });

  it('resolves polymarket.com market and event URLs (with a locale and a query)', async () => {
    const byMarketUrl = await client.resolveMarket(`https://polymarket.com/event/${GAMMA_FIXTURE_EVENT_SLUG}/${GAMMA_FIXTURE_SLUG}?tid=1786385407185`);
    assert.equal(byMarketUrl.conditionId, expected.conditionId);
    const byLocale = await client.resolveMarket(`https://polymarket.com/es/market/${GAMMA_FIXTURE_SLUG}`);
    assert.equal(byLocale.conditionId, expected.conditionId);
    // An event of three markets: the answer names them so the operator can pick one.
    await rejects(client.resolveMarket(`https://polymarket.com/event/${GAMMA_FIXTURE_EVENT_SLUG}`), 'mirror_not_found', /has 3 markets; mirror one of them by its slug: .*fed-cut-25-bps-july-2026/);
  });

  it('says mirror_not_found, with what to do, for an unknown slug, condition id, foreign URL or nonsense', async () => {
    await rejects(client.resolveMarket('no-such-market-anywhere'), 'mirror_not_found', /No public market or event has the slug 'no-such-market-anywhere'. Search with/);
    await rejects(client.resolveMarket('0x' + 'ab'.repeat(32)), 'mirror_not_found', /no market 0xabab/);
    await rejects(client.resolveMarket('https://example.com/event/x'), 'mirror_not_found', /not a polymarket.com event or market URL/);
    await rejects(client.resolveMarket('what is this?'), 'mirror_not_found', /neither a condition id .* nor a polymarket.com URL/);
  });

  it('says upstream_unavailable when the CLOB is dead or Gamma fails, naming the URL', async () => {
    const dead = new UpstreamClient({ clobBase: await deadBase(), gammaBase: await deadBase(), timeoutMs: 2_000 });
    await rejects(dead.resolveMarket(expected.conditionId), 'upstream_unavailable', /unreachable \(ECONNREFUSED\)\. Check the upstream URL/);
    gamma.failNext = { status: 503, times: 1 };
    await rejects(client.resolveMarket(GAMMA_FIXTURE_SLUG), 'upstream_unavailable', /HTTP 503/);
  });

  it('says upstream_unavailable when the upstream does not answer within the timeout', async () => {
    const slow = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const c = new UpstreamClient({ clobBase: base, gammaBase: base, timeoutMs: 300 });
      await rejects(c.book('1'), 'upstream_unavailable', /no answer within 300 ms/);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });

  it('searches the catalogue through Gamma: binary markets with their event, prices and volume', async () => {
    const rows = await client.search('fed july', 10);
    assert.equal(rows.length, 3);
    const ours = rows.find((r) => r.conditionId === expected.conditionId)!;
    assert.deepEqual(ours, {
      conditionId: expected.conditionId,
      slug: GAMMA_FIXTURE_SLUG,
      question: 'Will the Fed cut rates by 25 bps in July 2026?',
      eventTitle: 'Fed decision in July?',
      outcomes: ['Yes', 'No'],
      outcomePrices: ['0.315', '0.685'],
      volume: '1843021.55',
      closed: false,
      image: 'https://polymarket-upload.s3.us-east-2.amazonaws.com/fed.png',
    });
    assert.equal((await client.search('fed july', 2)).length, 2);
    assert.deepEqual(await client.search('bitcoin'), []);
    assert.deepEqual(await client.search('   '), []);
  });

  it('fetches the raw book, market and fee rate of the upstream engine', async () => {
    const book = (await client.book(expected.tokenIds[0])) as Record<string, unknown>;
    assert.equal(book.asset_id, expected.tokenIds[0]);
    assert.equal(typeof book.hash, 'string');
    const market = (await client.market(expected.conditionId)) as Record<string, unknown>;
    assert.equal(market.condition_id, expected.conditionId);
    assert.equal(await client.feeRateBps(expected.tokenIds[0]), 0);
  });

  it('sends a browser-like User-Agent', async () => {
    let seen = '';
    const s = createServer((req, res) => {
      seen = req.headers['user-agent'] ?? '';
      res.end('{}');
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    await new UpstreamClient({ clobBase: base, gammaBase: base }).market('0x' + '1'.repeat(64));
    await new Promise<void>((r) => s.close(() => r()));
    assert.equal(seen, UPSTREAM_USER_AGENT);
    assert.match(seen, /^Mozilla\/5\.0 /);
  });
});

describe('the request budget', () => {
  it('never grants more than its limit within a window: extra requests wait for a slot, or are refused past their deadline', async () => {
    let now = 0;
    const budget = new RequestBudget({ requests: 3, windowMs: 200, maxQueued: 10 }, { nowMs: () => now });
    assert.deepEqual(await Promise.all([budget.acquire(0), budget.acquire(0), budget.acquire(0)]), [true, true, true]);
    assert.equal(await budget.acquire(50), false, 'the next slot frees in 200 ms: a 50 ms deadline is refused');
    const waiting = budget.acquire(1_000);
    now = 200; // the window has passed on the wall clock
    assert.equal(await waiting, true);
    assert.equal(budget.inWindow(), 1);
  });

  it('refuses at once when its queue is full', async () => {
    const budget = new RequestBudget({ requests: 1, windowMs: 60_000, maxQueued: 1 }, { nowMs: () => 0 });
    assert.equal(await budget.acquire(0), true);
    const queued = budget.acquire(10);
    assert.equal(await budget.acquire(10_000), false);
    assert.equal(await queued, false);
  });

  it('turns a refusal into upstream_unavailable naming the budget', async () => {
    const s = createServer((_req, res) => res.end('{"base_fee":0}'));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    try {
      const c = new UpstreamClient({ clobBase: base, gammaBase: base, timeoutMs: 100, budget: { requests: 2, windowMs: 10_000, maxQueued: 10 } });
      await c.feeRateBps('1');
      await c.feeRateBps('1');
      await rejects(c.feeRateBps('1'), 'upstream_unavailable', /request budget to .* \(2 per 10 s, below the public limits\) is used up/);
    } finally {
      await new Promise<void>((r) => s.close(() => r()));
    }
  });
});
