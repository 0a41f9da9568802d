/**
 * Puts the exchange's contracts on a chain at their predicted addresses (protocol/contractAddresses.ts):
 * each one is the operator's CREATE at a fixed nonce, so a fresh chain gets every deployment in one burst
 * of pre-signed transactions, and a kept chain only gets what is missing. Then the GSN relay is staked
 * (by the operator) and registered (by the relay EOA), as RelayHub v1 requires before relayCall.
 *
 * In the polymarket profile the wallet contracts must run at the public Polygon addresses (nobody can
 * CREATE there), so each is constructed at its CREATE address with the public addresses as constructor
 * arguments, then its runtime code and the storage its constructor wrote (read with the prestateTracer of
 * debug_traceTransaction) are placed at the public address with anvil_setCode / anvil_setStorageAt.
 */
import {
  encodeAbiParameters,
  encodeFunctionData,
  type Address,
  type Chain,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type Transport,
} from 'viem';
import { DEPLOYMENT_ORDER, type DeployedContractName, type DeploymentAddresses } from '../protocol/contractAddresses.js';
import { RELAY_HUB_ABI, RELAY_STATE } from './abis.js';
import { localArtifact, npmArtifact } from './artifacts.js';

/** GSN v1 minimums: the staker locks ≥ 1 ether for ≥ 1 week; the relay needs ≥ 0.1 ether to register. */
export const RELAY_STAKE_WEI = 10n ** 18n;
export const RELAY_UNSTAKE_DELAY_SECONDS = 7n * 24n * 3600n;

/**
 * Gas ceilings per deployment (anvil 1.7.1 gasUsed × 1.3–1.9): explicit limits let the whole burst be signed
 * up front, since later constructors read earlier contracts and could not be estimated before them.
 */
const DEPLOY_GAS: Record<DeployedContractName, bigint> = {
  collateral: 1_200_000n,
  conditionalTokens: 5_200_000n,
  safeSingleton: 6_800_000n,
  fallbackHandler: 1_700_000n,
  multiSend: 350_000n,
  safeFactory: 1_600_000n,
  relayHub: 3_400_000n,
  proxyWalletImplementation: 1_200_000n,
  proxyFactory: 1_400_000n,
};

export interface DeploymentStep {
  name: DeployedContractName;
  address: Address;
  txHash: Hex;
  gasUsed: bigint;
}

export interface DeploymentReport {
  /** Contracts created in this run (empty when the chain already had them all). */
  deployed: DeploymentStep[];
  /** True when the relay was staked and/or registered in this run. */
  relayRegistered: boolean;
  ms: number;
}

/** What the Safe factory is constructed with besides addresses (its EIP-712 name and proxy creation code). */
export interface SafeFactoryOptions {
  name: string;
  proxyCreationCode: Hex;
}

function creationData(name: DeployedContractName, addrs: DeploymentAddresses, safe: SafeFactoryOptions): Hex {
  switch (name) {
    case 'collateral':
      return localArtifact('SandboxUSD').bytecode;
    case 'conditionalTokens':
      return npmArtifact('ConditionalTokens').bytecode;
    case 'safeSingleton':
      return npmArtifact('GnosisSafeL2').bytecode;
    case 'fallbackHandler':
      return npmArtifact('CompatibilityFallbackHandler').bytecode;
    case 'multiSend':
      return npmArtifact('MultiSend').bytecode;
    case 'safeFactory':
      return (localArtifact('SafeProxyFactory').bytecode +
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'bytes' }, { type: 'string' }],
          [addrs.safeSingleton, addrs.fallbackHandler, safe.proxyCreationCode, safe.name],
        ).slice(2)) as Hex;
    case 'relayHub':
      return localArtifact('RelayHub').bytecode;
    case 'proxyWalletImplementation':
      return localArtifact('ProxyWallet').bytecode;
    case 'proxyFactory':
      return (localArtifact('ProxyWalletFactory').bytecode +
        encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [addrs.proxyWalletImplementation, addrs.relayHub]).slice(2)) as Hex;
  }
}

async function fees(client: PublicClient<Transport, Chain>): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const block = await client.getBlock({ blockTag: 'latest' });
  const base = block.baseFeePerGas ?? (await client.getGasPrice());
  const tip = 1_000_000_000n;
  return { maxFeePerGas: base * 2n + tip, maxPriorityFeePerGas: tip };
}

async function hasCode(client: PublicClient<Transport, Chain>, address: Address): Promise<boolean> {
  const code = await client.getCode({ address });
  return code !== undefined && code !== '0x';
}

export interface DeployInput {
  publicClient: PublicClient<Transport, Chain>;
  operator: PrivateKeyAccount;
  relay: PrivateKeyAccount;
  /** Where each contract runs (its CREATE address, or a public address it is placed at). */
  addresses: DeploymentAddresses;
  /** The operator's CREATE address of each contract (defaults to `addresses`). */
  created?: DeploymentAddresses;
  /** Defaults: the npm GnosisSafeProxy creation code and the local domain name. */
  safeFactory?: SafeFactoryOptions;
  /** URL the relay registers with (informational in RelayHub v1). */
  relayUrl: string;
}

/** Deploys what is missing, then makes sure the relay is registered. Safe to call on every start. */
export async function ensureDeployed(input: DeployInput): Promise<DeploymentReport> {
  const started = performance.now();
  const { publicClient: client, operator, addresses } = input;
  const created = input.created ?? addresses;
  const safe = input.safeFactory ?? { name: 'Service Contract Proxy Factory', proxyCreationCode: npmArtifact('GnosisSafeProxy').bytecode };
  const placed = (n: DeployedContractName) => created[n].toLowerCase() !== addresses[n].toLowerCase();
  const chainId = client.chain.id;

  const present = await Promise.all(DEPLOYMENT_ORDER.map((n) => hasCode(client, addresses[n])));
  const missing = DEPLOYMENT_ORDER.filter((_, i) => !present[i]);
  const deployed: DeploymentStep[] = [];

  if (missing.length > 0) {
    const nonce = await client.getTransactionCount({ address: operator.address, blockTag: 'pending' });
    // A contract's address is fixed by its nonce: anything below the operator's nonce can no longer be
    // placed where the ids (and every client) expect it.
    const lost = missing.filter((n) => DEPLOYMENT_ORDER.indexOf(n) < nonce);
    if (lost.length > 0) {
      throw new Error(
        `contracts ${lost.join(', ')} are missing from the chain but the operator ${operator.address} has already used their ` +
          `deployment nonces (nonce ${nonce}); point the engine at a fresh chain (or delete <dataDir>/chain) to redeploy`,
      );
    }
    const fee = await fees(client);
    const signed: { name: DeployedContractName; raw: Hex }[] = [];
    for (const name of missing) {
      const raw = await operator.signTransaction({
        type: 'eip1559',
        chainId,
        nonce: DEPLOYMENT_ORDER.indexOf(name),
        gas: DEPLOY_GAS[name],
        ...fee,
        value: 0n,
        data: creationData(name, addresses, safe),
      });
      signed.push({ name, raw });
    }
    // In nonce order, each awaited so a node without automine still sees them in sequence. A contract that
    // runs elsewhere is placed there before the next one is sent (a later constructor may check its code).
    const hashes: Hex[] = [];
    for (const s of signed) {
      const hash = await client.sendRawTransaction({ serializedTransaction: s.raw });
      hashes.push(hash);
      if (placed(s.name)) {
        const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        if (r.status !== 'success') throw new Error(`deploying ${s.name} reverted (tx ${hash})`);
        await placeAt(client, created[s.name], addresses[s.name], hash);
      }
    }
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
    receipts.forEach((r, i) => {
      const name = signed[i]!.name;
      if (r.status !== 'success') throw new Error(`deploying ${name} reverted (tx ${r.transactionHash})`);
      if (r.contractAddress?.toLowerCase() !== created[name].toLowerCase()) {
        throw new Error(`${name} landed at ${r.contractAddress}, expected ${created[name]}`);
      }
      deployed.push({ name, address: addresses[name], txHash: r.transactionHash, gasUsed: r.gasUsed });
    });
  }

  const relayRegistered = await ensureRelayRegistered(input);
  return { deployed, relayRegistered, ms: performance.now() - started };
}

interface PrestateDiff {
  post: Record<string, { storage?: Record<Hex, Hex> }>;
}

/** Copies a freshly constructed contract (runtime code and the storage its constructor wrote) to `to`. */
async function placeAt(client: PublicClient<Transport, Chain>, from: Address, to: Address, deployTx: Hex): Promise<void> {
  const code = await client.getCode({ address: from });
  if (!code || code === '0x') throw new Error(`no code at ${from} to place at ${to}`);
  try {
    const diff = (await client.request({
      method: 'debug_traceTransaction',
      params: [deployTx, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }],
    } as never)) as PrestateDiff;
    const storage = diff.post[from.toLowerCase()]?.storage ?? {};
    await client.request({ method: 'anvil_setCode', params: [to, code] } as never);
    for (const [slot, value] of Object.entries(storage)) {
      await client.request({ method: 'anvil_setStorageAt', params: [to, slot, value] } as never);
    }
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new Error(
      `placing the contract built at ${from} at ${to} needs a dev node (debug_traceTransaction prestateTracer, anvil_setCode, anvil_setStorageAt): ${why}`,
    );
  }
}

async function ensureRelayRegistered(input: DeployInput): Promise<boolean> {
  const { publicClient: client, operator, relay, addresses } = input;
  const [, , , , state] = await client.readContract({
    address: addresses.relayHub,
    abi: RELAY_HUB_ABI,
    functionName: 'getRelay',
    args: [relay.address],
  });
  if (state === RELAY_STATE.Registered) return false;
  if (state === RELAY_STATE.Removed) throw new Error(`the GSN relay ${relay.address} was removed from the RelayHub; it cannot relay again`);
  const fee = await fees(client);
  // Signed locally and sent raw, so the node needs no unlocked accounts.
  const callHub = async (from: PrivateKeyAccount, value: bigint, data: Hex, what: string) => {
    const nonce = await client.getTransactionCount({ address: from.address, blockTag: 'pending' });
    const raw = await from.signTransaction({ type: 'eip1559', chainId: client.chain.id, nonce, gas: 150_000n, ...fee, to: addresses.relayHub, value, data });
    const hash = await client.sendRawTransaction({ serializedTransaction: raw });
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (r.status !== 'success') throw new Error(`${what} the GSN relay reverted (tx ${hash})`);
  };
  if (state === RELAY_STATE.Unknown) {
    const stake = encodeFunctionData({ abi: RELAY_HUB_ABI, functionName: 'stake', args: [relay.address, RELAY_UNSTAKE_DELAY_SECONDS] });
    await callHub(operator, RELAY_STAKE_WEI, stake, 'staking');
  }
  await callHub(relay, 0n, encodeFunctionData({ abi: RELAY_HUB_ABI, functionName: 'registerRelay', args: [0n, input.relayUrl] }), 'registering');
  return true;
}
