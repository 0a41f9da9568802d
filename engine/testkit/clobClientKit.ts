import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineConfig } from '../config.js';
import { createEngine, type Engine } from '../engine.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ORDER_HASH = /^0x[0-9a-f]{64}$/;

/** A whole engine listening on a free port (no chain, no demo data) in a temp directory, for the stock clients' tests. */
export async function startListeningEngine(config: Partial<EngineConfig> = {}): Promise<{ engine: Engine; host: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clob-client-'));
  const engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, rateLimits: false, serveRenderer: false, ...config });
  const host = (await engine.listen()).trading;
  return {
    engine,
    host,
    async close() {
      await engine.close();
      // No retries: engine.close() resolves once nothing of the engine touches the directory, so an
      // ENOTEMPTY here is a shutdown bug to fix (it was the WAL checkpoint thread's late connection).
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
