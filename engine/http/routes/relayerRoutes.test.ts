import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { encodeFunctionData, erc20Abi, maxUint256, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
// The routes are exercised through the client library a real caller uses (test-only upward import).
import { RelayerClient, RelayerHttpError, relayerL2Headers, type RelayerCredentials } from '../../client/relayerClient.js';
import { buildSafeCreateSubmit, buildSafeSubmit, buildWalletProxyBody, buildWalletSafeBody } from '../../client/relayerSigners.js';
import { createEngine, type Engine } from '../../engine.js';
import { CLOB_AUTH_TYPES, clobAuthDomain, clobAuthMessage } from '../../protocol/eip712.js';
import { ZERO_HASH } from '../../protocol/relayerSigning.js';

/** fetch over app.inject, so the client library is exercised without a socket. */
function injectFetch(app: FastifyInstance): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(input));
    const r = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: u.pathname + u.search,
      headers: init?.headers as Record<string, string>,
      ...(init?.body !== undefined ? { payload: String(init.body) } : {}),
    });
    return new Response(r.body, { status: r.statusCode, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

async function apiKey(app: FastifyInstance, account: PrivateKeyAccount, chainId: number): Promise<RelayerCredentials> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = await account.signTypedData({
    domain: clobAuthDomain(chainId),
    types: CLOB_AUTH_TYPES,
    primaryType: 'ClobAuth',
    message: clobAuthMessage(account.address, timestamp, 0n),
  });
  const r = await app.inject({
    method: 'POST',
    url: '/auth/api-key',
    headers: { SERVICE_ADDRESS: account.address, SERVICE_SIGNATURE: signature, SERVICE_TIMESTAMP: timestamp, SERVICE_NONCE: '0' },
  });
  assert.equal(r.statusCode, 200, r.body);
  const c = r.json() as { key: string; secret: string; passphrase: string };
  return { address: account.address, key: c.key, secret: c.secret, passphrase: c.passphrase };
}

interface User {
  account: PrivateKeyAccount;
  creds: RelayerCredentials;
  client: RelayerClient;
}

let engine: Engine;
let dir: string;
const newUser = async (): Promise<User> => {
  const account = privateKeyToAccount(generatePrivateKey());
  const creds = await apiKey(engine.app, account, engine.ctx.config.chainId);
  return { account, creds, client: new RelayerClient({ baseUrl: 'http://local/relayer', credentials: creds, fetch: injectFetch(engine.app) }) };
};

/** A signed L2 request with an arbitrary body text and content type. */
async function signedPost(u: User, path: string, text: string, contentType = 'application/json') {
  const ts = Math.floor(Date.now() / 1000);
  return engine.app.inject({
    method: 'POST',
    url: `/relayer${path}`,
    headers: { ...relayerL2Headers(u.creds, 'POST', path, text, ts), 'content-type': contentType },
    payload: text,
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relayer-routes-'));
  engine = await createEngine({ dataDir: dir, chain: 'anvil', seedDemo: false, rateLimits: false, serveRenderer: false });
});
after(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('relayer routes over HTTP (real engine, real anvil)', () => {
  it('accepts a form-urlencoded JSON /submit, answers STATE_NEW, and GET /transaction follows it to CONFIRMED', async () => {
    const u = await newUser();
    const d = engine.ctx.chain.deployment;
    const { address: safe, deployed } = await u.client.getDeployed(u.account.address, 'SAFE');
    assert.equal(deployed, false);
    const body = await buildSafeCreateSubmit(u.account, { chainId: engine.ctx.config.chainId, safeFactory: d.safeFactory, safe: safe as Address });
    const t0 = Date.now();
    const r = await signedPost(u, '/submit', JSON.stringify(body), 'application/x-www-form-urlencoded');
    assert.equal(r.statusCode, 200, r.body);
    const res = r.json() as { transactionID: string; state: string };
    assert.equal(res.state, 'STATE_NEW');
    const done = await u.client.waitFor(res.transactionID, { until: ['STATE_CONFIRMED'], intervalMs: 20 });
    console.log(`    HTTP SAFE-CREATE submit → CONFIRMED (polled) in ${Date.now() - t0} ms`);
    assert.equal(done.proxyAddress, safe);
    assert.deepEqual(await u.client.getDeployed(safe), { deployed: true, address: safe });
    const list = await u.client.getTransactions();
    assert.deepEqual(list.map((t) => t.transactionID), [res.transactionID]);

    // then a SAFE execution through it, with the nonce from GET /nonce
    const { nonce } = await u.client.getNonce(u.account.address, 'SAFE');
    assert.equal(nonce, '0');
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const exec = await buildSafeSubmit(u.account, {
      chainId: engine.ctx.config.chainId, safe: safe as Address, multiSend: d.multiSend, nonce,
      calls: [{ to: d.collateral, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }) }],
    });
    const t1 = Date.now();
    const sub = await u.client.submit(exec);
    await u.client.waitFor(sub.transactionID, { intervalMs: 20 });
    console.log(`    HTTP SAFE submit → CONFIRMED (polled) in ${Date.now() - t1} ms`);
    assert.equal((await u.client.getNonce(u.account.address, 'SAFE')).nonce, '1');
    const again = await u.client.submit(exec).catch((e: unknown) => e);
    assert.ok(again instanceof RelayerHttpError);
    assert.equal(again.status, 409);
    assert.equal(again.code, 'relayer_nonce_conflict');
  });

  it('requires L2 on the writes and GET /transactions, and binds from/owner to SERVICE_ADDRESS', async () => {
    for (const [method, url] of [['POST', '/relayer/submit'], ['POST', '/relayer/operations/approve'], ['POST', '/relayer/wallet/proxy'], ['POST', '/relayer/wallet/safe'], ['GET', '/relayer/transactions']] as const) {
      const r = await engine.app.inject({ method, url, payload: method === 'POST' ? '{}' : undefined });
      assert.equal(r.statusCode, 401, `${method} ${url}: ${r.body}`);
    }
    const u = await newUser();
    const other = privateKeyToAccount(generatePrivateKey());
    const d = engine.ctx.chain.deployment;
    const body = await buildSafeCreateSubmit(other, { chainId: engine.ctx.config.chainId, safeFactory: d.safeFactory, safe: d.safeFactory });
    const r = await signedPost(u, '/submit', JSON.stringify(body));
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().error, 'owner_address_mismatch');
    const ws = await signedPost(u, '/wallet/safe', JSON.stringify(await buildWalletSafeBody(other, { chainId: engine.ctx.config.chainId, safeFactory: d.safeFactory })));
    assert.equal(ws.statusCode, 400);
    assert.equal(ws.json().error, 'owner_address_mismatch');
  });

  it('answers 400 naming the field for malformed bodies and never a 500', async () => {
    const u = await newUser();
    const cases: [string, string, string][] = [
      ['/submit', '{"type":"SAFE"}', 'from'],
      ['/submit', JSON.stringify({ type: 'SAFE', from: u.account.address, to: u.account.address, data: '0x', signature: '0x', signatureParams: 5 }), 'signatureParams'],
      ['/submit', JSON.stringify({ type: 'SAFE', from: u.account.address, to: 'nope', data: '0x', signature: '0x', signatureParams: {} }), 'to'],
      ['/operations/approve', JSON.stringify({ token: u.account.address, spender: u.account.address, amount: '1e18' }), 'amount'],
      ['/wallet/safe', JSON.stringify({ owner: u.account.address, payment: '-5', signature: '0x' + '00'.repeat(65) }), 'payment'],
      ['/wallet/proxy', JSON.stringify({ owner: u.account.address, nonce: '0', signature: '0x' + '00'.repeat(65), calls: [{ type: 'CALL', to: u.account.address, data: '0xABCD' }] }), 'calls[0].data'],
    ];
    for (const [path, text, field] of cases) {
      const r = await signedPost(u, path, text);
      assert.equal(r.statusCode, 400, `${path} ${text}: ${r.body}`);
      const b = r.json() as { error: string; message: string; details?: { field?: string } };
      assert.ok(['invalid_field', 'invalid_relayer_payload'].includes(b.error), r.body);
      assert.equal(b.details?.field, field, r.body);
      assert.ok(b.message.includes(field.split('[')[0]!), r.body);
    }
    const bad = await signedPost(u, '/submit', '{"type":');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_json');
  });

  it('serves the public reads: nonce, relay-payload, deployed, transaction ([] when unknown)', async () => {
    const u = await newUser();
    const d = engine.ctx.chain.deployment;
    const a = u.account.address;
    const n = await engine.app.inject({ method: 'GET', url: `/relayer/nonce?address=${a}&type=PROXY` });
    assert.deepEqual(n.json(), { nonce: '0' });
    const p = await engine.app.inject({ method: 'GET', url: `/relayer/relay-payload?address=${a}&type=PROXY` });
    assert.deepEqual(p.json(), {
      address: engine.ctx.chain.relayAddress.toLowerCase(), nonce: '0', relayHub: d.relayHub.toLowerCase(), proxyFactory: d.proxyFactory.toLowerCase(),
      gasPrice: '0', gasLimit: engine.ctx.relayer.settings.relayGasLimit.toString(), relayerFee: '0',
    });
    const dep = await engine.app.inject({ method: 'GET', url: `/relayer/deployed?address=${a}&type=PROXY` });
    assert.equal(dep.json().deployed, false);
    assert.equal(dep.json().address, engine.ctx.relayer.chain.walletOf(a.toLowerCase() as Address, 'PROXY'));
    const t = await engine.app.inject({ method: 'GET', url: '/relayer/transaction?id=0190b317-a1d3-7bec-9b91-eeb6dcd3a620' });
    assert.equal(t.statusCode, 200);
    assert.deepEqual(t.json(), []);
    const missing = await engine.app.inject({ method: 'GET', url: '/relayer/nonce?type=SAFE' });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error, 'invalid_query');
  });

  it('runs /operations/approve, /wallet/proxy and /wallet/safe end to end', async () => {
    const u = await newUser();
    const d = engine.ctx.chain.deployment;
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const ap = await u.client.approve({ token: d.collateral, spender, amount: '1000000' });
    assert.match(ap.txHash, /^0x[0-9a-f]{64}$/);
    assert.ok(Number.isInteger(ap.confirmations) && ap.confirmations >= 1);

    const payload = await u.client.getRelayPayload(u.account.address);
    const t0 = Date.now();
    const wp = await u.client.walletProxy(await buildWalletProxyBody(u.account, payload, [{ to: d.collateral, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 5n] }) }]));
    console.log(`    HTTP wallet/proxy answered in ${Date.now() - t0} ms`);
    assert.equal(wp.proxyWallet, (await u.client.getDeployed(u.account.address, 'PROXY')).address);
    const empty = await u.client.walletProxy(await buildWalletProxyBody(u.account, await u.client.getRelayPayload(u.account.address), []));
    assert.deepEqual(empty, { txHash: ZERO_HASH, confirmations: engine.ctx.relayer.settings.confirmations, proxyWallet: wp.proxyWallet });

    const wsBody = await buildWalletSafeBody(u.account, { chainId: engine.ctx.config.chainId, safeFactory: d.safeFactory });
    const ws = await u.client.walletSafe(wsBody);
    assert.notEqual(ws.txHash, ZERO_HASH);
    assert.deepEqual(await u.client.walletSafe(wsBody), { txHash: ZERO_HASH, confirmations: engine.ctx.relayer.settings.confirmations, safe: ws.safe });
    assert.deepEqual((await u.client.getTransactions()).map((t) => t.type), ['SAFE-CREATE', 'PROXY', 'APPROVE']);
  });
});

describe('relayer routes without a usable chain', () => {
  it('answer 503 wallet_service_disabled with --chain none and 502 wallet_transport_error with a dead RPC URL', async () => {
    for (const [chain, status, code] of [['none', 503, 'wallet_service_disabled'], [{ rpcUrl: 'http://127.0.0.1:9/' }, 502, 'wallet_transport_error']] as const) {
      const d = mkdtempSync(join(tmpdir(), 'relayer-nochain-'));
      const e = await createEngine({ dataDir: d, chain, seedDemo: false, rateLimits: false, serveRenderer: false });
      try {
        const account = privateKeyToAccount(generatePrivateKey());
        const creds = await apiKey(e.app, account, e.ctx.config.chainId);
        const text = JSON.stringify(await buildWalletSafeBody(account, { chainId: e.ctx.config.chainId, safeFactory: e.ctx.chain.deployment.safeFactory }));
        const r = await e.app.inject({ method: 'POST', url: '/relayer/wallet/safe', headers: { ...relayerL2Headers(creds, 'POST', '/wallet/safe', text, Math.floor(Date.now() / 1000)), 'content-type': 'application/json' }, payload: text });
        assert.equal(r.statusCode, status, r.body);
        assert.equal(r.json().error, code);
        const n = await e.app.inject({ method: 'GET', url: `/relayer/nonce?address=${account.address}&type=SAFE` });
        assert.equal(n.statusCode, status);
        const t = await e.app.inject({ method: 'GET', url: '/relayer/transaction?id=x' });
        assert.deepEqual(t.json(), []);
      } finally {
        await e.close();
        rmSync(d, { recursive: true, force: true });
      }
    }
  });
});

describe('relayer across an engine restart', () => {
  it('resumes a transaction the previous engine accepted but had not broadcast', async () => {
    const d = mkdtempSync(join(tmpdir(), 'relayer-restart-'));
    try {
      const e1 = await createEngine({ dataDir: d, chain: 'anvil', seedDemo: false, rateLimits: false, serveRenderer: false });
      const account = privateKeyToAccount(generatePrivateKey());
      const creds = await apiKey(e1.app, account, e1.ctx.config.chainId);
      e1.ctx.relayer.hooks.beforeBroadcast = () => new Promise<void>(() => undefined);
      const safe = e1.ctx.relayer.chain.walletOf(account.address.toLowerCase() as Address, 'SAFE');
      const body = await buildSafeCreateSubmit(account, { chainId: e1.ctx.config.chainId, safeFactory: e1.ctx.chain.deployment.safeFactory, safe });
      const client1 = new RelayerClient({ baseUrl: 'http://x/relayer', credentials: creds, fetch: injectFetch(e1.app) });
      const { transactionID } = await client1.submit(body);
      await e1.close();

      const e2 = await createEngine({ dataDir: d, chain: 'anvil', seedDemo: false, rateLimits: false, serveRenderer: false });
      try {
        const client2 = new RelayerClient({ baseUrl: 'http://x/relayer', credentials: creds, fetch: injectFetch(e2.app) });
        const done = await client2.waitFor(transactionID, { intervalMs: 20 });
        assert.equal(done.proxyAddress, safe);
        assert.deepEqual(await client2.getDeployed(safe), { deployed: true, address: safe });
        assert.deepEqual((await client2.getTransactions()).map((t) => t.transactionID), [transactionID]);
      } finally {
        await e2.close();
      }
    } finally {
      // Retries: on 2026-11-23 a file appeared in the directory while it was being removed, after both engines had closed (ENOTEMPTY); the cause is not found yet.
      rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});
