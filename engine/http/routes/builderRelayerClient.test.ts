import { RelayClient } from '@polymarket/builder-relayer-client';
import { BuilderConfig, BuilderSigner } from '@polymarket/builder-signing-sdk';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createL1Headers } from '../../client/createL1Headers.js';
import type { EngineConfig } from '../../config.js';
import { createEngine, type Engine, type ReadyLine } from '../../engine.js';

interface Running {
  engine: Engine;
  ready: ReadyLine;
  dir: string;
}

async function start(config: Partial<EngineConfig>): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'builder-relayer-'));
  const engine = await createEngine({ dataDir: dir, port: 0, chain: 'none', seedDemo: false, rateLimits: false, serveRenderer: false, ...config });
  return { engine, ready: await engine.listen(), dir };
}

async function stop(r: Running | undefined): Promise<void> {
  if (!r) return;
  await r.engine.close();
  rmSync(r.dir, { recursive: true, force: true });
}

/** An API key of this exchange, created with L1 headers as any client does; used as builder credentials. */
async function builderCreds(r: Running): Promise<{ key: string; secret: string; passphrase: string; address: string }> {
  const account = privateKeyToAccount(generatePrivateKey());
  const headers = await createL1Headers(account, r.ready.chainId, 0, Math.floor(Date.now() / 1000));
  const res = await r.engine.app.inject({ method: 'POST', url: '/auth/api-key', headers });
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json() as { key?: string; apiKey?: string; secret: string; passphrase: string };
  return { key: (c.apiKey ?? c.key) as string, secret: c.secret, passphrase: c.passphrase, address: account.address.toLowerCase() };
}

/** The stock client, given only the relayer URL, chain id 137 and builder credentials. */
function stockClient(r: Running, creds: { key: string; secret: string; passphrase: string }): RelayClient {
  const builder = new BuilderConfig({ localBuilderCreds: { key: creds.key, secret: creds.secret, passphrase: creds.passphrase } });
  return new RelayClient(r.ready.relayer, 137, undefined, builder);
}

function injectWithBuilder(r: Running, headers: Record<string, string>, body: string) {
  return r.engine.app.inject({ method: 'POST', url: '/relayer/submit', headers: { ...headers, 'content-type': 'application/json' }, payload: body });
}

// The stock client logs every HTTP error with console.error; keep the test output readable.
const quiet = async <T>(fn: () => Promise<T>): Promise<T> => {
  const saved = console.error;
  console.error = () => undefined;
  try {
    return await fn();
  } finally {
    console.error = saved;
  }
};

describe('the stock builder-relayer-client authenticates with builder headers in the polymarket profile', () => {
  let r: Running | undefined;
  before(async () => {
    r = await start({ profile: 'polymarket' });
  });
  after(() => stop(r));

  it('getTransactions with an API key of this exchange as builder credentials answers the builder key owner\'s transactions', async () => {
    const creds = await builderCreds(r!);
    const txs = await stockClient(r!, creds).getTransactions();
    assert.deepEqual(txs, []);
  });

  it('a submit with valid builder headers passes authentication and reaches body validation', async () => {
    const creds = await builderCreds(r!);
    const body = JSON.stringify({ type: 'SAFE', from: creds.address });
    const headers = new BuilderSigner(creds).createBuilderHeaderPayload('POST', '/submit', body);
    const res = await injectWithBuilder(r!, headers, body);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'invalid_field');
  });

  it('a builder header with a wrong HMAC or an unknown key is refused with the specific error', async () => {
    const creds = await builderCreds(r!);
    const body = JSON.stringify({ type: 'SAFE', from: creds.address });
    const signed = new BuilderSigner(creds).createBuilderHeaderPayload('POST', '/submit', body);
    const tampered = await injectWithBuilder(r!, signed, body.replace('SAFE', 'PROXY'));
    assert.equal(tampered.statusCode, 401, tampered.body);
    assert.equal(tampered.json().error, 'invalid_signature');
    const unknown = await injectWithBuilder(r!, { ...signed, POLY_BUILDER_API_KEY: '00000000-0000-4000-8000-000000000000' }, body);
    assert.equal(unknown.statusCode, 401, unknown.body);
    assert.equal(unknown.json().error, 'unknown_api_key');
    const viaClient = await quiet(() => stockClient(r!, { ...creds, secret: Buffer.alloc(32, 7).toString('base64') }).getTransactions().then(() => 'ok', (e: Error) => e.message));
    assert.match(viaClient, /"status":401/);
    assert.match(viaClient, /invalid_signature/);
  });
});

describe('the stock builder-relayer-client against the default profile', () => {
  let r: Running | undefined;
  before(async () => {
    r = await start({});
  });
  after(() => stop(r));

  it('is refused with an error that names the missing --profile polymarket flag', async () => {
    const creds = await builderCreds(r!);
    const message = await quiet(() => stockClient(r!, creds).getTransactions().then(() => 'ok', (e: Error) => e.message));
    assert.match(message, /"status":401/);
    assert.match(message, /--profile polymarket/);
  });
});

describe('the stock builder-relayer-client reads against a real anvil chain in the polymarket profile', () => {
  let r: Running | undefined;
  before(async () => {
    r = await start({ profile: 'polymarket', chain: 'anvil' });
  });
  after(() => stop(r));

  it('the chain runs with chain id 137, and getNonce, getTransaction and getDeployed answer in the shapes the client reads', async () => {
    assert.equal(r!.ready.chainId, 137);
    const client = new RelayClient(r!.ready.relayer, 137);
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    assert.deepEqual(await client.getNonce(owner, 'SAFE'), { nonce: '0' });
    assert.deepEqual(await client.getNonce(owner, 'PROXY'), { nonce: '0' });
    assert.deepEqual(await client.getTransaction('01J00000000000000000000000'), []);
    assert.equal(await client.getDeployed(owner, 'SAFE'), false);
  });
});
