import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { PrivateKeyAccount } from 'viem/accounts';
import { ExchangeClient } from '../../client/exchangeClient.js';
import { createL1Headers } from '../../client/createL1Headers.js';
import { createL2Headers } from '../../client/createL2Headers.js';
import { ManualClock } from '../../services/clock.js';
import type { EngineContext } from '../engineContext.js';
import type { Market } from '../../services/markets/marketService.js';
import { accounts, signedBody, units } from '../../testkit/orderKit.js';
import { startTestEngine } from '../../testkit/engineKit.js';

const [alice, bob, carol] = accounts as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
const UNKNOWN_ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const UNKNOWN_CONDITION = '0x' + 'ab'.repeat(32);

interface Creds {
  key: string;
  secret: string;
  passphrase: string;
}

describe('compatibility routes (v2 client, listings, notifications, scoring, heartbeats)', () => {
  const clock = new ManualClock(Date.now());
  let app: FastifyInstance;
  let ctx: EngineContext;
  let close: () => Promise<void>;
  let market: Market;
  let other: Market;
  const nonces = new Map<string, bigint>();

  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  async function createKey(acct: PrivateKeyAccount): Promise<Creds> {
    const nonce = nonces.get(acct.address) ?? 0n;
    nonces.set(acct.address, nonce + 1n);
    const res = await app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await createL1Headers(acct, ctx.config.chainId, nonce, nowSec())) } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Creds;
  }

  /** An L2 request as the public clients send it (HMAC over timestamp + METHOD + path + exact body). */
  function l2(acct: PrivateKeyAccount, c: Creds, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...createL2Headers(c, acct.address, { method, path: url, body: payload, timestamp: nowSec() }) };
    return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }

  const creds = new Map<string, Creds>();
  const as = (acct: PrivateKeyAccount) => ({
    get: (url: string) => l2(acct, creds.get(acct.address)!, 'GET', url),
    post: (url: string, body?: unknown) => l2(acct, creds.get(acct.address)!, 'POST', url, body),
    del: (url: string, body?: unknown) => l2(acct, creds.get(acct.address)!, 'DELETE', url, body),
  });

  /** Places a resting GTC bid (nothing crosses at these prices) and returns its id. */
  async function rest(acct: PrivateKeyAccount, price = 100_000n, c: Creds = creds.get(acct.address)!): Promise<string> {
    const res = await l2(acct, c, 'POST', '/order', await signedBody(acct, { market: { ...market, winner: null }, side: 'BUY', price, size: units(10) }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json().order_id as string;
  }

  const statusOf = async (id: string) => (await app.inject({ method: 'GET', url: `/data/order/${id}` })).json().status as string;

  before(async () => {
    ({ app, ctx, close } = await startTestEngine(clock));
    market = await ctx.markets.create({ question: 'Will the compat routes pass?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    other = await ctx.markets.create({ question: 'A neg-risk market with a finer tick', tickSize: 1_000n, minOrderSize: 2_500_000n, negRisk: true, outcomes: ['Up', 'Down'] }, { waitForChain: false });
    for (const a of [alice, bob, carol]) {
      creds.set(a.address, await createKey(a));
      await ctx.orders.creditCollateral(a.address, units(1000), 'compat test');
    }
  });
  after(() => close());

  // ── public routes ─────────────────────────────────────────────────────────────────────────────

  it('GET /ok answers the JSON string "OK" like GET /, and GET /version answers {"version":1}', async () => {
    const ok = await app.inject({ method: 'GET', url: '/ok' });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.body, '"OK"');
    assert.match(String(ok.headers['content-type']), /application\/json/);
    const version = await app.inject({ method: 'GET', url: '/version' });
    assert.deepEqual(version.json(), { version: 1 });
  });

  it('GET /markets-by-token/{token_id} names the condition of either token; bad ids get 400, unknown ones 404', async () => {
    for (const t of market.tokenIds) {
      const r = await app.inject({ method: 'GET', url: `/markets-by-token/${t}` });
      assert.equal(r.statusCode, 200);
      assert.deepEqual(r.json(), { condition_id: market.conditionId });
    }
    const bad = await app.inject({ method: 'GET', url: '/markets-by-token/abc' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_query');
    assert.match(bad.json().message, /token_id/);
    const unknown = await app.inject({ method: 'GET', url: '/markets-by-token/12345' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'token_not_found');
    assert.match(unknown.json().message, /No orderbook exists for the requested token id 12345/);
  });

  it('GET /clob-markets/{condition_id} answers the compact form with the market’s real values', async () => {
    const r = await app.inject({ method: 'GET', url: `/clob-markets/${market.conditionId.toUpperCase().replace('0X', '0x')}` });
    assert.equal(r.statusCode, 200, r.body);
    assert.deepEqual(r.json(), {
      c: market.conditionId,
      t: [
        { t: market.tokenIds[0], o: 'Yes' },
        { t: market.tokenIds[1], o: 'No' },
      ],
      mts: 0.01,
      nr: false,
      mos: 5,
      fd: { r: 0, e: 0 },
      r: null,
      mbf: 0,
      tbf: 0,
    });
    const neg = (await app.inject({ method: 'GET', url: `/clob-markets/${other.conditionId}` })).json();
    assert.equal(neg.mts, 0.001);
    assert.equal(String(neg.mts), '0.001', 'the v2 client caches mts.toString() as the tick size');
    assert.equal(neg.mos, 2.5);
    assert.equal(neg.nr, true);
    assert.deepEqual(neg.t.map((x: { o: string }) => x.o), ['Up', 'Down']);
  });

  it('GET /clob-markets/{condition_id} answers 404 market not found for an unknown id and 400 for a malformed one', async () => {
    const unknown = await app.inject({ method: 'GET', url: `/clob-markets/${UNKNOWN_CONDITION}` });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'market_not_found');
    assert.match(unknown.json().message, /^market not found: no market has condition id 0xabab/);
    const bad = await app.inject({ method: 'GET', url: '/clob-markets/0x1234' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_query');
    assert.match(bad.json().message, /condition_id.*0x \+ 64 hex/);
  });

  it('GET /simplified-markets pages every market with the simplified fields only', async () => {
    const r = await app.inject({ method: 'GET', url: '/simplified-markets' });
    assert.equal(r.statusCode, 200);
    const page = r.json();
    assert.equal(page.limit, 1000);
    assert.equal(page.count, 2);
    assert.equal(page.next_cursor, 'LTE=');
    // The public simplified fields, plus this exchange's `mirror` (null for a local market, decisions §10).
    assert.deepEqual(Object.keys(page.data[0]), ['condition_id', 'tokens', 'rewards', 'active', 'closed', 'archived', 'accepting_orders', 'mirror']);
    assert.equal(page.data[0].mirror, null);
    assert.deepEqual(page.data.map((m: { condition_id: string }) => m.condition_id), [market.conditionId, other.conditionId]);
    assert.deepEqual(page.data[0].tokens[0], { token_id: market.tokenIds[0], outcome: 'Yes', price: 0.5, winner: false });
    const first = await app.inject({ method: 'GET', url: '/simplified-markets?next_cursor=MA%3D%3D' });
    assert.deepEqual(first.json(), page);
    const end = await app.inject({ method: 'GET', url: '/simplified-markets?next_cursor=LTE%3D' });
    assert.deepEqual(end.json(), { limit: 1000, count: 0, next_cursor: 'LTE=', data: [] });
    const bad = await app.inject({ method: 'GET', url: '/simplified-markets?next_cursor=nope' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /next_cursor/);
  });

  it('GET /sampling-markets and /sampling-simplified-markets list only the markets that accept orders now', async () => {
    const ids = async (url: string) => (await app.inject({ method: 'GET', url })).json().data.map((m: { condition_id: string }) => m.condition_id);
    assert.deepEqual(await ids('/sampling-markets'), [market.conditionId, other.conditionId]);
    await ctx.markets.pause(other.conditionId);
    try {
      assert.deepEqual(await ids('/sampling-markets'), [market.conditionId]);
      assert.deepEqual(await ids('/sampling-simplified-markets'), [market.conditionId]);
      const full = (await app.inject({ method: 'GET', url: '/sampling-markets' })).json().data[0];
      assert.equal(full.question, 'Will the compat routes pass?', 'sampling-markets rows are full Market records');
      const simple = (await app.inject({ method: 'GET', url: '/sampling-simplified-markets' })).json().data[0];
      assert.equal(simple.question, undefined);
      assert.equal(simple.accepting_orders, true);
      await ctx.markets.pause();
      assert.deepEqual(await ids('/sampling-markets'), [], 'the global breaker stops every market');
    } finally {
      await ctx.markets.resume();
      await ctx.markets.resume(other.conditionId);
    }
    const bad = await app.inject({ method: 'GET', url: '/sampling-simplified-markets?next_cursor=%25%25' });
    assert.equal(bad.statusCode, 400);
  });

  // ── L2 routes ─────────────────────────────────────────────────────────────────────────────────

  it('every L2 compatibility route answers 401 without authentication headers', async () => {
    for (const [method, url] of [
      ['GET', '/notifications'],
      ['DELETE', '/notifications?ids=1'],
      ['GET', `/order-scoring?order_id=${UNKNOWN_ULID}`],
      ['POST', '/orders-scoring'],
      ['POST', '/v1/heartbeats'],
    ] as const) {
      const r = await app.inject({ method, url, ...(method === 'POST' ? { payload: url === '/orders-scoring' ? [UNKNOWN_ULID] : { heartbeat_id: null } } : {}) });
      assert.equal(r.statusCode, 401, `${method} ${url}`);
      assert.equal(r.json().error, 'missing_auth_headers');
    }
  });

  it('GET /notifications answers [] and takes the clients’ signature_type; a bad one is a 400', async () => {
    const r = await as(alice).get('/notifications?signature_type=0');
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), []);
    assert.deepEqual((await as(alice).get('/notifications')).json(), []);
    const bad = await as(alice).get('/notifications?signature_type=9');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_query');
    assert.match(bad.json().message, /signature_type/);
  });

  it('DELETE /notifications?ids=a,b answers []; missing, empty, malformed or too many ids are a 400 naming ids', async () => {
    const r = await as(alice).del('/notifications?ids=1,2');
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), []);
    for (const url of ['/notifications', '/notifications?ids=', '/notifications?ids=1,,2', '/notifications?ids=a%20b', `/notifications?ids=${Array.from({ length: 101 }, (_, i) => i).join(',')}`]) {
      const bad = await as(alice).del(url);
      assert.equal(bad.statusCode, 400, url);
      assert.equal(bad.json().error, 'invalid_query', url);
      assert.match(bad.json().message, /'ids'/, url);
    }
  });

  it('GET /order-scoring answers {"scoring":false} for an order in any case; bad ids 400, unknown ones 404', async () => {
    const id = await rest(alice);
    for (const q of [id, id.toLowerCase()]) {
      const r = await as(alice).get(`/order-scoring?order_id=${q}`);
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json(), { scoring: false });
    }
    const missing = await as(alice).get('/order-scoring');
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().message, /order_id/);
    const bad = await as(alice).get('/order-scoring?order_id=0xabc');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_query');
    assert.match(bad.json().message, /ULID/);
    const unknown = await as(alice).get(`/order-scoring?order_id=${UNKNOWN_ULID}`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'order_not_found');
    await as(alice).del('/cancel-all');
  });

  it('POST /orders-scoring answers false per id as sent; empty, malformed or unknown ids are refused', async () => {
    const a = await rest(alice);
    const b = await rest(bob);
    const r = await as(alice).post('/orders-scoring', [a, b.toLowerCase(), a]);
    assert.equal(r.statusCode, 200, r.body);
    assert.deepEqual(r.json(), { [a]: false, [b.toLowerCase()]: false });
    const empty = await as(alice).post('/orders-scoring', []);
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().error, 'invalid_field');
    const bad = await as(alice).post('/orders-scoring', [a, 'nope']);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /'\[1\]' must be an order id/);
    const notArray = await as(alice).post('/orders-scoring', { orderIds: [a] });
    assert.equal(notArray.statusCode, 400);
    const unknown = await as(alice).post('/orders-scoring', [a, UNKNOWN_ULID]);
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'order_not_found');
    assert.deepEqual(unknown.json().details, { unknown: [UNKNOWN_ULID] });
    await as(alice).del('/cancel-all');
    await as(bob).del('/cancel-all');
  });

  // ── heartbeats ────────────────────────────────────────────────────────────────────────────────

  it("POST /v1/heartbeats: a silent key's owner loses every resting order after 10 s; a beating key, a never-beating key and other owners keep theirs", async () => {
    // alice arms the switch with one key and rests orders through two keys; carol arms and keeps beating; bob never beats.
    const aliceSecondKey = await createKey(alice);
    const start = await as(alice).post('/v1/heartbeats', { heartbeat_id: null });
    assert.equal(start.statusCode, 200, start.body);
    const aliceHb = start.json().heartbeat_id as string;
    assert.match(aliceHb, /^[0-9a-f-]{36}$/);
    const carolHb = (await as(carol).post('/v1/heartbeats', { heartbeat_id: null })).json().heartbeat_id as string;
    const aliceOrders = [await rest(alice), await rest(alice, 110_000n, aliceSecondKey)];
    const bobOrder = await rest(bob);
    const carolOrder = await rest(carol);

    clock.advance(6_000);
    assert.deepEqual((await as(carol).post('/v1/heartbeats', { heartbeat_id: carolHb })).json(), { heartbeat_id: carolHb });
    clock.advance(4_000);
    // Exactly 10 s of silence is still in time.
    assert.deepEqual(await ctx.heartbeats.sweep(), []);
    clock.advance(1);
    const fired = await ctx.heartbeats.sweep();
    assert.equal(fired.length, 1);
    assert.equal(fired[0]!.address, alice.address.toLowerCase());
    assert.deepEqual([...fired[0]!.canceled].sort(), [...aliceOrders].sort());
    for (const id of aliceOrders) assert.equal(await statusOf(id), 'cancelled');
    assert.equal(await statusOf(bobOrder), 'open', 'a key that never sent a heartbeat is never auto-cancelled');
    assert.equal(await statusOf(carolOrder), 'open', 'a key that keeps beating keeps its orders');

    // carol keeps beating well past alice's deadline.
    for (let i = 0; i < 4; i++) {
      clock.advance(i === 0 ? 5_000 : 9_000);
      assert.equal((await as(carol).post('/v1/heartbeats', { heartbeat_id: carolHb })).statusCode, 200);
      assert.deepEqual(await ctx.heartbeats.sweep(), []);
    }
    assert.equal(await statusOf(carolOrder), 'open');

    // The dead id is refused with what happened; null starts a fresh session.
    const stale = await as(alice).post('/v1/heartbeats', { heartbeat_id: aliceHb });
    assert.equal(stale.statusCode, 400);
    assert.equal(stale.json().error, 'invalid_heartbeat_id');
    assert.equal(stale.json().heartbeat_id, null);
    assert.match(stale.json().message, /^Invalid Heartbeat ID: session .* expired at .*2 resting order\(s\).*\{"heartbeat_id":null\}/);
    const again = await as(alice).post('/v1/heartbeats', { heartbeat_id: null });
    assert.equal(again.statusCode, 200);
    assert.notEqual(again.json().heartbeat_id, aliceHb);

    // Disarm everyone for the tests that follow: their sessions expire with nothing left to cancel.
    await as(bob).del('/cancel-all');
    await as(carol).del('/cancel-all');
    clock.advance(10_001);
    await ctx.heartbeats.sweep();
    assert.equal(ctx.heartbeats.size, 0);
  });

  it('POST /v1/heartbeats: a beat that arrives after the deadline does not rescue the orders', async () => {
    const hb = (await as(bob).post('/v1/heartbeats', {})).json().heartbeat_id as string;
    const id = await rest(bob);
    clock.advance(10_500);
    const late = await as(bob).post('/v1/heartbeats', { heartbeat_id: hb });
    assert.equal(late.statusCode, 400);
    assert.match(late.json().message, /expired/);
    assert.equal(await statusOf(id), 'cancelled');
  });

  it('POST /v1/heartbeats: null joins the live session; no body starts one; wrong ids and fields are a 400 naming the problem', async () => {
    const noBody = await as(carol).post('/v1/heartbeats');
    assert.equal(noBody.statusCode, 200, noBody.body);
    const hb = noBody.json().heartbeat_id as string;
    assert.deepEqual((await as(carol).post('/v1/heartbeats', { heartbeat_id: null })).json(), { heartbeat_id: hb }, 'null joins the live session');
    assert.deepEqual((await as(carol).post('/v1/heartbeats', { heartbeat_id: '' })).json(), { heartbeat_id: hb }, '"" (clob-client-v2 default) too');

    const wrong = await as(carol).post('/v1/heartbeats', { heartbeat_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().error, 'invalid_heartbeat_id');
    assert.equal(wrong.json().heartbeat_id, hb, 'the 400 carries the live session id to resume with');
    assert.match(wrong.json().message, new RegExp(`its live session is ${hb}`));

    // Another key's session id is not this key's.
    const none = await as(alice).post('/v1/heartbeats', { heartbeat_id: hb });
    assert.equal(none.statusCode, 400);
    assert.match(none.json().message, /has none running/);

    const extra = await as(carol).post('/v1/heartbeats', { heartbeat_id: hb, interval: 5 });
    assert.equal(extra.statusCode, 400);
    assert.equal(extra.json().error, 'invalid_field');
    assert.match(extra.json().message, /'interval' is not a known field/);
    const badType = await as(carol).post('/v1/heartbeats', { heartbeat_id: { id: hb } });
    assert.equal(badType.statusCode, 400);
    assert.match(badType.json().message, /heartbeat_id/);
    const badJson = await as(carol).post('/v1/heartbeats', '{"heartbeat_id":');
    assert.equal(badJson.statusCode, 400);
    assert.equal(badJson.json().error, 'invalid_json');
    clock.advance(10_001);
    await ctx.heartbeats.sweep();
  });

  // ── documentation and client ──────────────────────────────────────────────────────────────────

  it('every compatibility route appears in /openapi.json', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const expected: Array<[string, string]> = [
      ['/ok', 'get'],
      ['/version', 'get'],
      ['/markets-by-token/{token_id}', 'get'],
      ['/clob-markets/{condition_id}', 'get'],
      ['/simplified-markets', 'get'],
      ['/sampling-markets', 'get'],
      ['/sampling-simplified-markets', 'get'],
      ['/notifications', 'get'],
      ['/notifications', 'delete'],
      ['/order-scoring', 'get'],
      ['/orders-scoring', 'post'],
      ['/v1/heartbeats', 'post'],
    ];
    for (const [path, method] of expected) assert.ok(doc.paths[path]?.[method], `missing ${method.toUpperCase()} ${path}`);
  });

  it('the client library reaches every compatibility route', async () => {
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(input));
      const r = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: u.pathname + u.search,
        headers: (init?.headers ?? {}) as Record<string, string>,
        ...(init?.body === undefined ? {} : { payload: init.body as string }),
      });
      return new Response(r.body, { status: r.statusCode });
    }) as typeof fetch;
    // The client stamps L2 headers with its own clock: line the engine's clock up with it.
    clock.set(Date.now());
    const client = new ExchangeClient({ baseUrl: 'http://engine.test', signer: bob, creds: creds.get(bob.address)!, fetch: fetchImpl });
    assert.equal(await client.ok(), 'OK');
    assert.deepEqual(await client.getVersion(), { version: 1 });
    assert.deepEqual(await client.getMarketByToken(market.tokenIds[1]), { condition_id: market.conditionId });
    assert.equal((await client.getClobMarketInfo(market.conditionId)).mts, 0.01);
    assert.equal((await client.getSimplifiedMarkets()).count, 2);
    assert.equal((await client.getSamplingMarkets()).count, 2);
    assert.equal((await client.getSamplingSimplifiedMarkets()).count, 2);
    assert.deepEqual(await client.getNotifications(), []);
    assert.deepEqual(await client.dropNotifications(['1', '2']), []);
    const id = await rest(bob);
    assert.deepEqual(await client.isOrderScoring(id), { scoring: false });
    assert.deepEqual(await client.areOrdersScoring([id]), { [id]: false });
    const { heartbeat_id } = await client.postHeartbeat();
    assert.deepEqual(await client.postHeartbeat(heartbeat_id), { heartbeat_id });
    await assert.rejects(client.postHeartbeat('not-mine'), (e: Error & { status?: number }) => e.status === 400);
    await client.cancelAll();
  });
});
