import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hashDomain, keccak256, toHex, type Hex } from 'viem';
import { resolveConfig } from '../config.js';
import { DEPLOYMENT_ORDER, LOCAL_EXCHANGE_ADDRESS, POLYGON_EXCHANGE_ADDRESS, POLYGON_WALLET_CONTRACTS, predictContractAddresses } from '../protocol/contractAddresses.js';
import { conditionIdOf } from '../protocol/ctfIds.js';
import { ApiError } from '../protocol/errors.js';
import { deriveProxyWalletAddress, deriveSafeAddress, GNOSIS_SAFE_PROXY_CREATION_CODE } from '../protocol/walletAddresses.js';
import { COLLATERAL_ABI, CONDITIONAL_TOKENS_ABI, PROXY_WALLET_FACTORY_ABI, RELAY_HUB_ABI, RELAY_STATE, SAFE_PROXY_FACTORY_ABI } from './abis.js';
import { mintCollateral, prepareCondition, reportPayouts } from './conditions.js';
import { startChain, type ConnectedChain } from './startChain.js';

const secrets = () => ({ operatorPrivateKey: generatePrivateKey(), relayPrivateKey: generatePrivateKey() });

describe('startChain without a chain', () => {
  it('returns a disabled handle that still knows every predicted contract address', async () => {
    const s = secrets();
    const chain = await startChain(resolveConfig({ dataDir: '/nonexistent', chain: 'none' }), s);
    const operator = privateKeyToAccount(s.operatorPrivateKey).address;
    assert.equal(chain.enabled, false);
    assert.equal(chain.rpcUrl, null);
    assert.equal(chain.publicClient, null);
    assert.equal(chain.operatorAddress, operator);
    assert.equal(chain.relayAddress, privateKeyToAccount(s.relayPrivateKey).address);
    assert.deepEqual(chain.deployment, predictContractAddresses(operator));
    assert.equal(chain.contracts.collateral, chain.deployment.collateral);
    assert.equal(chain.contracts.conditionalTokens, chain.deployment.conditionalTokens);
    assert.equal(chain.contracts.exchange, LOCAL_EXCHANGE_ADDRESS);
    assert.equal(chain.contracts.safeFactory, null);
    assert.equal(chain.contracts.relayHub, null);
    assert.equal(await chain.reachable(), false);
    await assert.rejects(chain.ready(), (e: unknown) => e instanceof ApiError && e.code === 'wallet_service_disabled');
    await chain.stop();
  });

  it('signs orders against the public exchange addresses in the polymarket profile', async () => {
    const chain = await startChain(resolveConfig({ dataDir: '/nonexistent', chain: 'none', profile: 'polymarket' }), secrets());
    assert.equal(chain.chainId, 137);
    assert.equal(chain.contracts.exchange, POLYGON_EXCHANGE_ADDRESS);
  });

  it('starts with an unreachable JSON-RPC URL and answers wallet_transport_error until the node is back', async () => {
    const chain = await startChain(resolveConfig({ dataDir: '/nonexistent', chain: { rpcUrl: 'http://127.0.0.1:9' } }), secrets());
    assert.equal(chain.enabled, true);
    assert.equal(chain.rpcUrl, 'http://127.0.0.1:9');
    assert.equal(chain.contracts.safeFactory, chain.deployment.safeFactory);
    assert.equal(await chain.reachable(), false);
    await assert.rejects(chain.ready(), (e: unknown) => e instanceof ApiError && e.code === 'wallet_transport_error' && e.status === 502);
    await chain.stop();
  });

  it("never shows a chain URL's path (the engine's secret way into its own anvil) in an error an HTTP client gets", async () => {
    const chain = await startChain(resolveConfig({ dataDir: '/nonexistent', chain: { rpcUrl: 'http://127.0.0.1:9/s3cretPathOfTheBridge0123456789abcd' } }), secrets());
    await assert.rejects(chain.ready(), (e: unknown) => e instanceof ApiError && !e.message.includes('s3cret') && e.message.includes('http://127.0.0.1:9/…'));
    await chain.stop();
  });
});

describe('startChain with a local anvil', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'start-chain-'));
  const s = secrets();
  const config = resolveConfig({ dataDir, chain: 'anvil' });
  let chain: ConnectedChain;
  let coldStartMs = 0;

  before(async () => {
    const t0 = performance.now();
    chain = (await startChain(config, s)) as ConnectedChain;
    coldStartMs = performance.now() - t0;
  });

  after(async () => {
    await chain?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('deploys every contract at its predicted address on a fresh data directory', async () => {
    const client = chain.publicClient;
    assert.equal(chain.enabled, true);
    // The engine's private way in: the IPC bridge's secret path on 127.0.0.1, or a random loopback address without namespaces.
    assert.match(chain.rpcUrl, /^http:\/\/127\.\d+\.\d+\.\d+:\d+(\/[A-Za-z0-9_-]{32})?$/);
    assert.equal(await client.getChainId(), config.chainId);
    assert.deepEqual(chain.deployment, predictContractAddresses(chain.operatorAddress));
    assert.deepEqual(chain.lastDeployment?.deployed.map((d) => d.name), [...DEPLOYMENT_ORDER]);
    for (const name of DEPLOYMENT_ORDER) {
      const code = await client.getCode({ address: chain.deployment[name] });
      assert.ok(code && code.length > 2, `${name} has code`);
    }
    assert.ok(coldStartMs < 10_000, `cold start took ${Math.round(coldStartMs)} ms`);
  });

  it('deploys a 6-decimal collateral token the operator can mint', async () => {
    const c = chain.publicClient;
    const token = chain.deployment.collateral;
    assert.equal(await c.readContract({ address: token, abi: COLLATERAL_ABI, functionName: 'decimals' }), 6);
    assert.equal(await c.readContract({ address: token, abi: COLLATERAL_ABI, functionName: 'name' }), 'Sandbox USD');
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const r = await mintCollateral(chain, holder, 250_500_000n);
    assert.ok(r.txHash);
    assert.equal(await c.readContract({ address: token, abi: COLLATERAL_ABI, functionName: 'balanceOf', args: [holder] }), 250_500_000n);
  });

  it('registers the GSN relay with a 1 ether stake from a separate staker', async () => {
    const [stake, delay, , owner, state] = await chain.publicClient.readContract({
      address: chain.deployment.relayHub,
      abi: RELAY_HUB_ABI,
      functionName: 'getRelay',
      args: [chain.relayAddress],
    });
    assert.equal(state, RELAY_STATE.Registered);
    assert.equal(stake, 10n ** 18n);
    assert.equal(delay, 7n * 24n * 3600n);
    assert.equal(owner, chain.operatorAddress);
    assert.equal(await chain.publicClient.readContract({ address: chain.deployment.relayHub, abi: RELAY_HUB_ABI, functionName: 'version' }), '1.0.0');
  });

  it('wires the wallet factories so on-chain and off-chain address derivations agree', async () => {
    const c = chain.publicClient;
    const d = chain.deployment;
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    assert.equal(await c.readContract({ address: d.safeFactory, abi: SAFE_PROXY_FACTORY_ABI, functionName: 'proxyCreationCode' }), GNOSIS_SAFE_PROXY_CREATION_CODE);
    assert.equal(await c.readContract({ address: d.safeFactory, abi: SAFE_PROXY_FACTORY_ABI, functionName: 'masterCopy' }), d.safeSingleton);
    assert.equal(await c.readContract({ address: d.safeFactory, abi: SAFE_PROXY_FACTORY_ABI, functionName: 'fallbackHandler' }), d.fallbackHandler);
    assert.equal(
      await c.readContract({ address: d.safeFactory, abi: SAFE_PROXY_FACTORY_ABI, functionName: 'computeProxyAddress', args: [owner] }),
      deriveSafeAddress(owner, d),
    );
    assert.equal(
      await c.readContract({ address: d.safeFactory, abi: SAFE_PROXY_FACTORY_ABI, functionName: 'domainSeparator' }),
      hashDomain({
        domain: { name: 'Service Contract Proxy Factory', chainId: BigInt(config.chainId), verifyingContract: d.safeFactory },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    );
    assert.equal(
      await c.readContract({ address: d.proxyFactory, abi: PROXY_WALLET_FACTORY_ABI, functionName: 'computeWalletAddress', args: [owner] }),
      deriveProxyWalletAddress(owner, d),
    );
    assert.equal(await c.readContract({ address: d.proxyFactory, abi: PROXY_WALLET_FACTORY_ABI, functionName: 'getHubAddr' }), d.relayHub);
  });

  it('prepares a condition whose id is the protocol conditionId formula, once', async () => {
    const questionId = keccak256(toHex('Will the local chain start in under three seconds?'));
    const first = await prepareCondition(chain, questionId);
    assert.ok(first.txHash);
    assert.equal(first.conditionId, conditionIdOf(chain.operatorAddress, questionId, 2));
    const onChain = await chain.publicClient.readContract({
      address: chain.deployment.conditionalTokens,
      abi: CONDITIONAL_TOKENS_ABI,
      functionName: 'getConditionId',
      args: [chain.operatorAddress, questionId, 2n],
    });
    assert.equal(onChain, first.conditionId);
    const slots = await chain.publicClient.readContract({
      address: chain.deployment.conditionalTokens,
      abi: CONDITIONAL_TOKENS_ABI,
      functionName: 'getOutcomeSlotCount',
      args: [first.conditionId],
    });
    assert.equal(slots, 2n);
    const again = await prepareCondition(chain, questionId);
    assert.deepEqual(again, { conditionId: first.conditionId, txHash: null });
  });

  it('reports payouts as the oracle once and leaves a resolved condition alone', async () => {
    const questionId = keccak256(toHex('Does reportPayouts resolve the condition?')) as Hex;
    const { conditionId } = await prepareCondition(chain, questionId);
    const r = await reportPayouts(chain, questionId, [1n, 0n]);
    assert.ok(r.txHash);
    const ctf = { address: chain.deployment.conditionalTokens, abi: CONDITIONAL_TOKENS_ABI } as const;
    assert.equal(await chain.publicClient.readContract({ ...ctf, functionName: 'payoutDenominator', args: [conditionId] }), 1n);
    assert.equal(await chain.publicClient.readContract({ ...ctf, functionName: 'payoutNumerators', args: [conditionId, 0n] }), 1n);
    assert.deepEqual(await reportPayouts(chain, questionId, [0n, 1n]), { txHash: null });
    await assert.rejects(reportPayouts(chain, keccak256(toHex('never prepared')), [1n, 0n]), /not prepared/);
  });

  it('keeps balances, code and nonces across a restart with the same data directory', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    await mintCollateral(chain, holder, 42_000_000n);
    const nonceBefore = await chain.publicClient.getTransactionCount({ address: chain.operatorAddress });
    const relayNonceBefore = await chain.publicClient.getTransactionCount({ address: chain.relayAddress });
    await chain.stop();

    chain = (await startChain(config, s)) as ConnectedChain;
    const c = chain.publicClient;
    assert.deepEqual(chain.lastDeployment?.deployed, []);
    assert.equal(chain.lastDeployment?.relayRegistered, false);
    assert.equal(await c.readContract({ address: chain.deployment.collateral, abi: COLLATERAL_ABI, functionName: 'balanceOf', args: [holder] }), 42_000_000n);
    assert.equal(await c.getTransactionCount({ address: chain.operatorAddress }), nonceBefore);
    assert.equal(await c.getTransactionCount({ address: chain.relayAddress }), relayNonceBefore);
    for (const name of DEPLOYMENT_ORDER) {
      const code = await c.getCode({ address: chain.deployment[name] });
      assert.ok(code && code.length > 2, `${name} still has code`);
    }
    assert.equal(await chain.reachable(), true);
  });
});

describe('startChain with a local anvil in the polymarket profile', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'start-chain-pm-'));
  const s = secrets();
  const config = resolveConfig({ dataDir, chain: 'anvil', profile: 'polymarket' });
  let chain: ConnectedChain;

  before(async () => {
    chain = (await startChain(config, s)) as ConnectedChain;
  });

  after(async () => {
    await chain?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the wallet contracts at the public Polygon addresses and the rest at the operator\'s CREATE addresses', async () => {
    const created = predictContractAddresses(chain.operatorAddress);
    assert.deepEqual(chain.deployment, { ...created, ...POLYGON_WALLET_CONTRACTS });
    assert.equal(await chain.publicClient.getChainId(), 137);
    for (const name of DEPLOYMENT_ORDER) {
      const code = await chain.publicClient.getCode({ address: chain.deployment[name] });
      assert.ok(code && code.length > 2, `${name} has code at ${chain.deployment[name]}`);
    }
    const [, , , , state] = await chain.publicClient.readContract({ address: POLYGON_WALLET_CONTRACTS.relayHub, abi: RELAY_HUB_ABI, functionName: 'getRelay', args: [chain.relayAddress] });
    assert.equal(state, RELAY_STATE.Registered);
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const c = chain.publicClient;
    const d = chain.deployment;
    assert.equal(await c.readContract({ address: d.safeFactory, abi: SAFE_PROXY_FACTORY_ABI, functionName: 'computeProxyAddress', args: [owner] }), deriveSafeAddress(owner, d));
    assert.equal(await c.readContract({ address: d.proxyFactory, abi: PROXY_WALLET_FACTORY_ABI, functionName: 'computeWalletAddress', args: [owner] }), deriveProxyWalletAddress(owner, d));
    assert.equal(await c.readContract({ address: d.proxyFactory, abi: PROXY_WALLET_FACTORY_ABI, functionName: 'getHubAddr' }), POLYGON_WALLET_CONTRACTS.relayHub);
  });

  it('keeps the placed contracts and the relay registration across a restart without deploying again', async () => {
    await chain.stop();
    chain = (await startChain(config, s)) as ConnectedChain;
    assert.deepEqual(chain.lastDeployment?.deployed, []);
    assert.equal(chain.lastDeployment?.relayRegistered, false);
    for (const name of DEPLOYMENT_ORDER) {
      const code = await chain.publicClient.getCode({ address: chain.deployment[name] });
      assert.ok(code && code.length > 2, `${name} still has code`);
    }
  });
});
