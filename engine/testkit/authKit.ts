import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, type EngineConfig } from '../config.js';
import { openDatabase, type Db } from '../store/database.js';
import { loadOrCreateSecrets } from '../store/secrets.js';
import { WriteBatcher } from '../store/writeBatcher.js';
import { ManualClock } from '../services/clock.js';
import type { EngineContext } from '../http/engineContext.js';
import type { WritableContext } from './engineKit.js';
import { AuthService } from '../services/auth/authService.js';

export interface AuthTestContext {
  ctx: EngineContext;
  auth: AuthService;
  clock: ManualClock;
  /** Welcome credits granted: [address, amount, reason]. */
  credits: Array<[string, bigint, string]>;
  db: Db;
  dir: string;
}

/**
 * A context with just what AuthService needs, on a real SQLite file in a temp directory (tests only).
 * Passing `reuse` opens a second service on the same database and clock: a restart with an empty cache.
 */
export function authTestContext(partial: Partial<EngineConfig> = {}, reuse?: AuthTestContext, startMs = 1_718_000_000_000): AuthTestContext {
  const dir = reuse?.dir ?? mkdtempSync(join(tmpdir(), 'auth-test-'));
  const config = resolveConfig({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, serveRenderer: false, ...partial });
  const clock = reuse?.clock ?? new ManualClock(startMs);
  const db = reuse?.db ?? openDatabase(join(dir, 'exchange.sqlite'));
  const credits: Array<[string, bigint, string]> = [];
  const ctx = {
    config,
    clock,
    db,
    writes: new WriteBatcher(db),
    secrets: loadOrCreateSecrets(dir),
    // The app's throttle hook, as a pass-through, for route tests on the whole app.
    rateLimiter: { hook: async () => undefined, stop: () => undefined },
  } as unknown as WritableContext;
  const auth = new AuthService(ctx);
  // The welcome grant the composition root wires to the order service, recorded instead.
  auth.onFirstKey.add(async (address) => credits.push([address, config.initialCollateral, 'welcome']));
  ctx.auth = auth;
  return { ctx, auth, clock, credits, db, dir };
}
