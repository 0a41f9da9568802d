import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ReadyLine } from '../engine/index.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The ready line the headless exchange prints (decisions §7). */
export type ReadyInfo = ReadyLine;

export type EngineProcess = ReadyProcess<ReadyInfo>;

/** A child process that printed a JSON ready line (its first line on stdout). */
export interface ReadyProcess<T> {
  readonly ready: T;
  /** Milliseconds from spawn to the ready line. */
  readonly startMs: number;
  /** The child's process id (the benchmark reads its CPU time from /proc). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** Spawns `node <args>` in the project root and waits for the JSON object it prints as its first line. */
export async function spawnWithReadyLine<T>(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ReadyProcess<T>> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<T>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`${args.join(' ')} printed a non-JSON first line: ${line}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before ready: ${stderr}`)));
  });
  const startMs = performance.now() - t0;
  return {
    ready,
    startMs,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Starts the headless exchange as its own process, as `npm run exchange` does (scripts/engineEntry.mjs), so a load
 * generator in this process measures it over real HTTP without sharing its event loop.
 */
export async function startEngineProcess(args: string[]): Promise<EngineProcess> {
  // BENCH_ENGINE_NODE_ARGS (e.g. "--cpu-prof") profiles the engine process under load.
  const nodeArgs = (process.env.BENCH_ENGINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The engine itself, not the scripts/exchange.mjs wrapper (which may run it as a child): its pid is
  // the one whose CPU time the benchmark reads.
  const { engineEntry } = (await import(pathToFileURL(join(ROOT, 'scripts', 'engineEntry.mjs')).href)) as { engineEntry(): { compiled: boolean; args: string[] } };
  return spawnWithReadyLine<ReadyInfo>([...nodeArgs, ...engineEntry().args, ...args]);
}
