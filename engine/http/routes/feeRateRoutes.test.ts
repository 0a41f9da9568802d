import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../services/clock.js';
import type { EngineContext } from '../engineContext.js';
import { startTestEngine } from '../../testkit/engineKit.js';

describe('market fee rates over HTTP', () => {
  let ctx: EngineContext;
  let close: () => Promise<void>;
  let app: FastifyInstance;
  let auth: Record<string, string>;

  before(async () => {
    ({ ctx, app, close } = await startTestEngine(new ManualClock(1_800_000_000_000)));
    auth = { authorization: `Bearer ${ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
  });
  after(() => close());

  const create = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/admin/markets', headers: auth, payload: JSON.stringify({ question: 'Fees?', tickSize: '0.01', minOrderSize: '5', ...body }) });

  test('a market is created with a fee rate, GET /fee-rate and the market show it, and the operator changes it', async () => {
    const m = (await create({ question: 'Fee market?', feeRateBps: 150 })).json();
    assert.equal(m.taker_base_fee, 150);
    assert.deepEqual(m.fee_schedule, { rate: '0.015', exponent: 1, takerOnly: true, rebateRate: '0' });
    const token = m.tokens[0].token_id;
    assert.deepEqual((await app.inject({ method: 'GET', url: `/fee-rate?token_id=${token}` })).json(), { base_fee: 150 });
    const put = await app.inject({ method: 'PUT', url: `/admin/markets/${m.condition_id}/fee-rate`, headers: auth, payload: JSON.stringify({ feeRateBps: 0 }) });
    assert.equal(put.statusCode, 200);
    assert.equal(put.json().taker_base_fee, 0);
    assert.deepEqual((await app.inject({ method: 'GET', url: `/fee-rate?token_id=${token}` })).json(), { base_fee: 0 });
    assert.equal(ctx.markets.byCondition(m.condition_id)?.feeRateBps, 0);
    assert.deepEqual(put.json().fee_schedule, { rate: '0', exponent: 1, takerOnly: true, rebateRate: '0' });
  });

  test('a full schedule (ours or the public Gamma form) sets the fees, and the base fee is its rate in bps unless given', async () => {
    const m = (await create({ question: 'Schedule market?', feeSchedule: { rate: '0.04', rebateRate: '0.25' } })).json();
    assert.deepEqual(m.fee_schedule, { rate: '0.04', exponent: 1, takerOnly: true, rebateRate: '0.25' });
    assert.equal(m.taker_base_fee, 400);
    const token = m.tokens[0].token_id;
    assert.deepEqual((await app.inject({ method: 'GET', url: `/fee-rate?token_id=${token}` })).json(), { base_fee: 400 });
    // clob-client-v2 sizes market BUYs from the compact record's fee details
    const info = (await app.inject({ method: 'GET', url: `/clob-markets/${m.condition_id}` })).json();
    assert.deepEqual([info.fd, info.tbf], [{ r: 0.04, e: 1 }, 400]);

    const put = await app.inject({
      method: 'PUT',
      url: `/admin/markets/${m.condition_id}/fee-rate`,
      headers: auth,
      payload: JSON.stringify({ feeSchedule: { exponent: 1, rate: 0.072, takerOnly: true, rebateRate: 0.2 } }),
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().fee_schedule, { rate: '0.072', exponent: 1, takerOnly: true, rebateRate: '0.2' });
    assert.equal(put.json().taker_base_fee, 720);
    const capped = await app.inject({ method: 'PUT', url: `/admin/markets/${m.condition_id}/fee-rate`, headers: auth, payload: JSON.stringify({ feeRateBps: 1000, feeSchedule: { rate: '0.05' } }) });
    assert.deepEqual([capped.json().taker_base_fee, capped.json().fee_schedule.rate], [1000, '0.05']);
    assert.deepEqual(ctx.markets.byCondition(m.condition_id)?.feeSchedule, { rate: 50_000n, exponent: 1, takerOnly: true, rebateRate: 0n });
  });

  test('a bad schedule is a 400 naming feeSchedule and what to send', async () => {
    const m = (await create({ question: 'Bad schedule?' })).json();
    assert.deepEqual(m.fee_schedule, { rate: '0', exponent: 1, takerOnly: true, rebateRate: '0' }, 'local markets default to no fee');
    for (const feeSchedule of [{ rate: '1.5' }, { rate: '-0.01' }, { rate: '0.0000001' }, { rate: '0.04', takerOnly: false }, { rate: '0.04', exponent: 7 }, { rebateRate: '0.2' }]) {
      const r = await create({ feeSchedule });
      assert.equal(r.statusCode, 400, JSON.stringify(feeSchedule));
      assert.match(JSON.stringify(r.json()), /feeSchedule|rate|exponent/, JSON.stringify(feeSchedule));
    }
    const empty = await app.inject({ method: 'PUT', url: `/admin/markets/${m.condition_id}/fee-rate`, headers: auth, payload: '{}' });
    assert.equal(empty.statusCode, 400);
  });

  test('the default rate is 0 and a bad rate is a 400 naming feeRateBps', async () => {
    assert.equal((await create({ question: 'Free market?' })).json().taker_base_fee, 0);
    for (const feeRateBps of [-1, 10_001, 1.5, '100']) {
      const r = await create({ feeRateBps });
      assert.equal(r.statusCode, 400, JSON.stringify(feeRateBps));
      assert.match(JSON.stringify(r.json()), /feeRateBps/);
    }
    const m = (await create({ question: 'Another?' })).json();
    const put = await app.inject({ method: 'PUT', url: `/admin/markets/${m.condition_id}/fee-rate`, headers: auth, payload: JSON.stringify({ feeRateBps: 20_000 }) });
    assert.equal(put.statusCode, 400);
    assert.match(JSON.stringify(put.json()), /feeRateBps/);
    const noAuth = await app.inject({ method: 'PUT', url: `/admin/markets/${m.condition_id}/fee-rate`, headers: { 'content-type': 'application/json' }, payload: '{"feeRateBps":1}' });
    assert.equal(noAuth.statusCode, 401);
  });
});
