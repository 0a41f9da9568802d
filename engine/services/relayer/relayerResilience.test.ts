import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// Payloads are signed exactly as callers sign them, with the client's builders (test-only upward import).
import { buildSafeCreateSubmit, buildWalletProxyBody, buildWalletSafeBody } from '../../client/relayerSigners.js';
import { rejectsWith, startRelayerHarness, waitForState, type RelayerHarness } from '../../testkit/relayerKit.js';

async function safeCreateBody(h: RelayerHarness, u: ReturnType<RelayerHarness['user']>) {
  return buildSafeCreateSubmit(u.account, { chainId: h.ctx.chain.chainId, safeFactory: h.ctx.chain.deployment.safeFactory, safe: h.relayer.chain.walletOf(u.auth, 'SAFE') });
}

describe('relayer without a chain (--chain none)', () => {
  it('answers 503 wallet_service_disabled on chain routes and still serves GET /transaction', async () => {
    const h = await startRelayerHarness({ chain: 'none' });
    try {
      const u = h.user();
      await rejectsWith(h.relayer.submit(u.auth, {}), 'wallet_service_disabled', 503);
      await rejectsWith(h.relayer.nonce({ address: u.auth, type: 'SAFE' }), 'wallet_service_disabled', 503);
      await rejectsWith(h.relayer.relayPayload({ address: u.auth }), 'wallet_service_disabled', 503);
      await rejectsWith(h.relayer.deployed({ address: u.auth }), 'wallet_service_disabled', 503);
      await rejectsWith(h.relayer.approve(u.auth, {}), 'wallet_service_disabled', 503);
      await rejectsWith(h.relayer.walletProxy(u.auth, {}), 'wallet_service_disabled', 503);
      await rejectsWith(h.relayer.walletSafe(u.auth, {}), 'wallet_service_disabled', 503);
      assert.deepEqual(h.relayer.transaction({ id: 'nope' }), []);
      assert.deepEqual(h.relayer.transactions(u.auth), []);
    } finally {
      await h.close();
    }
  });
});

describe('relayer with an unreachable JSON-RPC node', () => {
  it('answers 502 wallet_transport_error on chain routes', async () => {
    const h = await startRelayerHarness({ chain: { rpcUrl: 'http://127.0.0.1:9/' } });
    try {
      const u = h.user();
      const body = await buildWalletSafeBody(u.account, { chainId: h.ctx.chain.chainId, safeFactory: h.ctx.chain.deployment.safeFactory });
      await rejectsWith(h.relayer.walletSafe(u.auth, body), 'wallet_transport_error', 502, /wallet_transport_error/);
      await rejectsWith(h.relayer.submit(u.auth, await safeCreateBody(h, u)), 'wallet_transport_error', 502);
      await rejectsWith(h.relayer.nonce({ address: u.auth, type: 'PROXY' }), 'wallet_transport_error', 502);
      await rejectsWith(h.relayer.approve(u.auth, { token: h.ctx.chain.deployment.collateral, spender: u.auth, amount: '1' }), 'wallet_transport_error', 502);
    } finally {
      await h.close();
    }
  });
});

describe('relayer when the node goes away mid-flight', () => {
  it('ends an accepted /submit transaction STATE_FAILED with the transport error, and later calls answer 502', async () => {
    const h = await startRelayerHarness({ settings: { transportGiveUpMs: 500 } });
    try {
      const u = h.user();
      h.relayer.hooks.beforeBroadcast = async () => {
        await h.ctx.chain.stop();
      };
      const res = await h.relayer.submit(u.auth, await safeCreateBody(h, u));
      assert.equal(res.state, 'STATE_NEW');
      const failed = await waitForState(h, res.transactionID, ['STATE_FAILED']);
      assert.match(failed.errorMsg, /^wallet_transport_error: broadcast failed: /);
      assert.equal(failed.transactionHash, '');
      await rejectsWith(h.relayer.nonce({ address: u.auth, type: 'SAFE' }), 'wallet_transport_error', 502);
    } finally {
      await h.close();
    }
  });

  it('answers 502 wallet_transport_error from a synchronous wallet route and records the failure', async () => {
    const h = await startRelayerHarness({ settings: { transportGiveUpMs: 500 } });
    try {
      const u = h.user();
      const payload = await h.relayer.relayPayload({ address: u.auth });
      h.relayer.hooks.beforeBroadcast = async () => {
        await h.ctx.chain.stop();
      };
      await rejectsWith(h.relayer.walletProxy(u.auth, await buildWalletProxyBody(u.account, payload, [])), 'wallet_transport_error', 502, /broadcast failed/);
      const [tx] = h.relayer.transactions(u.auth);
      assert.equal(tx?.state, 'STATE_FAILED');
      assert.match(tx!.errorMsg, /^wallet_transport_error:/);
    } finally {
      await h.close();
    }
  });
});

describe('relayer restart', () => {
  it('broadcasts a transaction a previous run accepted but never sent', async () => {
    const h = await startRelayerHarness();
    try {
      const u = h.user();
      h.relayer.hooks.beforeBroadcast = () => new Promise<void>(() => undefined); // the old run never gets to send
      const res = await h.relayer.submit(u.auth, await safeCreateBody(h, u));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(h.relayer.transaction({ id: res.transactionID })[0]?.state, 'STATE_NEW');
      await h.restartService();
      const done = await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
      assert.match(done.transactionHash, /^0x[0-9a-f]{64}$/);
      assert.deepEqual(await h.relayer.deployed({ address: u.auth, type: 'SAFE' }), { deployed: true, address: done.proxyAddress });
    } finally {
      await h.close();
    }
  });

  it('keeps watching a broadcast transaction across a restart until it is mined and confirmed', async () => {
    const h = await startRelayerHarness({ settings: { confirmations: 2 } });
    try {
      const pub = h.ctx.chain.publicClient!;
      const rpc = (method: string, params: unknown[] = []) => pub.request({ method, params } as never);
      await rpc('evm_setAutomine', [false]);
      const u = h.user();
      const res = await h.relayer.submit(u.auth, await safeCreateBody(h, u));
      const executed = await waitForState(h, res.transactionID, ['STATE_EXECUTED']);
      assert.match(executed.transactionHash, /^0x[0-9a-f]{64}$/);

      await h.restartService({ confirmations: 2 });
      await rpc('evm_mine');
      const mined = await waitForState(h, res.transactionID, ['STATE_MINED']);
      assert.equal(mined.transactionHash, executed.transactionHash);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(h.relayer.transaction({ id: res.transactionID })[0]?.state, 'STATE_MINED', 'one block is not two confirmations');
      await rpc('evm_mine');
      await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
      await rpc('evm_setAutomine', [true]);
    } finally {
      await h.close();
    }
  });
});
