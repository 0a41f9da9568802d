import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient, OrderType, Side, type SignedOrder } from '@polymarket/clob-client';
import type { Engine } from '../../engine.js';
import type { EngineConfig } from '../../config.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';

/** Exchange time of these runs: pinned, so two runs stamp the same times (the wall clock keeps signing). */
const START = Date.UTC(2030, 0, 1);
// A fixed key: the same signed bodies go to both runs.
const ALICE = new Wallet('0x' + '11'.repeat(32));

async function steppedRun<T>(config: Partial<EngineConfig>, body: (e: Engine, host: string, op: Operator) => Promise<T>): Promise<T> {
  const { engine, host, close } = await startListeningEngine({ profile: 'polymarket', clock: 'stepped', clockStart: START, seed: 7, ...config });
  try {
    return await body(engine, host, operator(host, engine));
  } finally {
    await close();
  }
}

type Operator = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>;

function operator(host: string, engine: Engine): Operator {
  const token = engine.ctx.secrets.operatorToken;
  return async (method, path, body) => {
    const res = await fetch(host + path, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

/** Every order and trade row of the run, as stored. */
function records(e: Engine): string {
  const orders = e.ctx.db.prepare('SELECT * FROM orders ORDER BY id').all();
  const trades = e.ctx.db.prepare('SELECT * FROM trades ORDER BY id').all();
  return JSON.stringify({ orders, trades });
}

describe('a stepped exchange clock (decisions §11)', () => {
  it('a stock clob-client places a resting bid, an advance runs the participants into it, and two runs with the same signed body give byte-identical order and trade records', async () => {
    let signed: SignedOrder | undefined;
    const run = () =>
      steppedRun({}, async (engine, host, op) => {
        const market = await engine.ctx.markets.create({ question: 'Will the backtest fill?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
        await engine.ctx.sim.enableMarket(market.conditionId);
        const creds = await new ClobClient(host, 137, ALICE).createOrDeriveApiKey();
        const client = new ClobClient(host, 137, ALICE, creds);
        signed ??= await client.createOrder({ tokenID: market.tokenIds[0], price: 0.5, side: Side.BUY, size: 20 }, { tickSize: '0.01', negRisk: false });
        const placed = await client.postOrder(signed, OrderType.GTC);
        assert.equal(placed.success, true, JSON.stringify(placed));
        assert.equal(placed.status, 'live', 'time stands still: nobody has traded yet');
        const order = await client.getOrder(placed.orderID);
        assert.equal(Number(order.created_at), START / 1000, 'stamped with the exchange time, not the wall time');
        assert.equal((await op('GET', '/admin/clock')).json.now, START);

        const adv = await op('POST', '/admin/clock/advance', { seconds: 600 });
        assert.equal(adv.status, 200, JSON.stringify(adv.json));
        assert.equal(adv.json.now, START + 600_000);
        const processed = adv.json.processed as Record<string, number>;
        assert.ok((processed.participantOrders ?? 0) > 0, JSON.stringify(processed));
        assert.equal(processed.scenarioEvents, 0);

        const after = await client.getOrder(placed.orderID);
        assert.ok(Number(after.size_matched) > 0, `the participants traded into the bid within 10 simulated minutes: ${JSON.stringify(after)}`);
        const trades = await client.getTrades({ market: market.conditionId });
        assert.ok(trades.length > 0);
        for (const t of trades) assert.ok(Number(t.match_time) > START / 1000 && Number(t.match_time) <= START / 1000 + 600, `trade time ${t.match_time} is exchange time`);
        const config = (await (await fetch(host + '/config')).json()) as { exchangeTime: number };
        assert.equal(config.exchangeTime, START + 600_000);
        const wall = Number(await (await fetch(host + '/time')).text());
        assert.ok(Math.abs(wall - Date.now() / 1000) < 30, 'GET /time stays on the wall clock (stock clients sign with it)');

        const runDir = (await op('GET', '/admin/clock')).json.runDir as string;
        const exported = readFileSync(join(runDir, 'trades.jsonl'), 'utf8').trim().split('\n');
        assert.equal(exported.length, Number(engine.ctx.db.prepare('SELECT COUNT(*) FROM trades').pluck().get()));
        const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as { accounts: Array<{ account: string; trades: number; simulated: boolean }> };
        const bot = report.accounts.find((a) => a.account === ALICE.address.toLowerCase());
        assert.ok(bot && bot.trades > 0 && !bot.simulated, 'the report has the bot, not flagged as a participant');
        assert.ok(report.accounts.some((a) => a.simulated), 'and the participants, flagged');
        return { records: records(engine), exported };
      });
    const first = await run();
    const second = await run();
    assert.equal(second.records, first.records);
    assert.deepEqual(second.exported, first.exported);
  });

  it('during an advance, writes are refused 409 clock_advancing and reads answer at once', async () => {
    await steppedRun({}, async (engine, host, op) => {
      const market = await engine.ctx.markets.create({ question: 'Busy clock?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
      await engine.ctx.sim.enableMarket(market.conditionId);
      // A job half-way holds the advance until the checks below are done, so they surely overlap it.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let reached!: () => void;
      const halfway = new Promise<void>((r) => (reached = r));
      engine.ctx.sim.scheduler.at(START + 1_800_000, async () => {
        reached();
        await held;
      });
      const advancing = op('POST', '/admin/clock/advance', { seconds: 3600 });
      await halfway;
      assert.equal(engine.ctx.clockService.advancing, true);
      const write = await fetch(host + '/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(write.status, 409);
      assert.equal(((await write.json()) as { error: string }).error, 'clock_advancing');
      const beat = await fetch(host + '/v1/heartbeats', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"heartbeat_id":null}' });
      assert.equal(beat.status, 401, 'heartbeats (wall-time liveness) pass the guard: this one only lacks its auth headers');
      const second = await op('POST', '/admin/clock/advance', { seconds: 1 });
      assert.equal(second.status, 409);
      const book = await fetch(`${host}/book?token_id=${market.tokenIds[0]}`);
      assert.equal(book.status, 200, 'reads answer during the advance');
      const clock = await op('GET', '/admin/clock');
      assert.equal(clock.status, 200);
      assert.equal(clock.json.now, START + 1_800_000, 'reads see the last committed step');
      release();
      const done = await advancing;
      assert.equal(done.status, 200);
      assert.equal(done.json.now, START + 3_600_000);
      assert.equal(engine.ctx.clockService.advancing, false);
      assert.equal((await fetch(host + '/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 401, 'writes pass again (this one lacks its auth headers)');
    });
  });

  it('an advance runs GTD expiries at their exchange time', async () => {
    await steppedRun({ simulation: false }, async (engine, host, op) => {
      const market = await engine.ctx.markets.create({ question: 'Does it expire?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
      const creds = await new ClobClient(host, 137, ALICE).createOrDeriveApiKey();
      const client = new ClobClient(host, 137, ALICE, creds);
      // GTD deadlines are expiration − 60 s (the public service's security margin): this one leaves at START + 120 s.
      const expiration = START / 1000 + 180;
      const order = await client.createOrder({ tokenID: market.tokenIds[0], price: 0.3, side: Side.BUY, size: 10, expiration }, { tickSize: '0.01', negRisk: false });
      const placed = await client.postOrder(order, OrderType.GTD);
      assert.equal(placed.success, true, JSON.stringify(placed));

      const early = await op('POST', '/admin/clock/advance', { seconds: 119 });
      assert.equal((early.json.processed as Record<string, number>).expiries, 0);
      assert.equal((await client.getOrder(placed.orderID)).status, 'LIVE');
      const due = await op('POST', '/admin/clock/advance', { until: START + 3_600_000 });
      assert.equal((due.json.processed as Record<string, number>).expiries, 1);
      const row = engine.ctx.orders.get(placed.orderID);
      assert.equal(row.status, 'cancelled');
      assert.equal(row.updatedAt, new Date(START + 120_000).toISOString(), 'expired at its deadline in exchange time, not at the end of the advance');
    });
  });

  it('refuses an advance that goes back in time or names neither seconds nor until, and any advance outside stepped mode', async () => {
    await steppedRun({ simulation: false }, async (_engine, _host, op) => {
      for (const body of [{ until: START - 1 }, {}, { seconds: 1, until: START + 5 }, { seconds: -1 }]) {
        const r = await op('POST', '/admin/clock/advance', body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.json.error, 'invalid_field');
      }
    });
    const { engine, host, close } = await startListeningEngine({ simulation: false });
    try {
      const r = await operator(host, engine)('POST', '/admin/clock/advance', { seconds: 1 });
      assert.equal(r.status, 409);
      assert.equal(r.json.error, 'clock_not_stepped');
      assert.equal((await operator(host, engine)('GET', '/admin/clock')).json.mode, 'real');
    } finally {
      await close();
    }
  });
});
