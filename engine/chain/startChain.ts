/**
 * startChain: the engine's chain, per config.chain (decisions §4, §7):
 *  - 'anvil': spawn a local anvil (state in <dataDir>/chain/), fund the operator and relay, deploy what is
 *    missing at the predicted addresses, register the GSN relay;
 *  - 'none': a disabled handle that still knows every predicted address;
 *  - { rpcUrl }: connect to any JSON-RPC node; an unreachable node does not stop the engine: the handle
 *    probes lazily and deploys on the first successful probe.
 */
import { join } from 'node:path';
import {
  createNonceManager,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  type Address,
  type Chain,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { getTransactionCount } from 'viem/actions';
import { privateKeyToAccount } from 'viem/accounts';
import type { EngineConfig } from '../config.js';
import {
  deploymentAddresses,
  exchangeAddresses,
  predictContractAddresses,
  safeFactoryDomainName,
  type DeploymentAddresses,
} from '../protocol/contractAddresses.js';
import { safeProxyCreationCodeOf } from '../protocol/walletAddresses.js';
import { ApiError } from '../protocol/errors.js';
import { CHAIN_ABIS } from './abis.js';
import { startAnvil, type AnvilProcess } from './anvilProcess.js';
import { ensureContractsBuilt } from './artifacts.js';
import type { ChainClients, ChainHandle, ChainPublicClient, ChainWalletClient, ContractAddresses } from './chainHandle.js';
import { ensureDeployed, type DeploymentReport } from './deployContracts.js';

/** The keys the chain needs (a subset of the data directory's secrets.json). */
export interface ChainSecrets {
  operatorPrivateKey: Hex;
  relayPrivateKey: Hex;
}

/** Native balance the operator and relay get on a dev chain (anvil_setBalance) when they run low. */
const DEV_FUNDING_WEI = parseEther('10000');
const LOW_BALANCE_WEI = parseEther('100');
const RELAY_URL = 'http://127.0.0.1/relayer';

function chainAccount(privateKey: Hex): PrivateKeyAccount {
  // One nonce manager per account and handle: concurrent sends get consecutive nonces, and a restarted
  // chain never sees nonces cached by an earlier handle.
  const nonceManager = createNonceManager({
    source: {
      get: ({ address, client }) => getTransactionCount(client, { address, blockTag: 'pending' }),
      set: () => undefined,
    },
  });
  return privateKeyToAccount(privateKey, { nonceManager });
}

/**
 * A chain URL as messages show it: its origin only. The path of the engine's way into its own anvil is
 * the secret that keeps other processes out (ipcBridge.ts), and error messages reach HTTP clients.
 */
export function shownUrl(rpcUrl: string): string {
  try {
    const u = new URL(rpcUrl);
    return u.pathname === '/' && !u.search ? u.origin : `${u.origin}/…`;
  } catch {
    return '(an invalid URL)';
  }
}

function viemChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: chainId === 31337 ? 'Sandbox local chain' : `Sandbox chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** GET /config `contracts`: wallet contracts are null when no chain can ever hold them (decisions §7). */
function publicContracts(config: EngineConfig, d: DeploymentAddresses, walletStack: boolean): ContractAddresses {
  return {
    ...exchangeAddresses(config.profile),
    collateral: d.collateral,
    conditionalTokens: d.conditionalTokens,
    safeFactory: walletStack ? d.safeFactory : null,
    safeSingleton: walletStack ? d.safeSingleton : null,
    multiSend: walletStack ? d.multiSend : null,
    proxyFactory: walletStack ? d.proxyFactory : null,
    relayHub: walletStack ? d.relayHub : null,
  };
}

class DisabledChain implements ChainHandle {
  readonly enabled = false;
  readonly rpcUrl = null;
  readonly publicClient = null;
  readonly operatorWallet = null;
  readonly relayWallet = null;
  readonly abis = CHAIN_ABIS;
  readonly operatorAddress: Address;
  readonly relayAddress: Address;
  readonly deployment: DeploymentAddresses;
  readonly contracts: ContractAddresses;

  constructor(
    readonly chainId: number,
    config: EngineConfig,
    operator: Address,
    relay: Address,
  ) {
    this.operatorAddress = operator;
    this.relayAddress = relay;
    this.deployment = deploymentAddresses(operator, config.profile);
    this.contracts = publicContracts(config, this.deployment, false);
  }

  async stop(): Promise<void> {}
  async reachable(): Promise<boolean> {
    return false;
  }
  async ready(): Promise<ChainClients> {
    throw new ApiError('wallet_service_disabled');
  }
}

/** A chain reached over JSON-RPC, optionally a child anvil process this handle owns. */
export class ConnectedChain implements ChainHandle {
  readonly enabled = true;
  readonly abis = CHAIN_ABIS;
  readonly operatorAddress: Address;
  readonly relayAddress: Address;
  readonly deployment: DeploymentAddresses;
  readonly contracts: ContractAddresses;
  readonly publicClient: ChainPublicClient;
  readonly operatorWallet: ChainWalletClient;
  readonly relayWallet: ChainWalletClient;
  /** What the last successful deployment pass did (null until one ran). */
  lastDeployment: DeploymentReport | null = null;
  private prepared: Promise<void> | null = null;
  private stopped = false;
  private readonly profile: EngineConfig['profile'];

  constructor(
    readonly chainId: number,
    readonly rpcUrl: string,
    config: EngineConfig,
    private readonly operator: PrivateKeyAccount,
    private readonly relay: PrivateKeyAccount,
    private readonly anvil: AnvilProcess | null,
  ) {
    this.operatorAddress = operator.address;
    this.relayAddress = relay.address;
    this.profile = config.profile;
    this.deployment = deploymentAddresses(operator.address, config.profile);
    this.contracts = publicContracts(config, this.deployment, true);
    const chain = viemChain(chainId, rpcUrl);
    // No transport retries: an unreachable node should surface at once as wallet_transport_error.
    const transport = http(rpcUrl, { retryCount: 0, timeout: 15_000 });
    this.publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
    this.operatorWallet = createWalletClient({ account: operator, chain, transport, pollingInterval: 50 });
    this.relayWallet = createWalletClient({ account: relay, chain, transport, pollingInterval: 50 });
  }

  /** Funds the accounts (dev chains only), checks the chain id, deploys what is missing. Memoized until it fails. */
  prepare(): Promise<void> {
    this.prepared ??= this.doPrepare().catch((e: unknown) => {
      this.prepared = null;
      throw e;
    });
    return this.prepared;
  }

  private async doPrepare(): Promise<void> {
    const remoteId = await this.publicClient.getChainId();
    if (remoteId !== this.chainId) {
      throw new ChainIdMismatchError(`the chain at ${shownUrl(this.rpcUrl)} has chain id ${remoteId}, the engine is configured for ${this.chainId}`);
    }
    await Promise.all([this.fund(this.operator.address), this.fund(this.relay.address)]);
    this.lastDeployment = await ensureDeployed({
      publicClient: this.publicClient,
      operator: this.operator,
      relay: this.relay,
      addresses: this.deployment,
      created: predictContractAddresses(this.operator.address),
      safeFactory: { name: safeFactoryDomainName(this.profile), proxyCreationCode: safeProxyCreationCodeOf(this.deployment.safeFactory) },
      relayUrl: RELAY_URL,
    });
  }

  // anvil_setBalance (or hardhat_setBalance) exists on dev nodes only; elsewhere the accounts must be funded by hand.
  private async fund(address: Address): Promise<void> {
    const balance = await this.publicClient.getBalance({ address });
    if (balance >= LOW_BALANCE_WEI) return;
    for (const method of ['anvil_setBalance', 'hardhat_setBalance'] as const) {
      try {
        await this.publicClient.request({ method, params: [address, `0x${DEV_FUNDING_WEI.toString(16)}`] } as never);
        return;
      } catch {
        // try the next dialect
      }
    }
  }

  async reachable(): Promise<boolean> {
    if (this.stopped) return false;
    try {
      await this.publicClient.getChainId();
    } catch {
      return false;
    }
    try {
      await this.prepare();
      return true;
    } catch {
      return false;
    }
  }

  async ready(): Promise<ChainClients> {
    if (this.stopped) throw new ApiError('wallet_transport_error', 'wallet_transport_error: the engine is shutting down its chain.');
    try {
      await this.prepare();
    } catch (e) {
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw new ApiError('wallet_transport_error', `wallet_transport_error: the chain RPC at ${shownUrl(this.rpcUrl)} is not usable (${why}). Retry when it is back.`);
    }
    return { publicClient: this.publicClient, operatorWallet: this.operatorWallet, relayWallet: this.relayWallet };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.anvil?.stop();
  }
}

export class ChainIdMismatchError extends Error {
  override readonly name = 'ChainIdMismatchError';
}

export async function startChain(config: EngineConfig, secrets: ChainSecrets): Promise<ChainHandle> {
  const operator = chainAccount(secrets.operatorPrivateKey);
  const relay = chainAccount(secrets.relayPrivateKey);
  if (operator.address === relay.address) throw new Error('the operator and relay keys must differ (RelayHub v1: a relay cannot stake for itself)');

  const mode = config.chain;
  if (mode === 'none') return new DisabledChain(config.chainId, config, operator.address, relay.address);

  // Compile before anything else so a stale build fails fast (and never while anvil is running).
  ensureContractsBuilt();

  if (mode === 'anvil') {
    const anvil = await startAnvil({ chainId: config.chainId, stateFile: join(config.dataDir, 'chain', 'state.json'), portFile: join(config.dataDir, 'chain', 'port') });
    const handle = new ConnectedChain(config.chainId, anvil.rpcUrl, config, operator, relay, anvil);
    try {
      await handle.prepare();
    } catch (e) {
      await anvil.stop();
      throw e;
    }
    return handle;
  }

  const handle = new ConnectedChain(config.chainId, mode.rpcUrl, config, operator, relay, null);
  try {
    await handle.prepare();
  } catch (e) {
    // A node on the wrong chain is a configuration error; a node that is down is an outage to ride out.
    if (e instanceof ChainIdMismatchError) throw e;
  }
  return handle;
}
