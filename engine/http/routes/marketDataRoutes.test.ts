import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { bookHashOf } from '../../protocol/bookHash.js';
import { ManualClock } from '../../services/clock.js';
import type { EngineContext } from '../engineContext.js';
import { MarketDataService } from '../../services/markets/marketDataService.js';
import type { Market } from '../../services/markets/marketService.js';
import { seedDemoMarkets } from '../../services/markets/seedDemoMarkets.js';
import { startTestEngine } from '../../testkit/engineKit.js';

const T = 1_800_000_000_123;

describe('market data routes', () => {
  let ctx: EngineContext;
  let close: () => Promise<void>;
  let app: FastifyInstance;
  let btc: Market; // tick 0.01, fair 0.38, bids 0.37.., asks 0.39..
  let fresh: Market; // no orders, no trades
  const clock = new ManualClock(T);

  before(async () => {
    ({ ctx, app, close } = await startTestEngine(clock, { rateLimits: false }));
    await seedDemoMarkets(ctx);
    btc = ctx.markets.list()[0]!;
    fresh = await ctx.markets.create({ question: 'Empty market?', tickSize: 1_000n, minOrderSize: 1_000_000n });
  });
  after(() => close());

  const get = (url: string) => app.inject({ method: 'GET', url });
  const post = (url: string, body: unknown) => app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  test('GET / answers the JSON string "OK" and GET /time bare unix seconds', async () => {
    const health = await get('/');
    assert.equal(health.statusCode, 200);
    assert.equal(health.body, '"OK"');
    assert.match(String(health.headers['content-type']), /application\/json/);
    const time = await get('/time');
    assert.equal(time.body, String(Math.floor(T / 1000)));
  });

  test('GET /book gives the server key order, best price last, and a hash clients reproduce', async () => {
    const r = await get(`/book?token_id=${btc.tokenIds[0]}`);
    assert.equal(r.statusCode, 200);
    const b = r.json() as Record<string, unknown> & { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }> };
    assert.deepEqual(Object.keys(b), ['market', 'asset_id', 'timestamp', 'hash', 'bids', 'asks', 'min_order_size', 'tick_size', 'neg_risk', 'last_trade_price']);
    assert.equal(b.market, btc.conditionId);
    assert.equal(b.asset_id, btc.tokenIds[0]);
    assert.equal(b.timestamp, String(T));
    assert.deepEqual(b.bids.map((l) => l.price), ['0.33', '0.34', '0.35', '0.36', '0.37']);
    assert.deepEqual(b.asks.map((l) => l.price), ['0.43', '0.42', '0.41', '0.4', '0.39']);
    assert.deepEqual(b.bids.map((l) => l.size), ['1200', '800', '500', '300', '150']);
    assert.equal(b.min_order_size, '5');
    assert.equal(b.tick_size, '0.01');
    assert.equal(b.neg_risk, false);
    assert.equal(b.last_trade_price, '0.38');
    assert.match(String(b.hash), /^[0-9a-f]{40}$/);
    assert.equal(bookHashOf(b), b.hash);
  });

  test('the other outcome sees the same book mirrored', async () => {
    const yes = (await get(`/book?token_id=${btc.tokenIds[0]}`)).json() as { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }> };
    const no = (await get(`/book?token_id=${btc.tokenIds[1]}`)).json() as typeof yes & { last_trade_price: string };
    assert.deepEqual(no.bids.map((l) => l.price), ['0.57', '0.58', '0.59', '0.6', '0.61']);
    assert.deepEqual(no.asks.map((l) => l.price), ['0.67', '0.66', '0.65', '0.64', '0.63']);
    assert.deepEqual(no.bids.map((l) => l.size), yes.asks.map((l) => l.size));
    assert.equal(no.last_trade_price, '0.62');
  });

  test('GET /book refuses unknown, missing and malformed token ids with what to do', async () => {
    const unknown = await get('/book?token_id=123');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'token_not_found');
    assert.match(unknown.json().message, /GET \/markets/);
    const missing = await get('/book');
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error, 'invalid_query');
    assert.match(missing.json().message, /token_id/);
    const bad = await get('/book?token_id=0xabc');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /token_id/);
  });

  test('POST /books answers one snapshot per entry, and 400/404 for bad batches', async () => {
    const r = await post('/books', [{ token_id: btc.tokenIds[0] }, { token_id: fresh.tokenIds[1], side: 'BUY' }]);
    assert.equal(r.statusCode, 200);
    const arr = r.json() as Array<{ asset_id: string; bids: unknown[]; hash: string }>;
    assert.deepEqual(arr.map((b) => b.asset_id), [btc.tokenIds[0], fresh.tokenIds[1]]);
    assert.deepEqual(arr[1]!.bids, []);
    assert.equal(bookHashOf(arr[0] as unknown as Record<string, unknown>), arr[0]!.hash);
    assert.equal((await post('/books', [])).statusCode, 400);
    const unknown = await post('/books', [{ token_id: btc.tokenIds[0] }, { token_id: '42' }]);
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.json().message, /42/);
    assert.equal((await post('/books', { token_id: btc.tokenIds[0] })).statusCode, 400);
  });

  test('GET /price: BUY is the best bid, SELL the best ask; an empty side is a 404 no_liquidity', async () => {
    assert.deepEqual((await get(`/price?token_id=${btc.tokenIds[0]}&side=BUY`)).json(), { price: '0.37' });
    assert.deepEqual((await get(`/price?token_id=${btc.tokenIds[0]}&side=SELL`)).json(), { price: '0.39' });
    assert.deepEqual((await get(`/price?token_id=${btc.tokenIds[1]}&side=buy`)).json(), { price: '0.61' });
    const bad = await get(`/price?token_id=${btc.tokenIds[0]}&side=UP`);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /side/);
    const empty = await get(`/price?token_id=${fresh.tokenIds[0]}&side=BUY`);
    assert.equal(empty.statusCode, 404);
    assert.equal(empty.json().error, 'no_liquidity');
  });

  test('POST /prices keys by token id and side, leaving out empty sides', async () => {
    const r = await post('/prices', [
      { token_id: btc.tokenIds[0], side: 'BUY' },
      { token_id: btc.tokenIds[0], side: 'SELL' },
      { token_id: fresh.tokenIds[0], side: 'BUY' },
    ]);
    assert.deepEqual(r.json(), { [btc.tokenIds[0]]: { BUY: '0.37', SELL: '0.39' }, [fresh.tokenIds[0]]: {} });
    const bad = await post('/prices', [{ token_id: btc.tokenIds[0], side: 'X' }]);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /\[0\]\.side/);
  });

  test('midpoint and spread, single and batch', async () => {
    assert.deepEqual((await get(`/midpoint?token_id=${btc.tokenIds[0]}`)).json(), { mid: '0.38' });
    assert.deepEqual((await get(`/midpoint?token_id=${btc.tokenIds[1]}`)).json(), { mid: '0.62' });
    assert.deepEqual((await get(`/spread?token_id=${btc.tokenIds[0]}`)).json(), { spread: '0.02' });
    assert.equal((await get(`/midpoint?token_id=${fresh.tokenIds[0]}`)).statusCode, 404);
    assert.equal((await get(`/spread?token_id=${fresh.tokenIds[0]}`)).json().error, 'no_liquidity');
    assert.deepEqual((await post('/midpoints', [{ token_id: btc.tokenIds[0] }, { token_id: fresh.tokenIds[0] }])).json(), { [btc.tokenIds[0]]: '0.38' });
    assert.deepEqual((await post('/spreads', [{ token_id: btc.tokenIds[1] }])).json(), { [btc.tokenIds[1]]: '0.02' });
    assert.equal((await post('/midpoints', [{}])).statusCode, 400);
  });

  test('last trade price, and the 0.5 default before any trade', async () => {
    assert.deepEqual((await get(`/last-trade-price?token_id=${btc.tokenIds[0]}`)).json(), { price: '0.38', side: ctx.orders.lastTrade(btc.tokenIds[0])!.side });
    assert.deepEqual((await get(`/last-trade-price?token_id=${fresh.tokenIds[0]}`)).json(), { price: '0.5', side: '' });
    const batch = (await post('/last-trades-prices', [{ token_id: fresh.tokenIds[1] }])).json();
    assert.deepEqual(batch, [{ token_id: fresh.tokenIds[1], price: '0.5', side: '' }]);
    assert.equal((await get('/last-trade-price?token_id=9')).statusCode, 404);
  });

  test('GET /prices-history buckets trades by fidelity into {t, p} plus OHLC, volume and the closing mid, and validates every parameter', async () => {
    const r = await get(`/prices-history?market=${btc.tokenIds[0]}&interval=1d&fidelity=60`);
    assert.equal(r.statusCode, 200);
    const bucket = Math.floor(T / 1000 / 3600) * 3600;
    // The seed's one fill of 5,000 shares at 0.38; the book quotes 0.37 / 0.39 around it.
    assert.deepEqual(r.json(), { history: [{ t: bucket, p: 0.38, o: 0.38, h: 0.38, l: 0.38, c: 0.38, v: 5000, m: 0.38 }] });
    const range = await get(`/prices-history?market=${btc.tokenIds[1]}&startTs=${Math.floor(T / 1000) - 10}&endTs=${Math.floor(T / 1000) + 10}`);
    assert.deepEqual(range.json(), { history: [{ t: Math.floor(T / 1000 / 60) * 60, p: 0.62, o: 0.62, h: 0.62, l: 0.62, c: 0.62, v: 5000, m: 0.62 }] });
    assert.deepEqual((await get(`/prices-history?market=${btc.tokenIds[0]}&startTs=1&endTs=2`)).json(), { history: [] });
    for (const [q, field] of [
      [`market=${btc.tokenIds[0]}&interval=2d`, 'interval'],
      [`market=${btc.tokenIds[0]}&interval=1d&startTs=1`, 'interval'],
      [`market=${btc.tokenIds[0]}&startTs=10&endTs=5`, 'endTs'],
      [`market=${btc.tokenIds[0]}&fidelity=0`, 'fidelity'],
      [`market=${btc.tokenIds[0]}&startTs=-1`, 'startTs'],
      ['interval=1d', 'market'],
    ] as const) {
      const bad = await get(`/prices-history?${q}`);
      assert.equal(bad.statusCode, 400, q);
      assert.equal(bad.json().error, 'invalid_query');
      assert.match(bad.json().message, new RegExp(field), q);
    }
  });

  test('GET /trades pages the public tape with cursors', async () => {
    const all = (await get(`/trades?market=${btc.conditionId}`)).json() as { limit: number; count: number; next_cursor: string; data: unknown[] };
    assert.equal(all.count, all.data.length);
    assert.ok(all.count >= 1);
    assert.equal(all.next_cursor, 'LTE=');
    const everything = (await get('/trades?limit=2')).json() as typeof all;
    assert.equal(everything.count, 2);
    assert.equal(everything.next_cursor, Buffer.from('2').toString('base64'));
    const next = (await get(`/trades?limit=2&next_cursor=${encodeURIComponent(everything.next_cursor)}`)).json() as typeof all;
    assert.notDeepEqual(next.data[0], everything.data[0]);
    assert.equal((await get(`/trades?asset_id=${btc.tokenIds[1]}`)).json().count, 1);
    assert.equal((await get('/trades?limit=0')).statusCode, 400);
    assert.equal((await get('/trades?next_cursor=zzz')).json().error, 'invalid_query');
    assert.equal((await get(`/trades?market=0x${'00'.repeat(32)}`)).statusCode, 404);
  });

  test('GET /markets pages public Market records; GET /markets/{id} returns one', async () => {
    const page = (await get('/markets')).json() as { limit: number; count: number; next_cursor: string; data: Array<Record<string, unknown>> };
    assert.equal(page.count, 5);
    assert.equal(page.next_cursor, 'LTE=');
    const m = page.data[0]!;
    assert.equal(m.condition_id, btc.conditionId);
    assert.equal(m.minimum_tick_size, 0.01);
    assert.equal(m.minimum_order_size, 5);
    assert.deepEqual(m.tokens, [
      { token_id: btc.tokenIds[0], outcome: 'Yes', price: 0.38, winner: false },
      { token_id: btc.tokenIds[1], outcome: 'No', price: 0.62, winner: false },
    ]);
    assert.equal(m.event_id, 1);
    assert.equal(page.data[3]!.neg_risk, true);
    assert.equal((page.data[4]!.tokens as Array<{ price: number }>)[0]!.price, 0.5);
    assert.deepEqual((await get('/markets?next_cursor=MA%3D%3D')).json().count, 5);
    assert.deepEqual((await get('/markets?next_cursor=LTE%3D')).json(), { limit: 1000, count: 0, next_cursor: 'LTE=', data: [] });
    assert.equal((await get('/markets?next_cursor=nope')).statusCode, 400);
    const one = await get(`/markets/${btc.conditionId}`);
    assert.deepEqual(one.json(), m);
    const missing = await get(`/markets/0x${'ab'.repeat(32)}`);
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error, 'market_not_found');
  });

  test('tick size, neg risk, fee rate and config', async () => {
    assert.deepEqual((await get(`/tick-size?token_id=${fresh.tokenIds[0]}`)).json(), { minimum_tick_size: 0.001 });
    const negRisk = ctx.markets.list()[3]!;
    assert.deepEqual((await get(`/neg-risk?token_id=${negRisk.tokenIds[1]}`)).json(), { neg_risk: true });
    assert.deepEqual((await get(`/neg-risk?token_id=${btc.tokenIds[1]}`)).json(), { neg_risk: false });
    assert.deepEqual((await get(`/fee-rate?token_id=${btc.tokenIds[1]}`)).json(), { base_fee: 0 });
    assert.deepEqual((await get('/fee-rate')).json(), { base_fee: 0 });
    assert.equal((await get('/tick-size?token_id=5')).statusCode, 404);
    assert.equal((await get('/neg-risk')).statusCode, 400);
    const config = (await get('/config')).json();
    assert.equal(config.chainId, 31337);
    assert.equal(config.rpcUrl, null);
    assert.deepEqual(Object.keys(config.contracts), ['exchange', 'negRiskExchange', 'exchangeV2', 'negRiskExchangeV2', 'collateral', 'conditionalTokens', 'safeFactory', 'safeSingleton', 'multiSend', 'proxyFactory', 'relayHub']);
  });

  test('a 1,000-level book snapshot renders in well under a millisecond', async () => {
    const deep = await ctx.markets.create({ question: 'Deep book?', tickSize: 100n, minOrderSize: 1_000_000n });
    const book = ctx.orders.book(deep.conditionId)!;
    for (let i = 0; i < 1000; i++) {
      book.restore({ side: 'bid', price: 100_000 + i * 100, remaining: 1_000_000 + i * 7 });
      book.restore({ side: 'ask', price: 500_000 + i * 100, remaining: 2_500_000 + i });
    }
    const data = new MarketDataService(ctx);
    const json = JSON.parse(data.bookJson(deep.tokenIds[0])) as { bids: unknown[]; asks: unknown[] };
    assert.equal(json.bids.length, 1000);
    assert.equal(json.asks.length, 1000);
    for (let i = 0; i < 50; i++) data.bookJson(deep.tokenIds[i % 2]!);
    const runs = 300;
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) data.bookJson(deep.tokenIds[i % 2]!);
    const perCall = (performance.now() - t0) / runs;
    // < 1 ms on an idle machine; the bound leaves room for a loaded CI box.
    assert.ok(perCall < 3, `GET /book at 1,000 levels per side took ${perCall.toFixed(3)} ms`);
    console.log(`# book snapshot, 2 x 1000 levels: ${perCall.toFixed(3)} ms`);

    // The per-side text cache follows every change of the book.
    const newBestBid = book.restore({ side: 'bid', price: 400_000, remaining: 3_000_000 });
    book.restore({ side: 'ask', price: 500_000, remaining: 1 });
    const changed = JSON.parse(data.bookJson(deep.tokenIds[0])) as { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }>; hash: string };
    assert.equal(changed.bids.length, 1001);
    assert.deepEqual(changed.bids.at(-1), { price: '0.4', size: '3' });
    assert.deepEqual(changed.asks.at(-1), { price: '0.5', size: '2.500001' });
    assert.equal(bookHashOf(changed as unknown as Record<string, unknown>), changed.hash);
    const mirrored = JSON.parse(data.bookJson(deep.tokenIds[1])) as typeof changed;
    assert.deepEqual(mirrored.asks.at(-1), { price: '0.6', size: '3' });
    book.cancel(newBestBid);
    assert.equal((JSON.parse(data.bookJson(deep.tokenIds[0])) as typeof changed).bids.length, 1000);
  });
});
