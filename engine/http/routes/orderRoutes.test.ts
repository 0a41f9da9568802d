import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createEngine, type Engine } from '../../engine.js';
import { createL1Headers } from '../../client/createL1Headers.js';
import { createL2Headers } from '../../client/createL2Headers.js';
import { ManualClock } from '../../services/clock.js';
import type { Market } from '../../services/markets/marketService.js';
import { LOCAL_EXCHANGE_ADDRESS, POLYGON_EXCHANGE_V2_ADDRESS } from '../../protocol/contractAddresses.js';
import { accounts, signedBody, signedBodyV2, units } from '../../testkit/orderKit.js';
import { Wire } from '../wireClient.js';

const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];

interface Creds {
  key: string;
  secret: string;
  passphrase: string;
}

describe('order routes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'order-routes-'));
  const clock = new ManualClock(Date.now());
  let engine: Engine;
  let market: Market;
  const creds = new Map<string, Creds>();

  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  async function createKey(acct: PrivateKeyAccount): Promise<Creds> {
    const res = await engine.app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await createL1Headers(acct, engine.ctx.config.chainId, 0, nowSec())) } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Creds;
  }

  /** The L2 headers as the public clients send them: HMAC over timestamp + METHOD + path + exact body bytes. */
  function l2Headers(acct: PrivateKeyAccount, method: string, url: string, payload: string | undefined): Record<string, string> {
    return { 'content-type': 'application/json', ...createL2Headers(creds.get(acct.address)!, acct.address, { method, path: url, body: payload, timestamp: nowSec() }) };
  }

  const text = (body: unknown) => (body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));

  /** An L2 request through fastify (inject). */
  function l2(acct: PrivateKeyAccount, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
    const payload = text(body);
    return engine.app.inject({ method, url, headers: l2Headers(acct, method, url, payload), ...(payload === undefined ? {} : { payload }) });
  }

  /** The same request over TCP to the listening engine, on a fresh connection. */
  async function overTcp(method: string, url: string, headers: Record<string, string>, payload = ''): Promise<{ status: number; headers: Record<string, string>; json: unknown }> {
    const w = await Wire.open(port);
    try {
      let head = `${method} ${url} HTTP/1.1\r\nhost: 127.0.0.1\r\n`;
      for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
      w.write(`${head}content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      const [r] = await w.responses(1);
      return { status: r!.status, headers: r!.headers, json: JSON.parse(Buffer.from(r!.body, 'latin1').toString('utf8')) };
    } finally {
      w.close();
    }
  }

  let port: number;

  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, port: 0 }, { clock });
    port = Number(new URL((await engine.listen()).trading).port);
    market = await engine.ctx.markets.create({ question: 'Will the route tests pass?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    for (const a of [alice, bob]) {
      creds.set(a.address, await createKey(a));
      await engine.ctx.orders.creditCollateral(a.address, units(1000), 'route test');
    }
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const body = (acct: PrivateKeyAccount, over: Partial<Parameters<typeof signedBody>[1]> = {}) =>
    signedBody(acct, { market: { ...market, winner: null }, side: 'BUY', price: 500_000n, size: units(10), ...over });

  it('POST /order accepts a signed order with 201 and the placement result', async () => {
    const res = await l2(alice, 'POST', '/order', { deferExec: false, postOnly: false, ...(await body(alice)) });
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.equal(r.success, true);
    assert.equal(r.status, 'live');
    const get = await engine.app.inject({ method: 'GET', url: `/data/order/${r.order_id.toLowerCase()}` });
    assert.equal(get.statusCode, 200);
    assert.equal(get.json().status, 'open');
  });

  it('POST /order accepts salt as a decimal string', async () => {
    const res = await l2(alice, 'POST', '/order', await body(alice, { salt: '123456789012345678901234567890' }));
    assert.equal(res.statusCode, 201, res.body);
  });

  it('POST /order answers 400 with the placement result and error code when refused', async () => {
    const res = await l2(alice, 'POST', '/order', await body(alice, { size: units(1) }));
    assert.equal(res.statusCode, 400);
    const r = res.json();
    assert.equal(r.success, false);
    assert.equal(r.error, 'INVALID_ORDER_MIN_SIZE');
    assert.equal(r.error_code, 'INVALID_ORDER_MIN_SIZE');
    assert.match(r.message, /lower than the minimum/);
  });

  it('POST /order refuses an owner other than SERVICE_ADDRESS with 400 owner_address_mismatch', async () => {
    const res = await l2(alice, 'POST', '/order', await body(alice, { owner: bob.address }));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'owner_address_mismatch');
  });

  it('POST /order answers 409 while the market is paused', async () => {
    await engine.ctx.markets.pause(market.conditionId);
    try {
      const res = await l2(alice, 'POST', '/order', await body(alice));
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().error, 'condition_paused');
    } finally {
      await engine.ctx.markets.resume(market.conditionId);
    }
  });

  it('POST /order names a malformed field and refuses bad JSON and missing L2 headers', async () => {
    const bad = await body(alice);
    (bad.order as { maker: string }).maker = '0x123';
    const res = await l2(alice, 'POST', '/order', bad);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_field');
    assert.match(res.json().message, /order\.maker/);
    const missingConditionId = await body(alice);
    delete missingConditionId.order.conditionId;
    const r2 = await l2(alice, 'POST', '/order', missingConditionId);
    assert.equal(r2.statusCode, 400);
    assert.match(r2.json().message, /conditionId/);
    const json = await l2(alice, 'POST', '/order', '{"order":');
    assert.equal(json.statusCode, 400);
    assert.equal(json.json().error, 'invalid_json');
    const noAuth = await engine.app.inject({ method: 'POST', url: '/order', payload: await body(alice) });
    assert.equal(noAuth.statusCode, 401);
  });

  it('POST /order answers the same over a TCP connection to the listener as through inject, request by request', async () => {
    let stringSalts = 0;
    let wrongExchangeV2: string | undefined;
    const withoutId = (j: unknown) => ({ ...(j as object), order_id: typeof (j as { order_id?: unknown }).order_id === 'string' ? '<id>' : null });
    const cases: Array<[string, () => Promise<{ body: string | undefined; headers?: Record<string, string> }>]> = [
      ['an accepted order', async () => ({ body: text(await body(alice)) })],
      ['salt as a decimal string', async () => ({ body: text(await body(alice, { salt: String(98765432109876543210n + BigInt(++stringSalts)) })) })],
      ['a refused placement', async () => ({ body: text(await body(alice, { size: units(1) })) })],
      ['an owner mismatch', async () => ({ body: text(await body(alice, { owner: bob.address })) })],
      ['a malformed field', async () => {
        const b = await body(alice);
        (b.order as { maker: string }).maker = '0x123';
        return { body: text(b) };
      }],
      ['an unknown field', async () => ({ body: text({ ...(await body(alice)), surprise: 1 }) })],
      ['a missing field', async () => {
        const b = await body(alice);
        delete (b as { owner?: string }).owner;
        return { body: text(b) };
      }],
      ['a V2 order', async () => ({ body: text(await signedBodyV2(alice, { market: { ...market, winner: null }, side: 'BUY', price: 480_000n, size: units(5) })) })],
      ['a V2 order with a malformed metadata', async () => {
        const b = await signedBodyV2(alice, { market: { ...market, winner: null }, side: 'BUY', price: 480_000n, size: units(5) });
        (b.order as { metadata: string }).metadata = '0x12';
        return { body: text(b) };
      }],
      ['a V2 order with a nonce (a V1-only field)', async () => {
        const b = await signedBodyV2(alice, { market: { ...market, winner: null }, side: 'BUY', price: 480_000n, size: units(5) });
        (b.order as { nonce?: string }).nonce = '0';
        return { body: text(b) };
      }],
      // Refused, so never stored: the same bytes twice (the message names the address it recovers).
      ['a V2 order signed for the V1 exchange', async () => ({ body: (wrongExchangeV2 ??= text(await signedBodyV2(alice, { market: { ...market, winner: null }, side: 'BUY', price: 480_000n, size: units(5), verifyingContract: LOCAL_EXCHANGE_ADDRESS }))) })],
      ['bad JSON', async () => ({ body: '{"order":' })],
      ['a blank body', async () => ({ body: '  ' })],
      ['no L2 headers', async () => ({ body: text(await body(alice)), headers: { 'content-type': 'application/json' } })],
      ['a wrong L2 signature', async () => {
        const payload = text(await body(alice))!;
        return { body: payload, headers: { ...l2Headers(alice, 'POST', '/order', payload), SERVICE_SIGNATURE: 'AAAA' + l2Headers(alice, 'POST', '/order', payload).SERVICE_SIGNATURE!.slice(4) } };
      }],
    ];
    for (const [name, make] of cases) {
      const a = await make();
      const b = await make();
      const viaFastify = await engine.app.inject({ method: 'POST', url: '/order', headers: a.headers ?? l2Headers(alice, 'POST', '/order', a.body), ...(a.body === undefined ? {} : { payload: a.body }) });
      const viaTcp = await overTcp('POST', '/order', b.headers ?? l2Headers(alice, 'POST', '/order', b.body), b.body);
      assert.equal(viaTcp.status, viaFastify.statusCode, `${name}: status`);
      assert.deepEqual(withoutId(viaTcp.json), withoutId(viaFastify.json()), `${name}: body`);
    }
    await engine.ctx.markets.pause(market.conditionId);
    try {
      const payload = text(await body(alice))!;
      const paused = await overTcp('POST', '/order', l2Headers(alice, 'POST', '/order', payload), payload);
      assert.equal(paused.status, 409);
      assert.equal((paused.json as { error: string }).error, 'condition_paused');
    } finally {
      await engine.ctx.markets.resume(market.conditionId);
    }
  });

  it('the default profile verifies V2 orders against the local V2 exchange (GET /config exchangeV2): one fills a V1 order, one signed for the public V2 exchange is refused naming the domain', async () => {
    const config = (await engine.app.inject({ method: 'GET', url: '/config' })).json() as { contracts: { exchangeV2: string } };
    const own = { ...(await engine.ctx.markets.create({ question: 'Will V2 orders rest here too?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false })), winner: null };
    const resting = await l2(bob, 'POST', '/order', await signedBody(bob, { market: own, side: 'BUY', price: 300_000n, size: units(5) }));
    assert.equal(resting.statusCode, 201, resting.body);
    const v2 = await signedBodyV2(alice, { market: own, outcome: 1, side: 'BUY', price: 700_000n, size: units(5) });
    const taken = await l2(alice, 'POST', '/order', v2);
    assert.equal(taken.statusCode, 201, taken.body);
    assert.equal(taken.json().status, 'matched');
    const record = (await engine.app.inject({ method: 'GET', url: `/data/order/${taken.json().order_id}` })).json() as { status: string; sizeMatched: string };
    assert.equal(record.status, 'filled');
    assert.equal((await engine.app.inject({ method: 'GET', url: `/data/order/${resting.json().order_id}` })).json().status, 'filled');

    const publicDomain = await signedBodyV2(alice, { market: own, side: 'BUY', price: 100_000n, size: units(5), verifyingContract: POLYGON_EXCHANGE_V2_ADDRESS });
    const refused = await l2(alice, 'POST', '/order', publicDomain);
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error, 'INVALID_ORDER_ERROR');
    assert.match(refused.json().message, new RegExp(`version "2", chainId ${engine.ctx.config.chainId}, verifyingContract ${config.contracts.exchangeV2}`));
    const wrongVersion = await signedBodyV2(alice, { market: own, side: 'BUY', price: 100_000n, size: units(5), domainVersion: '1' });
    const refusedVersion = await l2(alice, 'POST', '/order', wrongVersion);
    assert.match(refusedVersion.json().message, /signed for domain version "1"/);
  });

  it('GET routes on the listening engine still answer through fastify', async () => {
    const r = await overTcp('GET', `/book?token_id=${market.tokenIds[0]}`, {});
    assert.equal(r.status, 200);
    assert.equal((r.json as { asset_id: string }).asset_id, market.tokenIds[0]);
  });

  it('POST /orders places a batch (200, one result per entry) and refuses more than 15 entries', async () => {
    const entries = [await body(alice, { price: 300_000n }), await body(alice, { size: units(1) })];
    const res = await l2(alice, 'POST', '/orders', entries);
    assert.equal(res.statusCode, 200, res.body);
    const results = res.json();
    assert.equal(results.length, 2);
    assert.equal(results[0].success, true);
    assert.equal(results[1].error_code, 'INVALID_ORDER_MIN_SIZE');
    const one = await body(alice);
    const big = await l2(alice, 'POST', '/orders', Array(16).fill(one));
    assert.equal(big.statusCode, 400);
    assert.equal(big.json().error, 'invalid_batch_size');
    assert.equal(big.json().message, 'batch supports at most 15 orders (got 16); split it into several requests.');
    const empty = await l2(alice, 'POST', '/orders', []);
    assert.equal(empty.statusCode, 400);
    const mismatch = await l2(alice, 'POST', '/orders', [one, await body(alice, { owner: bob.address })]);
    assert.equal(mismatch.statusCode, 400);
    assert.equal(mismatch.json().error, 'owner_address_mismatch');
  });

  it('DELETE /order cancels by orderID or orderId; DELETE /orders, /cancel-market-orders and /cancel-all too', async () => {
    const place = async () => (await l2(bob, 'POST', '/order', await body(bob, { price: 200_000n }))).json().order_id as string;
    const a = await place();
    const r1 = await l2(bob, 'DELETE', '/order', { orderID: a });
    assert.equal(r1.statusCode, 200);
    assert.deepEqual(r1.json(), { canceled: [a], not_canceled: {} });
    const b = await place();
    assert.deepEqual((await l2(bob, 'DELETE', '/order', { orderId: b })).json().canceled, [b]);
    const missing = await l2(bob, 'DELETE', '/order');
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().message, /orderID/);
    const c = await place();
    const many = await l2(bob, 'DELETE', '/orders', [c, a]);
    assert.deepEqual(many.json(), { canceled: [c], not_canceled: { [a]: 'the order is already canceled' } });
    const d = await place();
    const byMarket = await l2(bob, 'DELETE', '/cancel-market-orders', { market: market.conditionId });
    assert.deepEqual(byMarket.json().canceled, [d]);
    const e = await place();
    const all = await l2(bob, 'DELETE', '/cancel-all');
    assert.deepEqual(all.json().canceled, [e]);
  });

  it('POST /data/orders/lookup answers 207 with one entry per request entry, without authentication', async () => {
    const id = (await l2(alice, 'POST', '/order', await body(alice, { price: 100_000n }))).json().order_id as string;
    const res = await engine.app.inject({ method: 'POST', url: '/data/orders/lookup', payload: [{ orderId: id }, { orderId: '' }, { orderId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }] });
    assert.equal(res.statusCode, 207);
    assert.deepEqual(res.json().map((e: { status: number }) => e.status), [200, 400, 404]);
    const unknown = await engine.app.inject({ method: 'GET', url: '/data/order/01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'order_not_found');
  });

  it('GET /data/orders/history lists every order of the caller newest first, cancelled ones with their reason, and needs L2', async () => {
    const resting = (await l2(alice, 'POST', '/order', await body(alice, { price: 150_000n }))).json().order_id as string;
    const cancelled = (await l2(alice, 'POST', '/order', await body(alice, { price: 160_000n }))).json().order_id as string;
    await l2(alice, 'DELETE', '/order', { orderID: cancelled });
    const res = await l2(alice, 'GET', '/data/orders/history');
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as { data: Array<{ id: string; status: string; owner: string; cancelReason: string | null }> };
    const ids = page.data.map((o) => o.id);
    assert.ok(ids.indexOf(cancelled) < ids.indexOf(resting) && ids.indexOf(resting) >= 0, 'newest first');
    assert.deepEqual(page.data.find((o) => o.id === cancelled)!.cancelReason, 'cancelled by owner');
    assert.equal(page.data.find((o) => o.id === cancelled)!.status, 'cancelled');
    assert.equal(page.data.find((o) => o.id === resting)!.cancelReason, null);
    assert.ok(page.data.every((o) => o.owner === alice.address.toLowerCase()), 'only the caller’s orders');
    const noAuth = await engine.app.inject({ method: 'GET', url: '/data/orders/history' });
    assert.equal(noAuth.statusCode, 401);
  });

  it('GET /data/orders and GET /data/trades page with next_cursor and need L2', async () => {
    await l2(bob, 'POST', '/order', await body(bob, { outcome: 1, price: 600_000n, orderType: 'FAK' }));
    const open = await l2(alice, 'GET', `/data/orders?market=${market.conditionId}&next_cursor=MA%3D%3D`);
    assert.equal(open.statusCode, 200, open.body);
    assert.equal(open.json().next_cursor, 'LTE=');
    assert.ok(open.json().data.every((o: { owner: string }) => o.owner === alice.address.toLowerCase()));
    const trades = await l2(bob, 'GET', '/data/trades');
    assert.equal(trades.statusCode, 200, trades.body);
    assert.ok(trades.json().count >= 1);
    assert.equal(trades.json().data[0].trader_side, 'TAKER');
    const noAuth = await engine.app.inject({ method: 'GET', url: '/data/orders' });
    assert.equal(noAuth.statusCode, 401);
    const badQuery = await l2(alice, 'GET', '/data/trades?before=yesterday');
    assert.equal(badQuery.statusCode, 400);
  });

  it('GET /balance-allowance reports balance, allowance and reserved; POST /redeem needs a resolved market', async () => {
    const res = await l2(alice, 'GET', '/balance-allowance?asset_type=COLLATERAL&signature_type=0');
    assert.equal(res.statusCode, 200, res.body);
    const b = res.json();
    assert.match(b.balance, /^\d+$/);
    assert.equal(b.allowance, b.balance);
    assert.match(b.reserved, /^\d+$/);
    const bad = await l2(alice, 'GET', '/balance-allowance?asset_type=SHARES');
    assert.equal(bad.statusCode, 400);
    const redeem = await l2(alice, 'POST', '/redeem', { conditionId: market.conditionId });
    assert.equal(redeem.statusCode, 409);
    assert.equal(redeem.json().error, 'market_not_resolved');
  });
});
