import { performance } from 'node:perf_hooks';
import type { Scenario } from '../../protocol/schemas/scenario.js';
import type { Infra } from '../infra.js';
import type { ClockService } from '../runs/clockService.js';
import type { ScenarioService } from './scenarioService.js';

export interface FastRunReport {
  scenario: string;
  simulatedSeconds: number;
  wallSeconds: number;
  /** Simulated seconds per wall-clock second. */
  speedup: number;
  trades: number;
  steps: number;
  failedSteps: number;
  /** Where the run's report and trade export went (an engine started with --clock fast). */
  runDir?: string;
}

/** FAST_EPOCH: where a fast run's manual clock starts, so two runs of one scenario replay identically. */
export const FAST_EPOCH = Date.UTC(2030, 0, 1);

/** What a fast run uses: the scenario service and the database (to count trades). */
export type FastRunDeps = Pick<Infra, 'db'> & {
  readonly scenarios: Pick<ScenarioService, 'start' | 'runToEnd' | 'current'>;
  readonly clockService: Pick<ClockService, 'runUntil' | 'recorder'>;
};

/**
 * Runs a scenario to its end in fast mode (the engine must be on a ManualClock): no wall-clock waits,
 * participants, events and (on a SteppedClock) GTD expiries run back to back in simulated time through
 * the clock service's driver, which fails with `clock_stalled` if simulated time stops advancing. Wall
 * time is measured here, outside the simulation, only to report the speed-up.
 */
export async function runScenarioFast(ctx: FastRunDeps, scenario: Scenario): Promise<FastRunReport> {
  const tradesBefore = countTrades(ctx);
  const t0 = performance.now();
  const started = await ctx.scenarios.start({ scenario });
  await ctx.clockService.runUntil(started.startedAt + Math.round(scenario.durationSeconds * 1000));
  const p = ctx.scenarios.current()!;
  const runDir = ctx.clockService.recorder?.write();
  const wallSeconds = (performance.now() - t0) / 1000;
  return {
    scenario: scenario.name,
    simulatedSeconds: scenario.durationSeconds,
    wallSeconds: round3(wallSeconds),
    speedup: Math.round(scenario.durationSeconds / Math.max(wallSeconds, 1e-6)),
    trades: countTrades(ctx) - tradesBefore,
    steps: p.steps.length,
    failedSteps: p.steps.filter((s) => !s.ok).length,
    ...(runDir !== undefined ? { runDir } : {}),
  };
}

function countTrades(ctx: FastRunDeps): number {
  return Number(ctx.db.prepare('SELECT COUNT(*) FROM trades').pluck().get());
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
