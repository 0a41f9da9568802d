/**
 * Replay (issue 22): a one-hour busy tape (bench/mirrorTape.ts) replayed by the engine in its own process with
 * `--replay <tape> --clock fast`, which plays it to its last entry and exits: tape span ÷ wall time, both
 * for the whole process (start, replay, reports, exit) and for the replay loop alone as the engine reports it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './engineProcess.js';
import { writeBusyTape, type BusyTape } from './mirrorTape.js';

export interface ReplayBenchResult {
  tape: BusyTape;
  /** True: the compiled engine in dist/ ran; false: the sources through tsx (a slower start). */
  compiled: boolean;
  /** Spawn to exit. */
  processWallSeconds: number;
  processSpeedup: number;
  /** The engine's own figures of the replay loop (`--clock fast` report), when it printed them. */
  loopWallSeconds?: number;
  loopSpeedup?: number;
  /** Entries the replay played, and print fills (none expected: no local orders). */
  played?: number;
  problems?: number;
}

export async function runReplayBench(opts: { seconds?: number; eventsPerSecond?: number; seed?: number } = {}): Promise<ReplayBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-replay-'));
  try {
    const tape = writeBusyTape(join(dir, 'tapes'), { seed: opts.seed ?? 22, seconds: opts.seconds ?? 3600, eventsPerSecond: opts.eventsPerSecond ?? 25 });
    const { engineEntry } = (await import(pathToFileURL(join(ROOT, 'scripts', 'engineEntry.mjs')).href)) as { engineEntry(): { compiled: boolean; args: string[] } };
    const entry = engineEntry();
    const args = [...entry.args, '--data-dir', join(dir, 'data'), '--chain', 'none', '--no-demo', '--no-sim', '--replay', tape.path, '--clock', 'fast'];
    const t0 = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.once('exit', (c) => resolve({ code: c, stdout: out, stderr: err }));
    });
    const processWallSeconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`--replay --clock fast exited ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`);
    const report = lastJson(stdout) as { wallSeconds?: number; speedup?: number; replays?: Array<{ entries?: number; problems?: number }> } | undefined;
    const replay = report?.replays?.[0];
    return {
      tape,
      compiled: entry.compiled,
      processWallSeconds,
      processSpeedup: tape.spanMs / 1000 / processWallSeconds,
      ...(typeof report?.wallSeconds === 'number' ? { loopWallSeconds: report.wallSeconds, loopSpeedup: tape.spanMs / 1000 / report.wallSeconds } : {}),
      ...(typeof replay?.entries === 'number' ? { played: replay.entries } : {}),
      ...(typeof replay?.problems === 'number' ? { problems: replay.problems } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The last line of the output that parses as a JSON object (the fast run's report), or the whole output as one JSON value. */
function lastJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    for (const line of text.trim().split('\n').reverse()) {
      try {
        const v = JSON.parse(line) as unknown;
        if (typeof v === 'object' && v !== null) return v;
      } catch {
        // not this line
      }
    }
    return undefined;
  }
}
