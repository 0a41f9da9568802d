import { RelayClient } from '@polymarket/builder-relayer-client';
import { BuilderConfig, BuilderSigner } from '@polymarket/builder-signing-sdk';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createWalletClient, encodeFunctionData, hashDomain, http, parseAbi, zeroAddress, type Address, type Hex } from 'viem';
import { SAFE_ABI, SAFE_PROXY_FACTORY_ABI } from '../../chain/abis.js';
import { POLYGON_WALLET_CONTRACTS } from '../../protocol/contractAddresses.js';
import { POLYMARKET_SAFE_PROXY_CREATION_CODE } from '../../protocol/walletAddresses.js';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { deriveProxyWallet, deriveSafe } from '@polymarket/builder-relayer-client/dist/builder/derive.js';
import { getContractConfig } from '@polymarket/builder-relayer-client/dist/config/index.js';
import { RelayerTxType, type RelayerTransaction } from '@polymarket/builder-relayer-client/dist/types.js';
import { createL1Headers } from '../../client/createL1Headers.js';
import { buildSafeCreateSubmit } from '../../client/relayerSigners.js';
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

const DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

const ERC20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)', 'function balanceOf(address) view returns (uint256)', 'function mint(address to, uint256 amount)']);

/** GET /config's rpcUrl: the engine's POST /rpc in front of the local chain, as a bot would find it. */
async function configRpcUrl(r: Running): Promise<string> {
  const res = await fetch(`${r.ready.trading}/config`);
  const url = ((await res.json()) as { rpcUrl: string | null }).rpcUrl;
  assert.ok(url, 'GET /config names an rpcUrl');
  return url;
}

/** The stock client with a viem wallet on the engine's chain (the signer the client signs and estimates gas with). */
async function signingClient(r: Running, account: PrivateKeyAccount, creds: { key: string; secret: string; passphrase: string }, type = RelayerTxType.SAFE): Promise<RelayClient> {
  const wallet = createWalletClient({ account, chain: polygon, transport: http(await configRpcUrl(r)) });
  const builder = new BuilderConfig({ localBuilderCreds: { key: creds.key, secret: creds.secret, passphrase: creds.passphrase } });
  return new RelayClient(r.ready.relayer, 137, wallet, builder, type);
}

/** Polls with the client's own pollUntilState until STATE_CONFIRMED (undefined if it failed or timed out). */
async function confirmed(client: RelayClient, transactionID: string): Promise<RelayerTransaction | undefined> {
  return client.pollUntilState(transactionID, ['STATE_CONFIRMED'], 'STATE_FAILED', 60, 1000);
}

/** Runs fn with the stock client's console.log chatter silenced. */
async function hushed<T>(fn: () => Promise<T>): Promise<T> {
  const saved = console.log;
  console.log = () => undefined;
  try {
    return await fn();
  } finally {
    console.log = saved;
  }
}

describe('the stock builder-relayer-client drives Safe and proxy wallets to STATE_CONFIRMED in the polymarket profile', () => {
  let r: Running | undefined;
  let creds: Awaited<ReturnType<typeof builderCreds>>;
  let collateral: Address;
  before(async () => {
    r = await start({ profile: 'polymarket', chain: 'anvil' });
    creds = await builderCreds(r);
    collateral = r.engine.ctx.chain.deployment.collateral;
  });
  after(() => stop(r));

  const mint = async (to: Address, amount: bigint) => {
    await r!.engine.ctx.chain.operatorWallet!.writeContract({ address: collateral, abi: ERC20, functionName: 'mint', args: [to, amount] }).then((hash) =>
      r!.engine.ctx.chain.publicClient!.waitForTransactionReceipt({ hash }),
    );
  };
  const balanceOf = (a: Address) => r!.engine.ctx.chain.publicClient!.readContract({ address: collateral, abi: ERC20, functionName: 'balanceOf', args: [a] });
  const transfer = (to: Address, amount: bigint) => ({ to: collateral, data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [to, amount] }), value: '0' });

  it('the wallet contracts run at the public Polygon addresses the client has hard-coded', async () => {
    const pub = r!.engine.ctx.chain.publicClient!;
    const config = getContractConfig(137);
    for (const a of [config.SafeContracts.SafeFactory, config.SafeContracts.SafeMultisend, config.ProxyContracts.ProxyFactory, config.ProxyContracts.RelayHub]) {
      const code = await pub.getCode({ address: a as Address });
      assert.ok(code && code.length > 2, `no code at ${a}`);
    }
    assert.equal(r!.engine.ctx.chain.deployment.safeFactory, config.SafeContracts.SafeFactory);
    // The placed factory holds what its constructor wrote: the published proxy code, the public singleton and name.
    const factory = config.SafeContracts.SafeFactory as Address;
    const read = <T>(functionName: 'proxyCreationCode' | 'masterCopy' | 'domainSeparator' | 'computeProxyAddress', args?: [Address]) =>
      pub.readContract({ address: factory, abi: SAFE_PROXY_FACTORY_ABI, functionName, args } as never) as Promise<T>;
    assert.equal(await read<Hex>('proxyCreationCode'), POLYMARKET_SAFE_PROXY_CREATION_CODE);
    assert.equal(await read<Address>('masterCopy'), POLYGON_WALLET_CONTRACTS.safeSingleton);
    assert.equal(await read<Hex>('domainSeparator'), hashDomain({ domain: { name: 'Polymarket Contract Proxy Factory', chainId: 137n, verifyingContract: factory }, types: { EIP712Domain: DOMAIN_FIELDS } }));
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    assert.equal(await read<Address>('computeProxyAddress', [owner]), deriveSafe(owner, factory));
    // GnosisSafeL2 marks its singleton as set up (threshold 1) in its constructor; the placed copy keeps that.
    assert.equal(await pub.readContract({ address: POLYGON_WALLET_CONTRACTS.safeSingleton, abi: SAFE_ABI, functionName: 'getThreshold' }), 1n);
  });

  it('deploy() creates the Safe the client derives, and execute() runs a Safe transaction and a MultiSend batch', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const client = await signingClient(r!, owner, creds);
    const safe = deriveSafe(owner.address, getContractConfig(137).SafeContracts.SafeFactory);
    await hushed(async () => {
      const deploy = await client.deploy();
      const done = await confirmed(client, deploy.transactionID);
      assert.equal(done?.state, 'STATE_CONFIRMED');
      assert.equal(done?.proxyAddress.toLowerCase(), safe.toLowerCase());
    });
    assert.equal(await client.getDeployed(safe), true);

    await mint(safe as Address, 5_000_000n);
    const [a, b] = [privateKeyToAccount(generatePrivateKey()).address, privateKeyToAccount(generatePrivateKey()).address];
    await hushed(async () => {
      const single = await client.execute([transfer(a, 1_000_000n)], 'one transfer');
      assert.equal((await confirmed(client, single.transactionID))?.state, 'STATE_CONFIRMED');
      const batch = await client.execute([transfer(a, 500_000n), transfer(b, 2_000_000n)], 'multisend');
      const done = await confirmed(client, batch.transactionID);
      assert.equal(done?.state, 'STATE_CONFIRMED');
      assert.equal(done?.to.toLowerCase(), getContractConfig(137).SafeContracts.SafeMultisend.toLowerCase());
    });
    assert.equal(await balanceOf(a), 1_500_000n);
    assert.equal(await balanceOf(b), 2_000_000n);
    assert.equal(await balanceOf(safe as Address), 1_500_000n);
    assert.deepEqual(await client.getNonce(owner.address, 'SAFE'), { nonce: '2' });
  });

  it('a proxy-wallet batch through the GSN RelayHub creates the wallet the client derives and runs every call', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const client = await signingClient(r!, owner, creds, RelayerTxType.PROXY);
    const wallet = deriveProxyWallet(owner.address, getContractConfig(137).ProxyContracts.ProxyFactory) as Address;
    await mint(wallet, 3_000_000n);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await hushed(async () => {
      const res = await client.execute([transfer(to, 1_000_000n), transfer(to, 250_000n)], 'proxy batch');
      const done = await confirmed(client, res.transactionID);
      assert.equal(done?.state, 'STATE_CONFIRMED');
      assert.equal(done?.proxyAddress.toLowerCase(), wallet.toLowerCase());
    });
    assert.equal(await balanceOf(to), 1_250_000n);
    assert.equal(await balanceOf(wallet), 1_750_000n);
  });

  it('a Safe transaction for someone else\'s Safe, or signed by someone else, is refused with a 4xx naming the problem', async () => {
    const victim = privateKeyToAccount(generatePrivateKey());
    const attacker = privateKeyToAccount(generatePrivateKey());
    const victimClient = await signingClient(r!, victim, creds);
    await hushed(async () => {
      const deploy = await victimClient.deploy();
      assert.equal((await confirmed(victimClient, deploy.transactionID))?.state, 'STATE_CONFIRMED');
    });
    const safe = deriveSafe(victim.address, getContractConfig(137).SafeContracts.SafeFactory);
    // The attacker's stock client signs a request for its own (undeployed) Safe; re-aimed at the victim's Safe
    // with the victim as `from`, the signature no longer recovers to the owner.
    const { buildSafeTransactionRequest } = await import('@polymarket/builder-relayer-client/dist/builder/safe.js');
    const { createAbstractSigner } = await import('@polymarket/builder-abstract-signer');
    const attackerWallet = createWalletClient({ account: attacker, chain: polygon, transport: http(await configRpcUrl(r!)) });
    const forged = await hushed(() =>
      buildSafeTransactionRequest(
        createAbstractSigner(137, attackerWallet),
        { from: victim.address, nonce: '0', chainId: 137, transactions: [{ ...transfer(attacker.address, 1n), operation: 0 }] },
        getContractConfig(137).SafeContracts,
      ),
    );
    assert.equal(forged.proxyWallet?.toLowerCase(), safe.toLowerCase());
    const body = JSON.stringify(forged);
    const headers = new BuilderSigner(creds).createBuilderHeaderPayload('POST', '/submit', body);
    const res = await injectWithBuilder(r!, headers, body);
    assert.equal(res.statusCode, 400, res.body);
    const err = res.json() as { error: string; details: { field: string; recovered: string } };
    assert.equal(err.error, 'invalid_relayer_signature');
    assert.deepEqual(err.details, { field: 'signature', recovered: attacker.address.toLowerCase() });
    // And an attacker signing as itself for the victim's Safe: `proxyWallet` is not the Safe of `from`.
    const mine = await hushed(() =>
      buildSafeTransactionRequest(
        createAbstractSigner(137, attackerWallet),
        { from: attacker.address, nonce: '0', chainId: 137, transactions: [{ ...transfer(attacker.address, 1n), operation: 0 }] },
        getContractConfig(137).SafeContracts,
      ),
    );
    const aimed = JSON.stringify({ ...mine, proxyWallet: safe });
    const res2 = await injectWithBuilder(r!, new BuilderSigner(creds).createBuilderHeaderPayload('POST', '/submit', aimed), aimed);
    assert.equal(res2.statusCode, 400, res2.body);
    assert.equal(res2.json().error, 'invalid_relayer_payload');
    assert.equal(res2.json().details.field, 'proxyWallet');
  });

  it('the sandbox\'s own client signs CreateProxy under the public name for the Polygon factory, and the Safe confirms', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const factory = getContractConfig(137).SafeContracts.SafeFactory as Address;
    const safe = deriveSafe(owner.address, factory) as Address;
    const body = JSON.stringify(await buildSafeCreateSubmit(owner, { chainId: 137, safeFactory: factory, safe }));
    const res = await injectWithBuilder(r!, new BuilderSigner(creds).createBuilderHeaderPayload('POST', '/submit', body), body);
    assert.equal(res.statusCode, 200, res.body);
    const done = await confirmed(stockClient(r!, creds), (res.json() as { transactionID: string }).transactionID);
    assert.equal(done?.state, 'STATE_CONFIRMED');
    assert.equal(await stockClient(r!, creds).getDeployed(safe), true);
  });

  it('a CreateProxy signed under the local domain name is refused: this profile\'s factory says "Polymarket Contract Proxy Factory"', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const factory = getContractConfig(137).SafeContracts.SafeFactory as Address;
    const signature: Hex = await owner.signTypedData({
      domain: { name: 'Service Contract Proxy Factory', chainId: 137, verifyingContract: factory },
      types: { CreateProxy: [{ name: 'paymentToken', type: 'address' }, { name: 'payment', type: 'uint256' }, { name: 'paymentReceiver', type: 'address' }] },
      primaryType: 'CreateProxy',
      message: { paymentToken: zeroAddress, payment: 0n, paymentReceiver: zeroAddress },
    });
    const body = JSON.stringify({
      from: owner.address, to: factory, proxyWallet: deriveSafe(owner.address, factory), data: '0x', signature,
      signatureParams: { paymentToken: zeroAddress, payment: '0', paymentReceiver: zeroAddress }, type: 'SAFE-CREATE',
    });
    const res = await injectWithBuilder(r!, new BuilderSigner(creds).createBuilderHeaderPayload('POST', '/submit', body), body);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'invalid_relayer_signature');
    assert.match(res.json().message, /Polymarket Contract Proxy Factory/);
  });
});
