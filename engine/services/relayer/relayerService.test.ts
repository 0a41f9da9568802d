import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeFunctionData, erc20Abi, maxUint256, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
// Payloads are signed exactly as callers sign them, with the client's builders (test-only upward import).
import { buildProxySubmit, buildSafeCreateSubmit, buildSafeSubmit, buildWalletProxyBody, buildWalletSafeBody } from '../../client/relayerSigners.js';
import { isApiError } from '../../protocol/errors.js';
import { ZERO_HASH } from '../../protocol/relayerSigning.js';
import { rejectsWith, startRelayerHarness, waitForState, type RelayerHarness } from '../../testkit/relayerKit.js';

let h: RelayerHarness;
before(async () => {
  h = await startRelayerHarness();
});
after(async () => {
  await h?.close();
});

const contracts = () => {
  const d = h.ctx.chain.deployment;
  return { safeFactory: d.safeFactory, multiSend: d.multiSend, collateral: d.collateral, proxyFactory: d.proxyFactory, relayHub: d.relayHub };
};

function allowance(token: Address, owner: Address, spender: Address): Promise<bigint> {
  return h.ctx.chain.publicClient!.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] });
}

const approveData = (spender: Address, amount: bigint): Hex => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });

async function deploySafe(user: ReturnType<RelayerHarness['user']>): Promise<Address> {
  const safe = h.relayer.chain.walletOf(user.auth, 'SAFE');
  const body = await buildSafeCreateSubmit(user.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory, safe });
  const { transactionID } = await h.relayer.submit(user.auth, body);
  await waitForState(h, transactionID, ['STATE_CONFIRMED']);
  return safe;
}

describe('POST /submit SAFE-CREATE', () => {
  it('answers STATE_NEW at once, then deploys the Safe through NEW → EXECUTED → MINED → CONFIRMED', async () => {
    const u = h.user();
    const safe = h.relayer.chain.walletOf(u.auth, 'SAFE');
    assert.deepEqual(await h.relayer.deployed({ address: safe }), { deployed: false, address: safe });
    const body = await buildSafeCreateSubmit(u.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory, safe });
    const t0 = Date.now();
    const res = await h.relayer.submit(u.auth, body);
    assert.equal(res.state, 'STATE_NEW');
    assert.match(res.transactionID, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const mined = await waitForState(h, res.transactionID, ['STATE_MINED', 'STATE_CONFIRMED']);
    // MINED is reported only once the reads see the block.
    assert.deepEqual(await h.relayer.deployed({ address: safe }), { deployed: true, address: safe });
    assert.deepEqual(await h.relayer.deployed({ address: u.auth, type: 'SAFE' }), { deployed: true, address: safe });
    const done = await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
    console.log(`    SAFE-CREATE submit → CONFIRMED in ${Date.now() - t0} ms`);
    assert.match(done.transactionHash, /^0x[0-9a-f]{64}$/);
    assert.equal(mined.transactionHash, done.transactionHash);
    assert.equal(done.type, 'SAFE-CREATE');
    assert.equal(done.proxyAddress, safe);
    assert.equal(done.from, u.auth);
    assert.equal(done.owner, u.auth);
    assert.equal(done.errorMsg, '');
    assert.deepEqual(await h.relayer.nonce({ address: u.auth, type: 'SAFE' }), { nonce: '0' });
  });

  it('refuses a second deployment of the same Safe with 400 safe_already_deployed', async () => {
    const u = h.user();
    const safe = await deploySafe(u);
    const body = await buildSafeCreateSubmit(u.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory, safe });
    await rejectsWith(h.relayer.submit(u.auth, body), 'safe_already_deployed', 400);
  });

  it('refuses a CreateProxy signature by another key with 400 before queuing', async () => {
    const u = h.user();
    const other = privateKeyToAccount(generatePrivateKey());
    const safe = h.relayer.chain.walletOf(u.auth, 'SAFE');
    const body = await buildSafeCreateSubmit(other, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory, safe });
    await rejectsWith(h.relayer.submit(u.auth, { ...body, from: u.account.address }), 'invalid_relayer_signature', 400, /recovers to/);
    assert.equal(h.relayer.transactions(u.auth).length, 0);
  });

  it('accepts the public client body without nonce or metadata, whatever the address casing', async () => {
    const u = h.user();
    const safe = h.relayer.chain.walletOf(u.auth, 'SAFE');
    const body = await buildSafeCreateSubmit(u.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory, safe });
    assert.equal('nonce' in body, false);
    assert.equal('metadata' in body, false);
    const res = await h.relayer.submit(u.auth, { ...body, to: String(body.to).toUpperCase().replace('0X', '0x') });
    await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
  });
});

describe('POST /submit SAFE', () => {
  it('executes a signed SafeTx through the Safe and moves /nonce by the time it is MINED', async () => {
    const u = h.user();
    const safe = await deploySafe(u);
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const { nonce } = await h.relayer.nonce({ address: u.auth, type: 'SAFE' });
    const body = await buildSafeSubmit(u.account, {
      chainId: h.ctx.chain.chainId, safe, multiSend: contracts().multiSend, nonce, calls: [{ to: contracts().collateral, data: approveData(spender, 123n) }], metadata: 'approve test',
    });
    const t0 = Date.now();
    const res = await h.relayer.submit(u.auth, body);
    assert.equal(res.state, 'STATE_NEW');
    const mined = await waitForState(h, res.transactionID, ['STATE_MINED', 'STATE_CONFIRMED']);
    assert.deepEqual(await h.relayer.nonce({ address: u.auth, type: 'SAFE' }), { nonce: '1' });
    const done = await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
    console.log(`    SAFE submit → CONFIRMED in ${Date.now() - t0} ms`);
    assert.equal(mined.nonce, '0');
    assert.equal(done.metadata, 'approve test');
    assert.equal(done.proxyAddress, safe);
    assert.equal(done.to, contracts().collateral.toLowerCase());
    assert.equal(await allowance(contracts().collateral, safe, spender), 123n);
    assert.ok(Date.parse(done.updatedAt) >= Date.parse(done.createdAt));
  });

  it('runs a MultiSend batch (operation 1) and accepts plain EIP-712 signatures (v 27/28)', async () => {
    const u = h.user();
    const safe = await deploySafe(u);
    const a = privateKeyToAccount(generatePrivateKey()).address;
    const b = privateKeyToAccount(generatePrivateKey()).address;
    const body = await buildSafeSubmit(u.account, {
      chainId: h.ctx.chain.chainId, safe, multiSend: contracts().multiSend, nonce: '0',
      calls: [{ to: contracts().collateral, data: approveData(a, 1n) }, { to: contracts().collateral, data: approveData(b, 2n) }],
    });
    assert.equal((body.signatureParams as Record<string, string>).operation, '1');
    const res = await h.relayer.submit(u.auth, body);
    await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
    assert.equal(await allowance(contracts().collateral, safe, a), 1n);
    assert.equal(await allowance(contracts().collateral, safe, b), 2n);

    // Same kind of transaction, signed as EIP-712 typed data (v 27/28) rather than eth_sign.
    const { safeTxTypedData } = await import('../../protocol/relayerSigning.js');
    const tx = {
      to: contracts().collateral, value: 0n, data: approveData(a, 5n), operation: 0, safeTxGas: 0n, baseGas: 0n, gasPrice: 0n,
      gasToken: '0x0000000000000000000000000000000000000000' as Address, refundReceiver: '0x0000000000000000000000000000000000000000' as Address, nonce: 1n,
    };
    const sig = await u.account.signTypedData(safeTxTypedData(h.ctx.chain.chainId, safe, tx));
    const res2 = await h.relayer.submit(u.auth, {
      type: 'SAFE', from: u.auth, to: tx.to, proxyWallet: safe, data: tx.data, nonce: '1', signature: sig,
      signatureParams: { operation: '0', safeTxGas: '0', baseGas: '0', gasPrice: '0', gasToken: tx.gasToken, refundReceiver: tx.refundReceiver },
    });
    await waitForState(h, res2.transactionID, ['STATE_CONFIRMED']);
    assert.equal(await allowance(contracts().collateral, safe, a), 5n);
  });

  it('answers 409 relayer_nonce_conflict for a stale, a future or an in-flight nonce', async () => {
    const u = h.user();
    const safe = await deploySafe(u);
    const mk = (nonce: string, amount: bigint) =>
      buildSafeSubmit(u.account, { chainId: h.ctx.chain.chainId, safe, multiSend: contracts().multiSend, nonce, calls: [{ to: contracts().collateral, data: approveData(u.account.address, amount) }] });
    await rejectsWith(h.relayer.submit(u.auth, await mk('1', 1n)), 'relayer_nonce_conflict', 409, /next nonce is 0/);
    // Two concurrent submissions with the same nonce: the wallet queue lets exactly one through.
    const [first, second] = await Promise.allSettled([h.relayer.submit(u.auth, await mk('0', 1n)), h.relayer.submit(u.auth, await mk('0', 2n))]);
    const ok = [first, second].filter((r) => r.status === 'fulfilled');
    const bad = [first, second].filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    assert.equal(ok.length, 1);
    assert.equal(bad.length, 1);
    assert.equal(bad[0]!.reason.code, 'relayer_nonce_conflict');
    assert.equal(bad[0]!.reason.status, 409);
    await waitForState(h, (ok[0] as PromiseFulfilledResult<{ transactionID: string }>).value.transactionID, ['STATE_CONFIRMED']);
    await rejectsWith(h.relayer.submit(u.auth, await mk('0', 3n)), 'relayer_nonce_conflict', 409, /stale/);
  });

  it('rejects up front: bad signature, wrong Safe, undeployed Safe, reverting call, other signer', async () => {
    const u = h.user();
    const safe = await deploySafe(u);
    const base = { chainId: h.ctx.chain.chainId, safe, multiSend: contracts().multiSend, nonce: '0' };
    const good = await buildSafeSubmit(u.account, { ...base, calls: [{ to: contracts().collateral, data: approveData(u.account.address, 1n) }] });

    const other = privateKeyToAccount(generatePrivateKey());
    const forged = await buildSafeSubmit(other, { ...base, calls: [{ to: contracts().collateral, data: approveData(u.account.address, 1n) }] });
    await rejectsWith(h.relayer.submit(u.auth, { ...forged, from: u.auth }), 'invalid_relayer_signature', 400);

    const tampered = { ...good, data: approveData(u.account.address, 2n) };
    await rejectsWith(h.relayer.submit(u.auth, tampered), 'invalid_relayer_signature', 400);

    const v29 = { ...good, signature: `${String(good.signature).slice(0, 130)}1d` };
    await rejectsWith(h.relayer.submit(u.auth, v29), 'invalid_relayer_signature', 400, /27, 28, 31 or 32/);

    await rejectsWith(h.relayer.submit(u.auth, { ...good, proxyWallet: contracts().collateral }), 'invalid_relayer_payload', 400, /proxyWallet/);

    const fresh = h.user();
    const freshSafe = h.relayer.chain.walletOf(fresh.auth, 'SAFE');
    const undeployed = await buildSafeSubmit(fresh.account, { ...base, safe: freshSafe, calls: [{ to: contracts().collateral, data: approveData(fresh.account.address, 1n) }] });
    await rejectsWith(h.relayer.submit(fresh.auth, undeployed), 'safe_not_deployed', 400);

    // transfer more collateral than the Safe holds: the pre-flight eth_call reverts, nothing is queued
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [u.account.address, 10n ** 30n] });
    const reverting = await buildSafeSubmit(u.account, { ...base, calls: [{ to: contracts().collateral, data: transfer }] });
    await rejectsWith(h.relayer.submit(u.auth, reverting), 'execution_reverted', 400, /revert/);

    await rejectsWith(h.relayer.submit(other.address.toLowerCase() as Address, good), 'owner_address_mismatch', 400);
    assert.equal(h.relayer.transactions(u.auth).filter((t) => t.type === 'SAFE').length, 0);
  });

  it('names the malformed field in a 400 and accepts the safeTxnGas alias', async () => {
    const u = h.user();
    const safe = await deploySafe(u);
    const good = await buildSafeSubmit(u.account, { chainId: h.ctx.chain.chainId, safe, multiSend: contracts().multiSend, nonce: '0', calls: [{ to: contracts().collateral, data: approveData(u.account.address, 1n) }] });
    const sp = good.signatureParams as Record<string, string>;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, type: 'WALLET' }, 'type'],
      [{ ...good, to: '0x1234' }, 'to'],
      [{ ...good, data: '0xabc' }, 'data'],
      [{ ...good, nonce: '-1' }, 'nonce'],
      [{ ...good, nonce: '1e3' }, 'nonce'],
      [{ ...good, signature: '0x12' }, 'signature'],
      [{ ...good, signatureParams: { ...sp, operation: '2' } }, 'signatureParams.operation'],
      [{ ...good, signatureParams: { ...sp, gasToken: 'nope' } }, 'signatureParams.gasToken'],
      [{ ...good, proxyWallet: undefined }, 'proxyWallet'],
      [{ ...good, signatureParams: undefined }, 'signatureParams'],
    ];
    for (const [body, field] of cases) {
      await assert.rejects(h.relayer.submit(u.auth, body), (e: unknown) => {
        assert.ok(isApiError(e));
        assert.equal(e.status, 400, `${field}: ${e.message}`);
        assert.equal(e.details?.field, field, e.message);
        return true;
      });
    }
    assert.equal(sp.safeTxnGas, '0');
    const res = await h.relayer.submit(u.auth, good);
    await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
  });
});

describe('POST /submit PROXY', () => {
  it('relays a signed proxy call through the GSN hub and deploys the wallet on first use', async () => {
    const u = h.user();
    const wallet = h.relayer.chain.walletOf(u.auth, 'PROXY');
    const payload = await h.relayer.relayPayload({ address: u.auth, type: 'PROXY' });
    assert.equal(payload.address, h.ctx.chain.relayAddress.toLowerCase());
    assert.equal(payload.nonce, '0');
    assert.equal(payload.relayHub, contracts().relayHub.toLowerCase());
    assert.equal(payload.proxyFactory, contracts().proxyFactory.toLowerCase());
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const body = await buildProxySubmit(u.account, payload, [{ to: contracts().collateral, data: approveData(spender, maxUint256) }], { gasLimit: 300_000n, proxyWallet: wallet });
    const t0 = Date.now();
    const res = await h.relayer.submit(u.auth, body);
    const done = await waitForState(h, res.transactionID, ['STATE_CONFIRMED']);
    console.log(`    PROXY submit → CONFIRMED in ${Date.now() - t0} ms`);
    assert.equal(done.type, 'PROXY');
    assert.equal(done.proxyAddress, wallet);
    assert.equal(await allowance(contracts().collateral, wallet, spender), maxUint256);
    assert.deepEqual(await h.relayer.nonce({ address: u.auth, type: 'PROXY' }), { nonce: '1' });
    assert.deepEqual(await h.relayer.deployed({ address: u.auth, type: 'PROXY' }), { deployed: true, address: wallet });
  });

  it('rejects a stale nonce (409), a foreign relay, a paid gas price and a forged signature (400)', async () => {
    const u = h.user();
    const payload = await h.relayer.relayPayload({ address: u.auth });
    const calls = [{ to: contracts().collateral, data: approveData(u.account.address, 1n) }];
    const stale = await buildProxySubmit(u.account, { ...payload, nonce: '5' }, calls);
    await rejectsWith(h.relayer.submit(u.auth, stale), 'relayer_nonce_conflict', 409);
    const foreign = await buildProxySubmit(u.account, { ...payload, address: '0xae700edfd9ab986395f3999fe11177b9903a52f1' }, calls);
    await rejectsWith(h.relayer.submit(u.auth, foreign), 'invalid_relayer_payload', 400, /signatureParams\.relay/);
    const paid = await buildProxySubmit(u.account, { ...payload, gasPrice: '1' }, calls);
    await rejectsWith(h.relayer.submit(u.auth, paid), 'invalid_relayer_payload', 400, /gasPrice/);
    const other = privateKeyToAccount(generatePrivateKey());
    const forged = await buildProxySubmit(other, payload, calls);
    await rejectsWith(h.relayer.submit(u.auth, { ...forged, from: u.auth }), 'invalid_relayer_signature', 400);
    const good = await buildProxySubmit(u.account, payload, calls);
    await rejectsWith(h.relayer.submit(u.auth, { ...good, data: '0x12345678' }), 'invalid_relayer_payload', 400, /proxy\(/);
  });
});

describe('POST /operations/approve', () => {
  it('sends the operator approval and answers with the hash and confirmations; max is 2^256-1', async () => {
    const u = h.user();
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const t0 = Date.now();
    const res = await h.relayer.approve(u.auth, { token: contracts().collateral, spender, amount: maxUint256.toString() });
    console.log(`    approve → answered in ${Date.now() - t0} ms`);
    assert.match(res.txHash, /^0x[0-9a-f]{64}$/);
    assert.ok(res.confirmations >= 1);
    assert.equal(await allowance(contracts().collateral, h.ctx.chain.operatorAddress, spender), maxUint256);
    const receipt = await h.ctx.chain.publicClient!.getTransactionReceipt({ hash: res.txHash as Hex });
    assert.equal(receipt.from.toLowerCase(), h.ctx.chain.operatorAddress.toLowerCase());
  });

  it('runs concurrent approvals one at a time, all confirmed', async () => {
    const u = h.user();
    const spenders = [1, 2, 3].map(() => privateKeyToAccount(generatePrivateKey()).address);
    const results = await Promise.all(spenders.map((s, i) => h.relayer.approve(u.auth, { token: contracts().collateral, spender: s, amount: String(i + 1) })));
    assert.equal(new Set(results.map((r) => r.txHash)).size, 3);
    for (const [i, s] of spenders.entries()) assert.equal(await allowance(contracts().collateral, h.ctx.chain.operatorAddress, s), BigInt(i + 1));
  });

  it('rejects a token without code, a negative or fractional amount and a malformed spender with 400', async () => {
    const u = h.user();
    await rejectsWith(h.relayer.approve(u.auth, { token: u.auth, spender: u.auth, amount: '1' }), 'invalid_field', 400, /token/);
    await rejectsWith(h.relayer.approve(u.auth, { token: contracts().collateral, spender: u.auth, amount: '-1' }), 'invalid_field', 400, /amount/);
    await rejectsWith(h.relayer.approve(u.auth, { token: contracts().collateral, spender: u.auth, amount: '1.5' }), 'invalid_field', 400, /amount/);
    await rejectsWith(h.relayer.approve(u.auth, { token: contracts().collateral, spender: 'abc', amount: '1' }), 'invalid_field', 400, /spender/);
    await rejectsWith(h.relayer.approve(u.auth, { token: contracts().collateral, spender: u.auth, amount: (maxUint256 + 1n).toString() }), 'invalid_field', 400, /2\^256-1/);
  });
});

describe('POST /wallet/proxy', () => {
  it('deploys on an empty first call, then answers the zero hash for an empty call', async () => {
    const u = h.user();
    const payload = await h.relayer.relayPayload({ address: u.auth, type: 'PROXY' });
    const first = await h.relayer.walletProxy(u.auth, await buildWalletProxyBody(u.account, payload, []));
    assert.match(first.txHash, /^0x[0-9a-f]{64}$/);
    assert.notEqual(first.txHash, ZERO_HASH);
    assert.equal(first.proxyWallet, h.relayer.chain.walletOf(u.auth, 'PROXY'));
    assert.deepEqual(await h.relayer.deployed({ address: u.auth, type: 'PROXY' }), { deployed: true, address: first.proxyWallet });
    assert.deepEqual(await h.relayer.nonce({ address: u.auth, type: 'PROXY' }), { nonce: '1' });
    const payload2 = await h.relayer.relayPayload({ address: u.auth, type: 'PROXY' });
    const again = await h.relayer.walletProxy(u.auth, await buildWalletProxyBody(u.account, payload2, []));
    assert.deepEqual(again, { txHash: ZERO_HASH, confirmations: h.relayer.settings.confirmations, proxyWallet: first.proxyWallet });
    assert.deepEqual(await h.relayer.nonce({ address: u.auth, type: 'PROXY' }), { nonce: '1' });
  });

  it('runs calls in order from the proxy wallet and reports the relay hash', async () => {
    const u = h.user();
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const payload = await h.relayer.relayPayload({ address: u.auth, type: 'PROXY' });
    const t0 = Date.now();
    const res = await h.relayer.walletProxy(
      u.auth,
      await buildWalletProxyBody(u.account, payload, [
        { to: contracts().collateral, data: approveData(spender, 7n) },
        { to: contracts().collateral, data: approveData(spender, 9n) },
      ]),
    );
    console.log(`    wallet/proxy (deploy + 2 calls) answered in ${Date.now() - t0} ms`);
    assert.equal(await allowance(contracts().collateral, res.proxyWallet as Address, spender), 9n);
    const receipt = await h.ctx.chain.publicClient!.getTransactionReceipt({ hash: res.txHash as Hex });
    assert.equal(receipt.to?.toLowerCase(), contracts().relayHub.toLowerCase());
  });

  it('posts a reverting batch but answers 400 relay_call_reverted, and the nonce moves on', async () => {
    const u = h.user();
    const payload = await h.relayer.relayPayload({ address: u.auth, type: 'PROXY' });
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [u.account.address, 10n ** 30n] });
    const body = await buildWalletProxyBody(u.account, payload, [{ to: contracts().collateral, data: approveData(u.account.address, 1n) }, { to: contracts().collateral, data: transfer }]);
    await assert.rejects(h.relayer.walletProxy(u.auth, body), (e: unknown) => {
      assert.ok(isApiError(e));
      assert.equal(e.code, 'relay_call_reverted');
      assert.equal(e.status, 400);
      assert.match(e.message, /relay call reverted/);
      assert.match(String(e.details?.txHash), /^0x[0-9a-f]{64}$/);
      const [tx] = h.relayer.transaction({ id: String(e.details?.transactionID) });
      assert.equal(tx?.state, 'STATE_FAILED');
      assert.match(tx!.errorMsg, /relay call reverted/);
      return true;
    });
    assert.deepEqual(await h.relayer.nonce({ address: u.auth, type: 'PROXY' }), { nonce: '1' });
    // the first call of the batch did not stick: the whole batch reverted
    assert.equal(await allowance(contracts().collateral, h.relayer.chain.walletOf(u.auth, 'PROXY'), u.account.address), 0n);
  });

  it('enforces the backend gas values, the hub nonce, the owner and strict formats', async () => {
    const u = h.user();
    const payload = await h.relayer.relayPayload({ address: u.auth, type: 'PROXY' });
    const calls = [{ to: contracts().collateral as Address, data: approveData(u.account.address, 1n) }];
    const clientGas = await buildWalletProxyBody(u.account, { ...payload, gasLimit: '123456' }, calls);
    await rejectsWith(h.relayer.walletProxy(u.auth, { ...clientGas, gasLimit: '123456' }), 'invalid_relayer_signature', 400, /backend/);
    const wrongNonce = await buildWalletProxyBody(u.account, { ...payload, nonce: '3' }, calls);
    await rejectsWith(h.relayer.walletProxy(u.auth, wrongNonce), 'relay_nonce_mismatch', 400);
    const good = await buildWalletProxyBody(u.account, payload, calls);
    await rejectsWith(h.relayer.walletProxy(h.user().auth, good), 'owner_address_mismatch', 400);
    const c0 = (good.calls as Record<string, string>[])[0]!;
    const bad: [Record<string, unknown>, string][] = [
      [{ ...good, calls: [{ ...c0, data: c0.data!.toUpperCase().replace('0X', '0x') }] }, 'calls[0].data'],
      [{ ...good, calls: [{ ...c0, value: '1e3' }] }, 'calls[0].value'],
      [{ ...good, calls: [{ ...c0, value: '-1' }] }, 'calls[0].value'],
      [{ ...good, calls: [{ ...c0, type: 'STATICCALL' }] }, 'calls[0].type'],
      [{ ...good, calls: [{ ...c0, to: c0.to!.slice(2) }] }, 'calls[0].to'],
      [{ ...good, owner: u.auth.slice(2).toUpperCase() }, 'owner'],
      [{ ...good, nonce: '01x' }, 'nonce'],
    ];
    for (const [body, field] of bad) {
      await assert.rejects(h.relayer.walletProxy(u.auth, body), (e: unknown) => {
        assert.ok(isApiError(e));
        assert.equal(e.code, 'invalid_field', e.message);
        assert.equal(e.details?.field, field, e.message);
        return true;
      });
    }
  });
});

describe('POST /wallet/safe', () => {
  it('deploys the Safe, then answers the zero hash once it exists', async () => {
    const u = h.user();
    const body = await buildWalletSafeBody(u.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory });
    const t0 = Date.now();
    const res = await h.relayer.walletSafe(u.auth, body);
    console.log(`    wallet/safe answered in ${Date.now() - t0} ms`);
    assert.equal(res.safe, h.relayer.chain.walletOf(u.auth, 'SAFE'));
    assert.notEqual(res.txHash, ZERO_HASH);
    assert.ok(res.confirmations >= 1);
    assert.deepEqual(await h.relayer.deployed({ address: res.safe }), { deployed: true, address: res.safe });
    const again = await h.relayer.walletSafe(u.auth, body);
    assert.deepEqual(again, { txHash: ZERO_HASH, confirmations: h.relayer.settings.confirmations, safe: res.safe });
  });

  it('answers 400 safe_proxy_deployment_reverted for a signature over other fields or by another key', async () => {
    const u = h.user();
    const body = await buildWalletSafeBody(u.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory });
    await rejectsWith(h.relayer.walletSafe(u.auth, { ...body, payment: '5' }), 'safe_proxy_deployment_reverted', 400, /safe proxy deployment reverted/);
    const other = privateKeyToAccount(generatePrivateKey());
    const foreign = await buildWalletSafeBody(other, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory });
    await rejectsWith(h.relayer.walletSafe(u.auth, { ...foreign, owner: u.auth }), 'safe_proxy_deployment_reverted', 400);
    assert.deepEqual(await h.relayer.deployed({ address: u.auth, type: 'SAFE' }), { deployed: false, address: h.relayer.chain.walletOf(u.auth, 'SAFE') });
  });

  it('rejects uppercase hex without 0x, negative values and a mismatched owner', async () => {
    const u = h.user();
    const body = await buildWalletSafeBody(u.account, { chainId: h.ctx.chain.chainId, safeFactory: contracts().safeFactory });
    await rejectsWith(h.relayer.walletSafe(u.auth, { ...body, owner: u.auth.slice(2).toUpperCase() }), 'invalid_field', 400, /0x prefix is missing/);
    await rejectsWith(h.relayer.walletSafe(u.auth, { ...body, paymentToken: 'ABCDEF0000000000000000000000000000000000' }), 'invalid_field', 400, /paymentToken/);
    await rejectsWith(h.relayer.walletSafe(u.auth, { ...body, payment: '-1' }), 'invalid_field', 400, /negative/);
    await rejectsWith(h.relayer.walletSafe(h.user().auth, body), 'owner_address_mismatch', 400);
    // EIP-55 casing is optional
    const res = await h.relayer.walletSafe(u.auth, { ...body, owner: u.account.address });
    assert.equal(res.safe, h.relayer.chain.walletOf(u.auth, 'SAFE'));
  });
});

describe('relayer reads', () => {
  it('GET /transaction answers [] for an unknown id and /transactions lists only the caller’s, newest first', async () => {
    assert.deepEqual(h.relayer.transaction({ id: '0190b317-a1d3-7bec-9b91-eeb6dcd3a620' }), []);
    const u = h.user();
    await deploySafe(u);
    await h.relayer.walletProxy(u.auth, await buildWalletProxyBody(u.account, await h.relayer.relayPayload({ address: u.auth }), []));
    const mine = h.relayer.transactions(u.auth);
    assert.deepEqual(mine.map((t) => t.type), ['PROXY', 'SAFE-CREATE']);
    assert.ok(mine.every((t) => t.owner === u.auth));
    assert.deepEqual(Object.keys(mine[0]!), [
      'transactionID', 'transactionHash', 'from', 'to', 'proxyAddress', 'data', 'nonce', 'value', 'signature', 'state', 'type', 'owner', 'metadata', 'createdAt', 'updatedAt', 'errorMsg',
    ]);
    assert.deepEqual(h.relayer.transactions(h.user().auth), []);
  });

  it('rejects malformed query parameters with 400 invalid_query naming them', async () => {
    await rejectsWith(h.relayer.nonce({ address: 'zz', type: 'SAFE' }), 'invalid_query', 400, /address/);
    await rejectsWith(h.relayer.nonce({ address: h.user().auth, type: 'WALLET' }), 'invalid_query', 400, /SAFE, PROXY/);
    await rejectsWith(h.relayer.relayPayload({ address: h.user().auth, type: 'SAFE' }), 'invalid_query', 400, /PROXY/);
    assert.throws(() => h.relayer.transaction({}), (e: unknown) => isApiError(e) && e.code === 'invalid_query');
  });
});
