import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createDataFixture, type DataFixture } from '../../testkit/dataKit.js';
import type { Market } from '../../services/markets/marketService.js';
import { buildApp } from '../app.js';

const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const u = (n: number) => BigInt(Math.round(n * 1e6));

describe('data service routes under /data-api', () => {
  let fx: DataFixture;
  let app: FastifyInstance;
  let m: Market;

  before(async () => {
    fx = await createDataFixture();
    m = await fx.createMarket('Route market', { eventId: 3 });
    await fx.fill({ conditionId: m.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.3), size: u(25) });
    app = await buildApp(fx.ctx);
  });
  after(async () => {
    await app.close();
    fx.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('answers the health check with {"data":"OK"}', async () => {
    for (const url of ['/data-api', '/data-api/']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { data: 'OK' });
    }
  });

  it('serves positions with numbers as JSON numbers and the address lower-cased', async () => {
    const res = await get(`/data-api/positions?user=${A.toUpperCase().replace('0X', '0x')}`);
    assert.equal(res.statusCode, 200);
    const [row] = res.json() as Array<Record<string, unknown>>;
    assert.equal(row?.proxyWallet, A);
    assert.equal(row?.size, 25);
    assert.equal(row?.avgPrice, 0.7);
    assert.equal(row?.eventId, '3');
    assert.match(res.headers['content-type'] as string, /application\/json/);
  });

  it('serves holders grouped per outcome, and [] (never null) for limit=0', async () => {
    const res = await get(`/data-api/holders?market=${m.conditionId}`);
    assert.equal(res.statusCode, 200);
    const groups = res.json() as Array<{ token: string; holders: Array<{ proxyWallet: string; asset: string; amount: number }> }>;
    assert.deepEqual(groups.map((g) => g.token), [`${m.conditionId}:0`, `${m.conditionId}:1`]);
    assert.deepEqual(groups[0]!.holders.map((h) => [h.proxyWallet, h.asset, h.amount]), [[A, m.tokenIds[0], 25]]);
    const empty = await get(`/data-api/holders?market=${m.conditionId}&limit=0`);
    assert.equal(empty.statusCode, 200);
    assert.equal(empty.body, '[]');
  });

  it('answers a malformed market with 400 invalid_query naming the parameter and the value', async () => {
    const res = await get('/data-api/holders?market=0xnothex');
    assert.equal(res.statusCode, 400);
    const body = res.json() as { error: string; message: string };
    assert.equal(body.error, 'invalid_query');
    assert.match(body.message, /'market'/);
    assert.match(body.message, /0xnothex/);
  });

  it('answers out-of-range limits and unknown enums with 400, never a 500', async () => {
    for (const url of [
      `/data-api/holders?market=${m.conditionId}&limit=501`,
      `/data-api/positions?user=${A}&limit=abc`,
      `/data-api/positions?user=${A}&sortBy=NOPE`,
      `/data-api/trades?filterType=CASH`,
      `/data-api/activity?user=${A}&market=${m.conditionId}&eventId=3`,
      '/data-api/live-volume',
      '/data-api/v1/builders/leaderboard?timePeriod=YEAR',
      '/data-api/value',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, url);
      assert.equal((res.json() as { error: string }).error, 'invalid_query', url);
    }
  });

  it('serves every listed route with its public shape', async () => {
    const cases: Array<[string, (b: unknown) => void]> = [
      [`/data-api/closed-positions?user=${A}`, (b) => assert.deepEqual(b, [])],
      [`/data-api/value?user=${A}`, (b) => assert.deepEqual(b, [{ user: A, value: 17.5 }])], // 25 × the last trade, 0.7
      [`/data-api/traded?user=${A}`, (b) => assert.deepEqual(b, { user: A, traded: 1 })],
      ['/data-api/oi', (b) => assert.deepEqual(b, [{ market: 'GLOBAL', value: 25 }])],
      ['/data-api/live-volume?id=3', (b) => assert.deepEqual(b, [{ total: 17.5, markets: [{ market: m.conditionId, value: 17.5 }] }])],
      ['/data-api/trades?limit=1', (b) => assert.equal((b as Array<{ price: number }>)[0]?.price, 0.7)],
      [`/data-api/activity?user=${B}`, (b) => assert.equal((b as Array<{ type: string }>)[0]?.type, 'TRADE')],
      ['/data-api/v1/builders/leaderboard?timePeriod=WEEK&limit=10', (b) => assert.deepEqual(b, [])],
      ['/data-api/v1/builders/volume?timePeriod=MONTH', (b) => assert.deepEqual(b, [])],
    ];
    for (const [url, check] of cases) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      check(res.json());
    }
  });

  it('documents the data routes and their parameters in the OpenAPI document', async () => {
    const res = await get('/openapi.json');
    assert.equal(res.statusCode, 200);
    const doc = res.json() as { paths: Record<string, { get?: { tags?: string[]; parameters?: Array<{ name: string; in: string }> } }> };
    const holders = doc.paths['/data-api/holders']?.get;
    assert.deepEqual(holders?.tags, ['data']);
    assert.deepEqual(holders?.parameters?.map((p) => p.name).sort(), ['limit', 'market', 'minBalance']);
    for (const path of ['/data-api/positions', '/data-api/closed-positions', '/data-api/trades', '/data-api/activity', '/data-api/v1/builders/volume']) {
      assert.ok(doc.paths[path]?.get, path);
    }
  });
});
