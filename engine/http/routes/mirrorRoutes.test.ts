import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient, OrderType, Side, type TickSize } from '@polymarket/clob-client';
import type { BookSnapshot } from '../../protocol/bookHash.js';
import type { EngineConfig } from '../../config.js';
import { createEngine, type Engine } from '../../engine.js';
import { ManualClock } from '../../services/clock.js';
import { PUBLIC_MARKET_ACCOUNT } from '../../services/orders/publicDepth.js';
import type { Market } from '../../services/markets/marketService.js';
import { GAMMA_FIXTURE_SLUG, GammaKit } from '../../testkit/gammaKit.js';
import { UpstreamKit } from '../../testkit/upstreamKit.js';
import { until } from '../../testkit/untilKit.js';

/**
 * Mirroring end to end (issue 22 items 1, 3, 4, 7; decisions §10): the upstream is a second engine in the
 * polymarket profile whose participants made its book (upstreamKit), Gamma a recorded answer served
 * locally (gammaKit); the mirror under test is a whole engine listening on a real port, driven over HTTP
 * and by the stock @polymarket/clob-client. Exchange time is a manual clock so "30 s without an event"
 * is a step, not a wait.
 */

/** What GET /book answers (the fields these tests read). */
type BookJson = Pick<BookSnapshot, 'bids' | 'asks'>;

const FAST_FEED = { pingIntervalMs: 200, deadAfterMs: 1_000, backoff: { initialMs: 50, maxMs: 200, factor: 2, jitter: 0 }, marketPollMs: 150, onProblem: () => undefined };

const levels = (b: BookJson) => ({ bids: b.bids.map((l) => [l.price, l.size]), asks: b.asks.map((l) => [l.price, l.size]) });

describe('mirroring a public market (a second engine as the upstream, recorded Gamma, the stock client)', () => {
  let upstream: UpstreamKit;
  let gamma: GammaKit;
  let engine: Engine;
  let dataDir: string;
  let host: string;
  let port = 0;
  let token: string;
  const clock = new ManualClock(Date.now());
  let publicMarket: Market;
  let mirrored: { condition_id: string; tokens: Array<{ token_id: string }>; minimum_tick_size: number; minimum_order_size: number; neg_risk: boolean };
  const alice = Wallet.createRandom();
  let aliceClient: ClobClient;

  const config = (): Partial<EngineConfig> => ({
    dataDir,
    chain: 'none',
    profile: 'polymarket',
    seedDemo: false,
    simulation: false,
    rateLimits: false,
    serveRenderer: false,
    rotateOperatorToken: false,
    upstreamClob: upstream.base,
    upstreamGamma: gamma.base,
    upstreamWs: upstream.wsUrl,
    // The same port after a restart, so the stock client keeps talking to it.
    port,
  });
  const start = async () => {
    engine = await createEngine(config(), { clock, mirrorFeed: FAST_FEED });
    const ready = await engine.listen();
    host = ready.trading;
    port = Number(new URL(host).port);
    token = ready.operatorToken;
  };
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(host + path, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const localBook = async (tokenId: string) => (await (await fetch(`${host}/book?token_id=${tokenId}`)).json()) as BookJson;
  const upstreamBook = async (tokenId: string) => (await (await fetch(`${upstream.base}/book?token_id=${tokenId}`)).json()) as BookJson;
  const record = async (cid: string) => (await (await fetch(`${host}/markets/${cid}`)).json()) as { mirror: { source: string; upstreamState: string; lastEventAgeMs: number | null } | null; closed: boolean; accepting_orders: boolean; tokens: Array<{ winner: boolean }> };

  before(async () => {
    upstream = await UpstreamKit.start();
    upstream.stopParticipants();
    publicMarket = upstream.market();
    // A public book that moves only when the test moves it: bids at 0.40 and 0.39, asks at 0.60 and 0.61.
    for (const [outcome, price] of [[0, '0.4'], [0, '0.39'], [1, '0.4'], [1, '0.39']] as const) await upstream.buy(publicMarket.conditionId, outcome, price, '50', 3);
    gamma = await GammaKit.start(await upstream.identity(publicMarket.conditionId));
    dataDir = mkdtempSync(join(tmpdir(), 'mirror-routes-'));
    await start();
  });
  after(async () => {
    await engine?.close();
    await upstream?.close();
    await gamma?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('POST /admin/mirrors needs the operator token and a market reference', async () => {
    assert.equal((await fetch(`${host}/admin/mirrors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"market":"x"}' })).status, 401);
    const empty = await admin('POST', '/admin/mirrors', {});
    assert.equal(empty.status, 400);
    const unknown = await admin('POST', '/admin/mirrors', { market: '0x' + '77'.repeat(32) });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: string }).error, 'mirror_not_found');
    // Gamma failing: a 502 that says so, and nothing created.
    gamma.failNext = { status: 503, times: 10 };
    const down = await admin('POST', '/admin/mirrors', { market: GAMMA_FIXTURE_SLUG });
    gamma.failNext = undefined;
    assert.equal(down.status, 502);
    assert.equal(((await down.json()) as { error: string }).error, 'upstream_unavailable');
    assert.equal(engine.ctx.markets.list().length, 0);
  });

  it('mirrors by slug: the local market keeps the public identity and says it is a live public mirror', async () => {
    const r = await admin('POST', '/admin/mirrors', { market: GAMMA_FIXTURE_SLUG });
    const body = (await r.json()) as typeof mirrored & { question_id: string; question: string; mirror: unknown; market_slug: string };
    assert.equal(r.status, 201, JSON.stringify(body));
    mirrored = body;
    assert.equal(body.condition_id, publicMarket.conditionId);
    assert.equal(body.question_id, publicMarket.questionId);
    assert.deepEqual(
      body.tokens.map((t) => t.token_id),
      [...publicMarket.tokenIds],
    );
    assert.equal(body.minimum_tick_size, 0.01);
    assert.equal(body.neg_risk, publicMarket.negRisk);
    assert.deepEqual(body.mirror, { source: 'public', upstreamState: 'live', lastEventAgeMs: (body.mirror as { lastEventAgeMs: number | null }).lastEventAgeMs });
    // The same public market by condition id is the market already followed.
    const again = await admin('POST', '/admin/mirrors', { market: publicMarket.conditionId });
    assert.equal(again.status, 201);
    assert.equal(((await again.json()) as { condition_id: string }).condition_id, publicMarket.conditionId);
    const list = (await (await admin('GET', '/admin/mirrors')).json()) as Array<{ conditionId: string; source: string; upstreamState: string; recording: boolean }>;
    assert.deepEqual(
      list.map((m) => [m.conditionId, m.source, m.upstreamState]),
      [[publicMarket.conditionId, 'public', 'live']],
    );
    const all = (await (await fetch(`${host}/markets`)).json()) as { data: Array<{ condition_id: string; mirror: { source: string } | null }> };
    assert.equal(all.data.find((m) => m.condition_id === publicMarket.conditionId)?.mirror?.source, 'public');
  });

  it('GET /book of the local market shows the public depth', async () => {
    const yes = publicMarket.tokenIds[0];
    const want = levels(await upstreamBook(yes));
    assert.ok(want.bids.length > 0 && want.asks.length > 0, 'the upstream book is two-sided');
    await until('the public depth on the local book', async () => {
      const got = levels(await localBook(yes));
      return JSON.stringify(got) === JSON.stringify(want) ? got : undefined;
    });
  });

  it('the public catalogue search answers from Gamma, and simulated participants refuse a mirrored market', async () => {
    const found = (await (await admin('GET', '/admin/mirrors/search?q=fed&limit=5')).json()) as Array<{ conditionId: string; slug: string }>;
    assert.ok(found.length > 0);
    assert.equal((await admin('GET', '/admin/mirrors/search?q=')).status, 400);
    const sim = await admin('PUT', `/admin/sim/markets/${publicMarket.conditionId}`, { enabled: true });
    assert.equal(sim.status, 400);
    assert.match(((await sim.json()) as { message: string }).message, /mirrors a public market/);
  });

  it('the stock clob-client buys by the public token id and fills against the public depth (maker: public-market)', async () => {
    const yes = publicMarket.tokenIds[0];
    const creds = await new ClobClient(host, 137, alice).createOrDeriveApiKey();
    aliceClient = new ClobClient(host, 137, alice, creds);
    await engine.ctx.orders.creditCollateral(alice.address.toLowerCase(), 1_000_000_000n, 'test');
    const book = await localBook(yes);
    const bestAsk = book.asks.map((l) => Number(l.price)).sort((a, b) => a - b)[0]!;
    const size = 5;
    assert.ok(mirrored.minimum_order_size <= size);
    const placed = await aliceClient.createAndPostOrder({ tokenID: yes, price: bestAsk, side: Side.BUY, size }, { tickSize: String(mirrored.minimum_tick_size) as TickSize, negRisk: mirrored.neg_risk }, OrderType.GTC);
    assert.equal(placed.success, true, JSON.stringify(placed));
    assert.equal(placed.status, 'matched', JSON.stringify(placed));
    const trades = await aliceClient.getTrades({ market: publicMarket.conditionId });
    assert.equal(trades.length, 1);
    assert.equal(trades[0]!.maker_orders[0]!.maker_address.toLowerCase(), PUBLIC_MARKET_ACCOUNT);
    assert.equal(Number(trades[0]!.size), size);
  });

  it('a dead upstream makes the market stale with its age after 30 s: a marketable order gets 409 market_stale, a resting one is accepted', async () => {
    const yes = publicMarket.tokenIds[0];
    await upstream.kill();
    clock.advance(31_000);
    const rec = await record(publicMarket.conditionId);
    assert.equal(rec.mirror?.upstreamState, 'stale');
    assert.ok((rec.mirror?.lastEventAgeMs ?? 0) >= 31_000, JSON.stringify(rec.mirror));
    const book = await localBook(yes);
    assert.ok(book.asks.length > 0, 'the depth stays while stale');
    const bestAsk = Math.min(...book.asks.map((l) => Number(l.price)));
    const opts = { tickSize: String(mirrored.minimum_tick_size) as TickSize, negRisk: mirrored.neg_risk };
    const order = await aliceClient.createOrder({ tokenID: yes, price: bestAsk, side: Side.BUY, size: 5 }, opts);
    const refused = (await aliceClient.postOrder(order, OrderType.GTC)) as { error?: unknown; status?: number };
    assert.equal(refused.status, 409, JSON.stringify(refused));
    assert.match(JSON.stringify(refused.error), /market_stale/);
    const resting = await aliceClient.createAndPostOrder({ tokenID: yes, price: 0.01, side: Side.BUY, size: 5 }, opts, OrderType.GTC);
    assert.equal(resting.success, true, JSON.stringify(resting));
    assert.equal(resting.status, 'live');
  });

  it('the restarted upstream brings the market back to live after the resync', async () => {
    await upstream.restart();
    upstream.stopParticipants();
    await until('live again', async () => ((await record(publicMarket.conditionId)).mirror?.upstreamState === 'live' ? true : undefined));
  });

  it('mirrors persist across a restart of the mirroring engine: followed again, live after the resync', async () => {
    await engine.close();
    await start();
    await until('live after the restart', async () => ((await record(publicMarket.conditionId)).mirror?.upstreamState === 'live' ? true : undefined));
    const yes = publicMarket.tokenIds[0];
    const want = levels(await upstreamBook(yes));
    await until('the public depth rebuilt', async () => {
      const got = levels(await localBook(yes));
      // Alice's resting 0.01 bid is local and stays; compare the asks (public only) and the public bids above it.
      return JSON.stringify(got.asks) === JSON.stringify(want.asks) ? got : undefined;
    });
  });

  it('DELETE /admin/mirrors/{id} stops following: the market stays, closed for new orders', async () => {
    const other = upstream.markets().find((m) => m.conditionId !== publicMarket.conditionId && !m.negRisk)!;
    const r = await admin('POST', '/admin/mirrors', { market: other.conditionId });
    assert.equal(r.status, 201);
    const stopped = await admin('DELETE', `/admin/mirrors/${other.conditionId}`);
    assert.equal(stopped.status, 200);
    const rec = (await stopped.json()) as { closed: boolean; accepting_orders: boolean; mirror: { upstreamState: string } };
    assert.equal(rec.closed, true);
    assert.equal(rec.accepting_orders, false);
    assert.equal(rec.mirror.upstreamState, 'closed');
    assert.deepEqual((await localBook(other.tokenIds[0])).asks, []);
    const refused = await aliceClient.createAndPostOrder({ tokenID: other.tokenIds[0], price: 0.5, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: other.negRisk }, OrderType.GTC);
    assert.match(JSON.stringify(refused), /closed/);
    assert.equal((await admin('DELETE', `/admin/mirrors/0x${'66'.repeat(32)}`)).status, 404);
  });

  it('--mirror mirrors at start (config.mirrors), and a reference the upstream does not know stops the start naming it', async () => {
    const other = upstream.markets().find((m) => m.conditionId !== publicMarket.conditionId && !m.negRisk)!;
    const dir = mkdtempSync(join(tmpdir(), 'mirror-at-start-'));
    try {
      const second = await createEngine({ ...config(), dataDir: dir, port: 0, mirrors: [other.conditionId] }, { mirrorFeed: FAST_FEED });
      try {
        assert.deepEqual(
          second.ctx.mirrors.list().map((m) => [m.conditionId, m.source]),
          [[other.conditionId, 'public']],
        );
        assert.deepEqual(second.ctx.markets.byCondition(other.conditionId)?.tokenIds, [...other.tokenIds]);
      } finally {
        await second.close();
      }
      rmSync(dir, { recursive: true, force: true });
      await assert.rejects(createEngine({ ...config(), dataDir: dir, port: 0, mirrors: ['0x' + '55'.repeat(32)] }, { mirrorFeed: FAST_FEED }), /0x5555/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a public resolution resolves the local market with the public winner, and the position redeems', async () => {
    await upstream.resolve(publicMarket.conditionId, 0);
    const rec = await until('resolved locally', async () => {
      const r = await record(publicMarket.conditionId);
      return r.tokens[0]!.winner ? r : undefined;
    });
    assert.equal(rec.closed, true);
    assert.equal(rec.mirror?.upstreamState, 'closed');
    // Alice bought 5 Yes shares from the public depth; Yes won: 5 collateral.
    const redeemed = await engine.ctx.orders.redeem({ address: alice.address.toLowerCase() }, publicMarket.conditionId);
    assert.equal(redeemed.winningOutcomeIndex, 0);
    assert.equal(redeemed.payout, '5');
    const after = await engine.ctx.orders.redeem({ address: alice.address.toLowerCase() }, publicMarket.conditionId).catch((e: Error) => e);
    assert.match(String((after as Error).message), /nothing to redeem|hold no shares/);
  });
});
