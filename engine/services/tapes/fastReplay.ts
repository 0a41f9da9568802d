import { performance } from 'node:perf_hooks';
import type { ClockService } from '../runs/clockService.js';
import type { ReplayService } from './replayService.js';

export interface FastReplayReport {
  replays: Array<{ replayId: string; tapes: readonly string[]; entries: number; printFills: number; problems: number; report: string }>;
  simulatedSeconds: number;
  wallSeconds: number;
  /** Simulated seconds per wall-clock second. */
  speedup: number;
  runDir?: string;
}

/**
 * `--clock fast --replay …`: plays every replay of the engine to its last entry through the clock
 * service's driver (no waits), writes each replay's report and the run's report, and says how fast it went.
 */
export async function runReplaysFast(ctx: { readonly replays: ReplayService; readonly clockService: Pick<ClockService, 'runUntil' | 'recorder' | 'status'> }): Promise<FastReplayReport> {
  const t0 = performance.now();
  const from = ctx.clockService.status().now;
  const all = ctx.replays.list();
  const end = Math.max(from, ...all.map((r) => ctx.replays.endOf(r.replayId)));
  await ctx.clockService.runUntil(end);
  const replays = ctx.replays.list().map((r) => ({ replayId: r.replayId, tapes: r.tapes, entries: r.played, printFills: r.printFills, problems: r.problemCount, report: ctx.replays.writeReport(r.replayId) }));
  const runDir = ctx.clockService.recorder?.write();
  const wallSeconds = (performance.now() - t0) / 1000;
  const simulatedSeconds = (end - from) / 1000;
  return {
    replays,
    simulatedSeconds,
    wallSeconds: Math.round(wallSeconds * 1000) / 1000,
    speedup: Math.round(simulatedSeconds / Math.max(wallSeconds, 1e-6)),
    ...(runDir !== undefined ? { runDir } : {}),
  };
}
