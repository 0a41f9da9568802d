import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createEngine, type Engine } from '../../engine.js';
import { ONE } from '../../protocol/amounts.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { DemoSigner } from '../markets/seedDemoMarkets.js';
import { ManualClock } from '../clock.js';
import { FAST_EPOCH } from '../scenarios/fastRun.js';
import { LIQUID_DEMO_MARKETS } from './presets.js';
import { realismStats, sampleBook, tradesSince, type RealismStats } from './realismStats.js';

/** A fresh demo engine on a manual clock with only the given demo markets simulated. */
async function seeded<T>(seed: number | undefined, markets: number[], body: (engine: Engine) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'realism-'));
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, ...(seed === undefined ? {} : { seed }) }, { clock: new ManualClock(FAST_EPOCH) });
  try {
    const all = engine.ctx.markets.list();
    for (let i = 0; i < all.length; i++) if (!markets.includes(i)) await engine.ctx.sim.disableMarket(all[i]!.conditionId);
    return await body(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `windows` consecutive ten-minute windows on the liquid demo markets: their statistics, window by window and market by market. */
async function tenMinuteWindows(seed: number, windows: number): Promise<RealismStats[]> {
  return seeded(seed, LIQUID_DEMO_MARKETS, async (e) => {
    const markets = LIQUID_DEMO_MARKETS.map((i) => e.ctx.markets.list()[i]!);
    const out: RealismStats[] = [];
    for (let w = 0; w < windows; w++) {
      const start = e.ctx.clock.nowMs();
      const samples = markets.map((m) => sampleBook(e.ctx, m.conditionId, 600));
      await e.ctx.sim.runFor(600_000);
      out.push(...markets.map((m, i) => realismStats(samples[i]!, tradesSince(e.ctx, m.conditionId, start + 1), Number(m.tickSize))));
    }
    return out;
  });
}

function tape(e: Engine): string {
  return e.ctx.orders
    .tradeTape({ limit: 1_000_000, offset: 0 })
    // the demo seeding's opening mints (a random maker key per data directory) print at the epoch
    .filter((t) => Number(t.match_time) > FAST_EPOCH / 1000)
    .map((t) => [t.match_time, t.outcome_index, t.side, t.price, t.size, t.maker_address].join(','))
    .join('\n');
}

describe('a liquid demo market looks like a liquid public one', () => {
  it('in every ten simulated minutes (three seeds, half an hour each): one-tick spreads most of the time, a mid that keeps moving, random-walk variance ratios, occasional jumps', async () => {
    const runs = (await Promise.all([11, 12, 13].map((seed) => tenMinuteWindows(seed, 3)))).flat();
    for (const s of runs) {
      assert.ok(s.oneTickSpreadShare >= 0.6, `one-tick spread in ${(100 * s.oneTickSpreadShare).toFixed(0)} % of the samples`);
      assert.ok(s.secondsPerMidChange <= 10, `the mid changed every ${s.secondsPerMidChange.toFixed(1)} s`);
      assert.ok(s.trades >= 100, `${s.trades} trades`);
      assert.ok(s.tradeShares.max >= 3 * s.tradeShares.p50, `sizes not heavy-tailed: ${JSON.stringify(s.tradeShares)}`);
    }
    // One 10-minute variance ratio is noisy (a few hundred trades, ±0.4): their mean over 18 windows is what the presets set.
    const mean = (f: (s: RealismStats) => number) => runs.reduce((a, s) => a + f(s), 0) / runs.length;
    assert.ok(mean((s) => s.vr10) >= 0.7 && mean((s) => s.vr10) <= 1.3, `mean VR(10) ${mean((s) => s.vr10).toFixed(2)}`);
    assert.ok(mean((s) => s.vr50) >= 0.7 && mean((s) => s.vr50) <= 1.3, `mean VR(50) ${mean((s) => s.vr50).toFixed(2)}`);
    assert.ok(runs.reduce((a, s) => a + s.jumps, 0) >= 3, `jumps ${runs.map((s) => s.jumps).join(', ')}`);
  });
});

describe('the market makers react to users', () => {
  it('moves its fair value up when a user keeps buying, and widens its quotes under the one-way flow', async () => {
    await seeded(3, [0], async (e) => {
      const m = e.ctx.markets.list()[0]!;
      for (const who of ['noise', 'informed', 'news']) await e.ctx.sim.configure(m.conditionId, who, { enabled: false });
      await e.ctx.sim.runFor(5_000);
      const mm = e.ctx.sim.marketInfo(m.conditionId).participants.find((p) => p.role === 'marketMaker')!;
      const spreadTicks = () => {
        const book = e.ctx.orders.book(m.conditionId)!;
        return Math.round((book.bestAsk()! - book.bestBid()!) / Number(m.tickSize));
      };
      const fairBefore = Number(e.ctx.sim.marketInfo(m.conditionId).fair);
      assert.equal(spreadTicks(), 1);
      const user = new DemoSigner(e.ctx, `0x${'77'.repeat(32)}`);
      const address = user.address.toLowerCase();
      await e.ctx.orders.creditCollateral(address, 10_000n * ONE, 'test');
      for (let i = 0; i < 8; i++) {
        const ask = BigInt(e.ctx.orders.book(m.conditionId)!.bestAsk()!);
        const r = await e.ctx.orders.place({ address }, { ...user.order(m, 0, 'BUY', ask, 40n * ONE, String(i + 1)), orderType: 'FAK' });
        assert.ok(r.success, r.error_msg);
        await e.ctx.sim.runFor(2_000);
      }
      const fairAfter = Number(e.ctx.sim.marketInfo(m.conditionId).fair);
      assert.ok(fairAfter - fairBefore >= 0.04, `fair ${fairBefore} → ${fairAfter}`);
      assert.ok(spreadTicks() >= 2, `spread ${spreadTicks()} ticks after one-way flow`);
      assert.ok(e.ctx.sim.marketInfo(m.conditionId).participants.find((p) => p.name === mm.name)!.orders > mm.orders, 'the maker re-quoted');
    });
  });
});

describe('seeds', () => {
  it('gives the same tape for the same seed and a different one for another seed', async () => {
    const run = (seed: number) => seeded(seed, [0, 3], async (e) => (await e.ctx.sim.runFor(120_000), tape(e)));
    const [a, b, c] = [await run(5), await run(5), await run(6)];
    assert.ok(a.split('\n').length > 30, `${a.split('\n').length} trades`);
    assert.equal(b, a);
    assert.notEqual(c, a);
  });

  it('reseeds every participant through the service (new wallets, the seed reported)', async () => {
    await seeded(undefined, [0], async (e) => {
      const before = e.ctx.sim.participants().map((p) => p.address);
      await e.ctx.sim.reseed(42);
      assert.equal(e.ctx.sim.seed, 42);
      const after = e.ctx.sim.participants().map((p) => p.address);
      assert.equal(after.length, before.length);
      assert.ok(after.every((a) => !before.includes(a)));
      await assert.rejects(e.ctx.sim.reseed(-1), /seed must be an integer/);
    });
  });
});

describe('solvency', () => {
  it('keeps every participant trading for two simulated hours: inventory recycled, top-ups counted, refusals counted', async () => {
    await seeded(7, [0], async (e) => {
      const m = e.ctx.markets.list()[0]!;
      const start = e.ctx.clock.nowMs();
      await e.ctx.sim.runFor(2 * 3600_000);
      const info = e.ctx.sim.marketInfo(m.conditionId);
      const lastTen = tradesSince(e.ctx, m.conditionId, start + 110 * 60_000);
      assert.ok(lastTen.length > 100, `only ${lastTen.length} trades in the last ten minutes`);
      for (const p of info.participants.filter((q) => q.role === 'noise' || q.role === 'marketMaker' || q.role === 'informed')) {
        const free = e.ctx.orders.balanceOf(p.address, COLLATERAL).available;
        const shares = (e.ctx.orders.balanceOf(p.address, m.tokenIds[0]).balance + e.ctx.orders.balanceOf(p.address, m.tokenIds[1]).balance) / 1_000_000n;
        assert.ok(free > 0n || shares > 0n, `${p.name} holds nothing`);
        assert.ok(p.refused <= p.orders / 20, `${p.name}: ${p.refused} of ${p.orders} orders refused`);
      }
      // what /admin/sim shows adds up
      assert.equal(e.ctx.sim.refused, info.participants.reduce((a, p) => a + p.refused, 0));
      assert.equal(e.ctx.sim.topUps, info.participants.reduce((a, p) => a + p.topUps, 0));
    });
  });
});
