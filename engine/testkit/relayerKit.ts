/**
 * Test support (not a test): a real anvil chain from the chain package, a real SQLite file, and a
 * RelayerService wired on a minimal EngineContext, so the relayer's own tests need no other service.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { startChain } from '../chain/startChain.js';
import { resolveConfig, type ChainMode } from '../config.js';
import { isApiError } from '../protocol/errors.js';
import type { TransactionRecord } from '../protocol/schemas/relayer.js';
import { openDatabase, type Db } from '../store/database.js';
import { loadOrCreateSecrets } from '../store/secrets.js';
import { WriteBatcher } from '../store/writeBatcher.js';
import { systemClock } from '../services/clock.js';
import type { EngineContext } from '../http/engineContext.js';
import type { WritableContext } from './engineKit.js';
import { RelayerService } from '../services/relayer/relayerService.js';
import type { RelayerSettings } from '../services/relayer/relayerSettings.js';

export interface RelayerHarness {
  ctx: EngineContext;
  relayer: RelayerService;
  db: Db;
  /** A fresh user key (its address lower-cased as `auth`). */
  user(): { account: PrivateKeyAccount; auth: Address };
  /** A new RelayerService over the same database and chain, as after an engine restart. */
  restartService(settings?: Partial<RelayerSettings>): Promise<RelayerService>;
  close(): Promise<void>;
}

export async function startRelayerHarness(opts: { chain?: ChainMode; settings?: Partial<RelayerSettings> } = {}): Promise<RelayerHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'relayer-'));
  const config = resolveConfig({ dataDir: dir, chain: opts.chain ?? 'anvil', seedDemo: false, rateLimits: false });
  const secrets = loadOrCreateSecrets(dir);
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);
  const chain = await startChain(config, secrets);
  const ctx = { config, clock: systemClock, db, writes, secrets, chain } as WritableContext;
  ctx.relayer = new RelayerService(ctx, opts.settings);
  await ctx.relayer.init();
  return {
    ctx,
    get relayer() {
      return ctx.relayer;
    },
    db,
    user() {
      const account = privateKeyToAccount(generatePrivateKey());
      return { account, auth: account.address.toLowerCase() as Address };
    },
    async restartService(settings) {
      ctx.relayer.stop();
      ctx.relayer = new RelayerService(ctx, settings ?? opts.settings);
      await ctx.relayer.init();
      return ctx.relayer;
    },
    async close() {
      ctx.relayer.stop();
      await chain.stop();
      writes.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts that `p` rejects with the ApiError `code` / `status` (and a message matching `message`). */
export async function rejectsWith(p: Promise<unknown>, code: string, status: number, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(isApiError(e), `expected an ApiError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.status, status);
    if (message) assert.match(e.message, message);
    return true;
  });
}

/**
 * Polls the (current) relayer's GET /transaction until `id` reaches one of `states`; a final failure
 * it was not waiting for fails at once, with the transaction's error.
 */
export async function waitForState(h: Pick<RelayerHarness, 'relayer'>, id: string, states: string[], timeoutMs = 20_000): Promise<TransactionRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [tx] = h.relayer.transaction({ id });
    if (tx && states.includes(tx.state)) return tx;
    if (tx && ['STATE_FAILED', 'STATE_INVALID'].includes(tx.state)) assert.fail(`transaction ${id} ended ${tx.state}: ${tx.errorMsg}`);
    if (Date.now() > deadline) assert.fail(`transaction ${id} still ${tx?.state} (${tx?.errorMsg}) after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
