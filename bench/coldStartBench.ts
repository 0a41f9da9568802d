/** Cold start: a fresh data directory (spawn anvil, deploy every contract, seed demo markets) to the ready line. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineProcess } from './engineProcess.js';

export interface ColdStartResult {
  /** Fresh data directory, local anvil chain, demo markets: ms to the ready line, per run. */
  freshMs: number[];
  /** The same data directory started again (state kept). */
  restartMs: number[];
  /** Fresh data directory without a chain. */
  freshNoChainMs: number[];
}

async function once(args: string[], dataDir: string): Promise<number> {
  const e = await startEngineProcess(['--port', '0', '--data-dir', dataDir, ...args]);
  await e.stop();
  return e.startMs;
}

export async function runColdStartBench(runs = 3): Promise<ColdStartResult> {
  const result: ColdStartResult = { freshMs: [], restartMs: [], freshNoChainMs: [] };
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
    try {
      result.freshMs.push(await once(['--chain', 'anvil'], dir));
      result.restartMs.push(await once(['--chain', 'anvil'], dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const dir2 = mkdtempSync(join(tmpdir(), 'bench-cold-'));
    try {
      result.freshNoChainMs.push(await once(['--chain', 'none'], dir2));
    } finally {
      rmSync(dir2, { recursive: true, force: true });
    }
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runColdStartBench()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
