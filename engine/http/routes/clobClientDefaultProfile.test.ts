import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient } from '@polymarket/clob-client';
import { createEngine, type Engine } from '../../engine.js';

describe('the stock clob-client against the default profile (the user forgot --profile polymarket)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clob-default-'));
  let engine: Engine;
  let host: string;

  before(async () => {
    engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, rateLimits: false, serveRenderer: false });
    host = (await engine.listen()).trading;
  });
  after(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const chainId of [137, 0]) {
    it(`createApiKey (chain id ${chainId || 'local'}) is refused 401 missing_auth_headers, and the message says to run with --profile polymarket`, async () => {
      // throwOnError (the constructor's last option) so the answer's body arrives as the error's data.
      const client = new ClobClient(host, chainId || engine.ctx.config.chainId, Wallet.createRandom(), undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, true);
      await assert.rejects(client.createApiKey(), (e: Error & { status?: number; data?: { error: string; message: string } }) => {
        assert.equal(e.status, 401);
        assert.equal(e.data?.error, 'missing_auth_headers');
        assert.match(e.data?.message ?? '', /SERVICE_ADDRESS/);
        assert.match(e.data?.message ?? '', /--profile polymarket/);
        return true;
      });
    });
  }
});
