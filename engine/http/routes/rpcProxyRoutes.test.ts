import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, createWalletClient, http, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createEngine, type Engine, type ReadyLine } from '../../engine.js';

// anvil's first well-known development account (funded with test ether on every fresh anvil).
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const VICTIM = '0x1111111111111111111111111111111111111111';

describe("the local chain's JSON-RPC as web pages and wallets reach it", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rpc-proxy-'));
  let engine: Engine;
  let ready: ReadyLine;
  let rpcUrl: string;
  const rpc = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> & { result?: string } };
  };
  const balance = async () => (await rpc(rpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [VICTIM, 'latest'] })).body.result;

  before(async () => {
    engine = await createEngine({ dataDir, chain: 'anvil', port: 0, seedDemo: false, simulation: false });
    ready = await engine.listen();
    rpcUrl = ((await (await fetch(`${ready.trading}/config`)).json()) as { rpcUrl: string }).rpcUrl;
  });
  after(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("GET /config advertises the engine's own /rpc, not the node's port", () => {
    assert.equal(rpcUrl, `${ready.trading}/rpc`);
    assert.notEqual(rpcUrl, engine.ctx.chain.rpcUrl);
  });

  it('reads and a signed raw transaction go through', async () => {
    const id = await rpc(rpcUrl, { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] });
    assert.equal(id.status, 200);
    assert.deepEqual(id.body, { jsonrpc: '2.0', id: 7, result: `0x${ready.chainId.toString(16)}` });
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_KEY), transport: http(rpcUrl) });
    const hash = await wallet.sendTransaction({ chain: null, to: VICTIM, value: 1n, gas: 21_000n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: 1n });
    assert.match(hash, /^0x[0-9a-f]{64}$/);
    // anvil mines the transaction after answering its hash: read the balance once its receipt exists.
    const receipt = await createPublicClient({ transport: http(rpcUrl) }).waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
    assert.equal(receipt.status, 'success');
    assert.equal(await balance(), '0x1');
  });

  it("cheat methods and the node's unlocked accounts answer a JSON-RPC error, alone or inside a batch", async () => {
    for (const method of ['anvil_setBalance', 'anvil_setCode', 'anvil_impersonateAccount', 'evm_mine', 'hardhat_setBalance', 'eth_sendTransaction', 'eth_accounts', 'debug_traceTransaction']) {
      const r = await rpc(rpcUrl, { jsonrpc: '2.0', id: 1, method, params: [VICTIM, '0xffff'] });
      assert.equal((r.body.error as { code: number }).code, -32601, method);
      assert.match((r.body.error as { message: string }).message, /not available through the exchange's RPC endpoint/);
    }
    const batch = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [VICTIM, '0xffffff'] },
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
      ]),
    });
    const answers = (await batch.json()) as { id: number; error?: unknown; result?: unknown }[];
    assert.deepEqual(answers.map((a) => [a.id, a.error ? 'error' : 'result']), [[1, 'error'], [2, 'result']]);
    assert.equal(await balance(), '0x1', 'no cheat went through');
  });

  it('matches batch answers to requests by id, answers no notification and never a null entry', async () => {
    const chainId = `0x${ready.chainId.toString(16)}`;
    const batch = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 'A', method: 'anvil_mine', params: [] },
        { jsonrpc: '2.0', id: 'B', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 'B2', method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', method: 'anvil_setBalance', params: [VICTIM, '0xffffff'] },
      ]),
    });
    const answers = (await batch.json()) as Array<{ id: unknown; error?: { code: number }; result?: string }>;
    assert.ok(answers.every((a) => a !== null), 'no null entries');
    assert.deepEqual(answers.map((a) => a.id), ['A', 'B', 'B2']);
    assert.equal(answers[0]!.error?.code, -32601);
    assert.equal(answers[1]!.result, chainId);
    assert.match(String(answers[2]!.result), /^0x[0-9a-f]+$/);

    const lone = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId', params: [] }) });
    assert.equal(lone.status, 204, 'a lone notification gets no answer');
    assert.equal(await lone.text(), '');
  });

  it('refuses deeply nested params with a 400 naming the problem, not a 502', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${deep}}` });
    const text = await res.text();
    assert.equal(res.status, 400, text);
    assert.match(text, /invalid_field/);
    assert.match(text, /nest deeper than 16 levels/);
    // Params as deep as real ones (eth_getLogs topics) still go through.
    const logs = await rpc(rpcUrl, { jsonrpc: '2.0', id: 2, method: 'eth_getLogs', params: [{ fromBlock: '0x0', topics: [[null]] }] });
    assert.equal(logs.status, 200);
    assert.ok(Array.isArray(logs.body.result));
  });

  it("the node's own port refuses browser origins: no CORS answer to a preflight, simple requests rejected", async () => {
    const node = engine.ctx.chain.rpcUrl!;
    const preflight = await fetch(node, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    const simple = await fetch(node, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [VICTIM, '0xffffff'] }),
    });
    assert.equal(simple.headers.get('access-control-allow-origin'), null);
    assert.equal(await balance(), '0x1');
  });
});
