import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../config.js';
import { createEngine, type Engine } from '../../engine.js';
import { ManualClock, ScaledClock } from '../clock.js';
import { STALL_STEPS } from './clockService.js';
import { RunIds } from './runIds.js';

const START = Date.UTC(2030, 0, 1);

async function fastEngine<T>(body: (e: Engine) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'clock-service-'));
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation: false, seedDemo: false, clock: 'fast', clockStart: START });
  try {
    return await body(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the exchange clock', () => {
  it('fails with clock_stalled, naming the time, when work keeps being scheduled at one simulated millisecond', async () => {
    await fastEngine(async (e) => {
      const sched = e.ctx.sim.scheduler;
      const again = (): void => sched.at(START + 5_000, again);
      sched.at(START + 5_000, again);
      await assert.rejects(e.ctx.clockService.runUntil(START + 60_000), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'clock_stalled');
        assert.match(err.message, /2030-01-01T00:00:05\.000Z/);
        assert.match(err.message, new RegExp(String(STALL_STEPS)));
        return true;
      });
    });
  });

  it('samples every account once per exchange minute into equity.jsonl, and the report says where time stands', async () => {
    await fastEngine(async (e) => {
      const market = await e.ctx.markets.create({ question: 'Sampled?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
      await e.ctx.sim.enableMarket(market.conditionId);
      await e.ctx.clockService.runUntil(START + 5 * 60_000 + 30_000);
      const dir = e.ctx.clockService.recorder!.write();
      const lines = readFileSync(join(dir, 'equity.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: number });
      // Minutes 1..5 (the first minute with no trade yet has no account to sample).
      assert.deepEqual(lines.map((l) => (l.t - START) / 60_000).filter((m) => m >= 2), [2, 3, 4, 5]);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { now: number; mode: string; seed: number; trades: number };
      assert.deepEqual([report.now, report.mode, report.seed], [START + 330_000, 'fast', 1]);
      assert.ok(report.trades > 0);
      const csv = readFileSync(join(dir, 'trades.csv'), 'utf8').trim().split('\n');
      assert.equal(csv.length, report.trades + 1, 'a header and one line per trade');
      assert.match(csv[0]!, /^id,match_time,condition_id,kind,taker_address/);
    });
  });

  it('an advance waits for the writes already admitted to answer, and admits none until it has run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-service-'));
    const e = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation: false, seedDemo: false, clock: 'stepped', clockStart: START });
    try {
      const cs = e.ctx.clockService;
      assert.equal(cs.beginWrite(), true);
      const advancing = cs.advance({ seconds: 10 });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(e.ctx.clock.nowMs(), START, 'the advance has not started while a write runs');
      assert.equal(cs.beginWrite(), false, 'a new write is refused');
      cs.writeDone();
      assert.equal((await advancing).now, START + 10_000);
      assert.equal(cs.beginWrite(), true);
      cs.writeDone();
    } finally {
      await e.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two stepped runs of the demo markets with the same seed and advances give byte-identical order and trade records; another seed other ids', async () => {
    const run = async (seed: number) => {
      const dir = mkdtempSync(join(tmpdir(), 'clock-service-'));
      const e = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, clock: 'stepped', clockStart: START, seed });
      try {
        await e.ctx.clockService.advance({ seconds: 120 });
        await e.ctx.clockService.advance({ until: START + 180_000 });
        const orders = e.ctx.db.prepare('SELECT * FROM orders ORDER BY id').all();
        const trades = e.ctx.db.prepare('SELECT * FROM trades ORDER BY id').all();
        return { records: JSON.stringify({ orders, trades }), trades: trades.length, firstOrder: (orders[0] as { id: string }).id };
      } finally {
        await e.close();
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const a = await run(5);
    const b = await run(5);
    assert.ok(a.trades > 10, `${a.trades} trades`);
    assert.equal(b.records, a.records);
    assert.notEqual((await run(6)).firstOrder, a.firstOrder);
  });

  it('--speed N runs exchange time N times faster than the wall clock from its start', () => {
    const wall = new ManualClock(1_000);
    const c = new ScaledClock(START, 10, wall);
    wall.advance(1_500);
    assert.equal(c.nowMs(), START + 15_000);
  });

  it('an engine with --speed 50 runs exchange time 50× from --start while GET /time stays on the wall clock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-service-'));
    const e = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation: false, seedDemo: false, speed: 50, clockStart: START });
    try {
      const t0 = e.ctx.clock.nowMs();
      const wall0 = Date.now();
      await new Promise((r) => setTimeout(r, 200));
      const clock = (await e.app.inject({ method: 'GET', url: '/admin/clock', headers: { authorization: `Bearer ${e.ctx.secrets.operatorToken}` } })).json() as { mode: string; now: number; startedAt: number };
      const wallMs = Date.now() - wall0;
      assert.equal(clock.mode, 'real');
      assert.ok(clock.startedAt - START < 60_000, 'the run starts at --start');
      assert.ok(clock.now - t0 >= 50 * 190 && clock.now - t0 <= 50 * (wallMs + 50), `${clock.now - t0} exchange ms in ${wallMs} wall ms`);
      const time = Number((await e.app.inject({ method: 'GET', url: '/time' })).body);
      assert.ok(Math.abs(time - Date.now() / 1000) < 5);
    } finally {
      await e.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown clock mode, a speed out of range, and a speed on a stepped clock', () => {
    assert.throws(() => resolveConfig({ clock: 'slow' as 'real' }), /--clock must be real, fast or stepped/);
    assert.throws(() => resolveConfig({ speed: 0 }), /--speed must be a number above 0/);
    assert.throws(() => resolveConfig({ speed: 1e9 }), /at most 10000/);
    assert.throws(() => resolveConfig({ clock: 'stepped', speed: 5 }), /--speed applies to --clock real/);
  });

  it("draws ids from the run's seed: the same seed repeats them, another seed does not", () => {
    const a = new RunIds(7);
    const b = new RunIds(7);
    const c = new RunIds(8);
    assert.deepEqual([a.uuid(), a.random80(), a.privateKey('operator')], [b.uuid(), b.random80(), b.privateKey('operator')]);
    assert.notEqual(new RunIds(7).uuid(), c.uuid());
    assert.match(a.uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
