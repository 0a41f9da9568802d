/**
 * The stepped clock (decisions §11, issue 21): one simulated hour of the calm preset run by
 * `POST /admin/clock/advance` over HTTP on a listening engine, beside the same hour run unattended by
 * `--clock fast` (runScenarioFast), in one process and one bench run. Each is run twice, alternating,
 * and the faster of each kept, so a neighbour's burst on a shared machine does not decide the ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EngineConfig } from '../engine/config.js';
import { createEngine, type Engine } from '../engine/engine.js';
import type { Scenario } from '../engine/protocol/schemas/scenario.js';
import { runScenarioFast } from '../engine/services/scenarios/fastRun.js';

export interface ClockBenchResult {
  simulatedSeconds: number;
  /** Wall seconds of the unattended fast run, and of the one advance, best of two each. */
  fastWallSeconds: number;
  advanceWallSeconds: number;
  fastSpeedup: number;
  advanceSpeedup: number;
  /** advance rate ÷ fast rate. */
  ratio: number;
  participantOrders: number;
}

export const HOUR: Scenario = { name: 'calm-hour', description: 'the calm preset on one market for an hour', durationSeconds: 3600, markets: [0], events: [] } as Scenario;

export async function withEngine<T>(config: Partial<EngineConfig>, body: (e: Engine) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'clock-bench-'));
  // Participants off at start: the scenario turns on market 0's alone, so both runs do the same work.
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation: false, clockStart: Date.UTC(2030, 0, 1), ...config });
  try {
    return await body(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function fastRun(): Promise<number> {
  return withEngine({ clock: 'fast' }, async (e) => (await runScenarioFast(e.ctx, HOUR)).wallSeconds);
}

async function advanceRun(): Promise<{ wall: number; orders: number }> {
  return withEngine({ clock: 'stepped' }, async (e) => {
    const ready = await e.listen();
    // Timed from the scenario's start, as runScenarioFast times the fast run.
    const t0 = performance.now();
    await e.ctx.scenarios.start({ scenario: HOUR });
    const res = await fetch(`${ready.trading}/admin/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${ready.operatorToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds: HOUR.durationSeconds }) });
    const wall = (performance.now() - t0) / 1000;
    const body = (await res.json()) as { processed?: { participantOrders: number } };
    if (res.status !== 200 || !body.processed) throw new Error(`advance answered ${res.status}: ${JSON.stringify(body)}`);
    return { wall, orders: body.processed.participantOrders };
  });
}

export async function runClockBench(): Promise<ClockBenchResult> {
  const fast: number[] = [];
  const advance: number[] = [];
  let orders = 0;
  for (let i = 0; i < 2; i++) {
    fast.push(await fastRun());
    const a = await advanceRun();
    advance.push(a.wall);
    orders = a.orders;
  }
  const fastWallSeconds = Math.min(...fast);
  const advanceWallSeconds = Math.min(...advance);
  const s = HOUR.durationSeconds;
  return {
    simulatedSeconds: s,
    fastWallSeconds,
    advanceWallSeconds,
    fastSpeedup: s / fastWallSeconds,
    advanceSpeedup: s / advanceWallSeconds,
    ratio: fastWallSeconds / advanceWallSeconds,
    participantOrders: orders,
  };
}
