/**
 * The participants' solvency soak (issue 21): one liquid demo market for 24 simulated hours in fast
 * mode, hour by hour. CI runs the same checks over two simulated hours
 * (engine/services/participants/realism.test.ts); this is the long run the bench keeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../engine/engine.js';
import { COLLATERAL } from '../engine/store/balanceRepo.js';
import { ManualClock } from '../engine/services/clock.js';
import { FAST_EPOCH } from '../engine/services/scenarios/fastRun.js';
import { LIQUID_DEMO_MARKETS } from '../engine/services/participants/presets.js';
import { tradesSince } from '../engine/services/participants/realismStats.js';

export interface SoakResult {
  hours: number;
  /** Trades on the market in each simulated hour. */
  tradesPerHour: number[];
  /** Noise traders, makers and informed traders left with neither free collateral nor shares at the end. */
  broke: string[];
  orders: number;
  refused: number;
  topUps: number;
  wallSeconds: number;
  cpuSeconds: number;
}

export async function runSoakBench(hours = 24, seed = 7): Promise<SoakResult> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-bench-'));
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, seed }, { clock: new ManualClock(FAST_EPOCH) });
  try {
    const all = engine.ctx.markets.list();
    const keep = all[LIQUID_DEMO_MARKETS[0]!]!;
    for (const m of all) if (m.conditionId !== keep.conditionId) await engine.ctx.sim.disableMarket(m.conditionId);
    const tradesPerHour: number[] = [];
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let h = 0; h < hours; h++) {
      const start = engine.ctx.clock.nowMs();
      await engine.ctx.sim.runFor(3_600_000);
      tradesPerHour.push(tradesSince(engine.ctx, keep.conditionId, start + 1).length);
    }
    const cpu = process.cpuUsage(cpu0);
    const info = engine.ctx.sim.marketInfo(keep.conditionId);
    const broke = info.participants
      .filter((p) => p.role === 'noise' || p.role === 'marketMaker' || p.role === 'informed')
      .filter((p) => {
        const free = engine.ctx.orders.balanceOf(p.address, COLLATERAL).available;
        const shares = engine.ctx.orders.balanceOf(p.address, keep.tokenIds[0]).balance + engine.ctx.orders.balanceOf(p.address, keep.tokenIds[1]).balance;
        return free <= 0n && shares < 1_000_000n;
      })
      .map((p) => p.name);
    return {
      hours,
      tradesPerHour,
      broke,
      orders: info.participants.reduce((a, p) => a + p.orders, 0),
      refused: info.participants.reduce((a, p) => a + p.refused, 0),
      topUps: info.participants.reduce((a, p) => a + p.topUps, 0),
      wallSeconds: (performance.now() - t0) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    };
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
