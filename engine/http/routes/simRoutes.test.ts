import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../services/clock.js';
import type { EngineContext } from '../engineContext.js';
import { startTestEngine } from '../../testkit/engineKit.js';

describe('simulation and scenario routes', () => {
  let ctx: EngineContext;
  let close: () => Promise<void>;
  let app: FastifyInstance;
  let auth: Record<string, string>;

  // Demo markets with participants, on a manual clock: nothing runs unless the test moves it.
  before(async () => {
    ({ ctx, app, close } = await startTestEngine(new ManualClock(Date.UTC(2030, 0, 1)), { seedDemo: true, simulation: true }));
    auth = { authorization: `Bearer ${ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
  });
  after(() => close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown, headers = auth) =>
    app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });

  test('GET /sim/participants lists every simulated address publicly', async () => {
    const r = await app.inject({ method: 'GET', url: '/sim/participants' });
    assert.equal(r.statusCode, 200);
    const list = r.json() as Array<{ address: string; role: string; market: string }>;
    assert.equal(list.length, 20); // five per demo market: a maker, two noise traders, an informed trader, the news
    assert.ok(list.every((p) => /^0x[0-9a-f]{40}$/.test(p.address)));
  });

  test('GET /admin/sim needs the operator token and shows markets, participants and knobs', async () => {
    assert.equal((await call('GET', '/admin/sim', undefined, {})).statusCode, 401);
    const r = await call('GET', '/admin/sim');
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().markets.length, 4);
    assert.equal(r.json().markets[0].participants[0].role, 'marketMaker');
  });

  test('PUT /admin/sim/markets/{id} turns a market off and on, changes a participant and names a bad knob', async () => {
    const id = ctx.markets.list()[0]!.conditionId;
    const off = await call('PUT', `/admin/sim/markets/${id}`, { enabled: false });
    assert.equal(off.statusCode, 200);
    assert.equal(off.json().enabled, false);
    const on = await call('PUT', `/admin/sim/markets/${id}`, { enabled: true, participant: 'noise', intensity: 20, knobs: { meanSize: 15 } });
    assert.equal(on.json().enabled, true);
    const noise = (on.json().participants as Array<{ role: string; intensity: number; knobs: { meanSize: number } }>).filter((p) => p.role === 'noise');
    assert.deepEqual(noise.map((p) => [p.intensity, p.knobs.meanSize]), [[20, 15], [20, 15]]);
    const bad = await call('PUT', `/admin/sim/markets/${id}`, { participant: 'mm-1', knobs: { nope: 1 } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().details.field, 'knobs.nope');
  });

  test('scenarios: the library is listed, one starts by name, shows progress and stops; a bad inline one is a 400 naming the field', async () => {
    const list = await call('GET', '/admin/scenarios');
    assert.deepEqual((list.json().library as Array<{ name: string }>).map((s) => s.name).sort(), ['calm-market', 'flash-crash', 'illiquid-market', 'news-shock', 'resolution-day']);
    assert.equal(list.json().current, null);
    const started = await call('POST', '/admin/scenarios', { name: 'news-shock' });
    assert.equal(started.statusCode, 201);
    assert.equal(started.json().state, 'running');
    await ctx.sim.runFor(70_000);
    const progress = (await call('GET', '/admin/scenarios')).json().current;
    assert.equal(progress.name, 'news-shock');
    assert.ok(progress.eventsDone >= 2 && progress.elapsedSeconds >= 70, JSON.stringify(progress));
    const stopped = await call('DELETE', '/admin/scenarios/current');
    assert.equal(stopped.json().stopped.state, 'stopped');
    const bad = await call('POST', '/admin/scenarios', { scenario: { name: 'x', durationSeconds: 10, events: [{ at: 1, shock: { market: 0, price: 0.5 } }] } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().details.field, 'events.0.shock.price');
    const unknown = await call('POST', '/admin/scenarios', { name: 'nope' });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().message, /calm-market/);
  });
});
