import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient } from '@polymarket/clob-client';
import type { Engine } from '../../engine.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';

describe('the stock clob-client against the default profile (the user forgot --profile polymarket)', () => {
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;

  before(async () => {
    ({ engine, host, close } = await startListeningEngine({}));
  });
  after(() => close());

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
