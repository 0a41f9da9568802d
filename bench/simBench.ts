/**
 * Simulated participants (issue 13): the fast-mode speed of the calm-market scenario, and the CPU the
 * participants cost with the default presets on every demo market, measured with process.cpuUsage over
 * a wall-clock window beside the same engine with simulation off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine } from '../engine/engine.js';
import { ManualClock } from '../engine/services/clock.js';
import { FAST_EPOCH, runScenarioFast, type FastRunReport } from '../engine/services/scenarios/fastRun.js';

export interface SimBenchResult {
  fast: FastRunReport;
  windowSeconds: number;
  /** CPU of the whole process over the window, % of one core. */
  cpuWithSimPercent: number;
  cpuWithoutSimPercent: number;
  /** The difference: what the participants cost. */
  participantsPercent: number;
  participantOrders: number;
}

async function withEngine<T>(simulation: boolean, clock: ManualClock | undefined, body: (e: Awaited<ReturnType<typeof createEngine>>) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-bench-'));
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation }, clock ? { clock } : {});
  try {
    return await body(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU % of one core used by this process during `seconds` of wall time. */
async function cpuOver(seconds: number): Promise<number> {
  const start = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await sleep(seconds * 1000);
  const used = process.cpuUsage(start);
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  return (100 * (used.user + used.system)) / wallUs;
}

export async function runSimBench(windowSeconds = 10): Promise<SimBenchResult> {
  const fast = await withEngine(true, new ManualClock(FAST_EPOCH), (e) => runScenarioFast(e.ctx, e.ctx.scenarios.byName('calm-market')));
  const measured = await withEngine(true, undefined, async (e) => {
    await sleep(1000); // past the start-up work
    const before = e.ctx.sim.participants().reduce((s, p) => s + p.orders, 0);
    const cpu = await cpuOver(windowSeconds);
    return { cpu, orders: e.ctx.sim.participants().reduce((s, p) => s + p.orders, 0) - before };
  });
  const reference = await withEngine(false, undefined, async () => {
    await sleep(1000);
    return cpuOver(windowSeconds);
  });
  return {
    fast,
    windowSeconds,
    cpuWithSimPercent: measured.cpu,
    cpuWithoutSimPercent: reference,
    participantsPercent: Math.max(0, measured.cpu - reference),
    participantOrders: measured.orders,
  };
}
