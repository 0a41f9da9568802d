import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../services/clock.js';
import type { EngineContext } from '../engineContext.js';
import { startTestEngine } from '../../testkit/engineKit.js';

describe('operator routes', () => {
  let ctx: EngineContext;
  let close: () => Promise<void>;
  let app: FastifyInstance;
  let auth: Record<string, string>;

  before(async () => {
    ({ ctx, app, close } = await startTestEngine(new ManualClock(1_800_000_000_000), { rateLimits: false }));
    auth = { authorization: `Bearer ${ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
  });
  after(() => close());

  const post = (url: string, body?: unknown, headers = auth) => app.inject({ method: 'POST', url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  const create = (body: Record<string, unknown>) => post('/admin/markets', { question: 'Will it rain tomorrow?', tickSize: '0.01', minOrderSize: '5', ...body });

  test('every operator route needs the bearer token', async () => {
    for (const url of ['/admin/markets', '/admin/pause', '/admin/resume', '/admin/faucet', `/admin/markets/0x${'00'.repeat(32)}/resolve`]) {
      const none = await post(url, {}, { 'content-type': 'application/json' });
      assert.equal(none.statusCode, 401, url);
      assert.equal(none.json().error, 'operator_unauthorized');
      assert.match(none.json().message, /Authorization: Bearer/);
      const wrong = await post(url, {}, { authorization: 'Bearer nope', 'content-type': 'application/json' });
      assert.equal(wrong.statusCode, 401);
      assert.match(wrong.json().message, /wrong/);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/admin/pause' })).statusCode, 401);
  });

  test('GET /admin/stats shows the order path counters to the operator only', async () => {
    assert.equal((await app.inject({ method: 'GET', url: '/admin/stats' })).statusCode, 401);
    const before = (await app.inject({ method: 'GET', url: '/admin/stats', headers: auth })).json();
    assert.equal(before.orderWriter.mode, 'worker');
    await post('/admin/faucet', { address: '0x' + '12'.repeat(20), amount: '5' });
    const after = (await app.inject({ method: 'GET', url: '/admin/stats', headers: auth })).json();
    assert.equal(after.orderWriter.groups - before.orderWriter.groups, 1, 'the faucet credit went through the writer thread');
    assert.equal(typeof after.signatureVerifier.mode, 'string');
    assert.equal(typeof after.signatureVerifier.batchVerified, 'number');
    assert.ok(after.writeBatcher.transactions >= 0);
  });

  test('POST /admin/markets answers 201 with the market as GET /markets/{id} shows it', async () => {
    const r = await create({ outcomes: ['Up', 'Down'], endDate: '2031-01-01', description: 'Rules.' });
    assert.equal(r.statusCode, 201);
    const m = r.json();
    assert.match(m.condition_id, /^0x[0-9a-f]{64}$/);
    assert.equal(m.tokens.length, 2);
    assert.equal(m.tokens[0].outcome, 'Up');
    assert.match(m.tokens[1].token_id, /^\d+$/);
    assert.equal(m.minimum_tick_size, 0.01);
    assert.equal(m.minimum_order_size, 5);
    assert.equal(m.end_date_iso, '2031-01-01T00:00:00.000Z');
    assert.ok(Number.isInteger(m.event_id) && m.event_id >= 1);
    assert.deepEqual((await app.inject({ method: 'GET', url: `/markets/${m.condition_id}` })).json(), m);
    const grouped = (await create({ question: 'Grouped?', eventId: m.event_id, negRisk: true })).json();
    assert.equal(grouped.event_id, m.event_id);
    assert.equal(grouped.neg_risk, true);
    assert.match(grouped.neg_risk_market_id, /^0x/);
  });

  test('POST /admin/markets names the bad field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tickSize: '0.02' }, 'tickSize'],
      [{ tickSize: 0.01 }, 'tickSize'],
      [{ minOrderSize: '0' }, 'minOrderSize'],
      [{ minOrderSize: '1.0000001' }, 'minOrderSize'],
      [{ question: '' }, 'question'],
      [{ outcomes: ['A'] }, 'outcomes'],
      [{ eventId: 0 }, 'eventId'],
      [{ endDate: 'soon' }, 'endDate'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const r = await create(body);
      assert.equal(r.statusCode, 400, JSON.stringify(body));
      assert.equal(r.json().error, 'invalid_field');
      assert.match(r.json().message + JSON.stringify(r.json().details ?? {}), new RegExp(field), JSON.stringify(body));
    }
    const noBody = await post('/admin/markets');
    assert.equal(noBody.statusCode, 400);
  });

  test('pause and resume: global without a body, per market with conditionId', async () => {
    const m = (await create({ question: 'Pause me?' })).json();
    const g = await post('/admin/pause');
    assert.equal(g.statusCode, 200);
    assert.deepEqual(g.json(), { system_paused: true });
    assert.equal(ctx.markets.pauseState(m.condition_id), 'system_paused');
    assert.equal((await app.inject({ method: 'GET', url: `/markets/${m.condition_id}` })).json().accepting_orders, false);
    assert.deepEqual((await post('/admin/resume', {})).json(), { system_paused: false });
    const c = await post('/admin/pause', { conditionId: m.condition_id });
    assert.deepEqual(c.json(), { system_paused: false, condition_id: m.condition_id, condition_paused: true });
    assert.equal(ctx.markets.pauseState(m.condition_id), 'condition_paused');
    const state = await app.inject({ method: 'GET', url: '/admin/pause', headers: auth });
    assert.deepEqual(state.json(), { system_paused: false, paused_conditions: [m.condition_id] });
    assert.equal((await post('/admin/resume', { conditionId: m.condition_id })).json().condition_paused, false);
    assert.equal((await post('/admin/pause', { conditionId: '0x12' })).statusCode, 400);
    const unknown = await post('/admin/pause', { conditionId: `0x${'cd'.repeat(32)}` });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'market_not_found');
  });

  test('resolve marks the winner, closes the market and is final', async () => {
    const m = (await create({ question: 'Resolve me?' })).json();
    const bad = await post(`/admin/markets/${m.condition_id}/resolve`, { winningOutcomeIndex: 3 });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /winningOutcomeIndex/);
    assert.equal((await post(`/admin/markets/${m.condition_id}/resolve`, {})).statusCode, 400);
    const r = await post(`/admin/markets/${m.condition_id}/resolve`, { winningOutcomeIndex: 1 });
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assert.deepEqual(body.tokens.map((t: { winner: boolean; price: number }) => [t.winner, t.price]), [[false, 0], [true, 1]]);
    assert.equal(body.closed, true);
    assert.equal(body.accepting_orders, false);
    const again = await post(`/admin/markets/${m.condition_id}/resolve`, { winningOutcomeIndex: 0 });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'market_resolved');
    assert.equal((await post(`/admin/markets/0x${'ef'.repeat(32)}/resolve`, { winningOutcomeIndex: 0 })).statusCode, 404);
  });

  test('the faucet credits paper collateral in exact decimal units', async () => {
    const address = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
    const r = await post('/admin/faucet', { address, amount: '250.5' });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), { address: address.toLowerCase(), credited: '250.5' });
    assert.equal(ctx.orders.balanceOf(address, 'COLLATERAL').balance, 250_500_000n);
    for (const [body, field] of [
      [{ address, amount: '1.0000001' }, 'amount'],
      [{ address, amount: '-1' }, 'amount'],
      [{ address, amount: '0' }, 'amount'],
      [{ address, amount: 5 }, 'amount'],
      [{ address: '0x123', amount: '1' }, 'address'],
      [{ amount: '1' }, 'address'],
    ] as const) {
      const bad = await post('/admin/faucet', body);
      assert.equal(bad.statusCode, 400, JSON.stringify(body));
      assert.match(bad.json().message + JSON.stringify(bad.json().details ?? {}), new RegExp(field));
    }
  });
});
