import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { EngineConfig } from '../config.js';
import { createEngine } from '../engine.js';
import type { Clock } from '../services/clock.js';
import type { EngineContext } from '../http/engineContext.js';

/** A whole engine without a chain or demo data in a temp data directory, for route tests with inject. */
export async function startTestEngine(clock: Clock, config: Partial<EngineConfig> = {}): Promise<{ ctx: EngineContext; app: FastifyInstance; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'routes-'));
  const engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, rateLimits: false, simulation: false, ...config }, { clock });
  return {
    ctx: engine.ctx,
    app: engine.app,
    async close() {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An engine context a kit fills in step by step (the composition root builds its own at once). */
export type WritableContext = { -readonly [K in keyof EngineContext]: EngineContext[K] };
