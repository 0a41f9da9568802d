import type { Chain, PrivateKeyAccount, PublicClient, Transport, WalletClient } from 'viem';
import type { DeploymentAddresses } from '../protocol/contractAddresses.js';
import type { ChainAbis } from './abis.js';

/** Addresses of everything the exchange signs against or deploys (GET /config `contracts`). */
export interface ContractAddresses {
  /** Order-signing domain's verifyingContract for plain markets. */
  exchange: `0x${string}`;
  /** Order-signing domain's verifyingContract for neg-risk markets. */
  negRiskExchange: `0x${string}`;
  /** V2 order-signing domain's verifyingContract for plain markets (domain version "2"). */
  exchangeV2: `0x${string}`;
  /** V2 order-signing domain's verifyingContract for neg-risk markets. */
  negRiskExchangeV2: `0x${string}`;
  collateral: `0x${string}`;
  conditionalTokens: `0x${string}`;
  safeFactory: `0x${string}` | null;
  safeSingleton: `0x${string}` | null;
  multiSend: `0x${string}` | null;
  proxyFactory: `0x${string}` | null;
  relayHub: `0x${string}` | null;
}

/**
 * The engine's view of the chain. With `--chain none` it is disabled but still knows the addresses the
 * contracts would have (they are deterministic), so condition and token ids never change when a chain arrives.
 */
export interface ChainHandle {
  readonly enabled: boolean;
  readonly chainId: number;
  /** JSON-RPC URL of the chain, null without one. */
  readonly rpcUrl: string | null;
  readonly contracts: ContractAddresses;
  /** The operator account: deployer, oracle of every market, sender of /operations/approve. */
  readonly operatorAddress: `0x${string}`;
  /** Stops the child chain process (if the engine started one). */
  stop(): Promise<void>;

  /**
   * Every contract the engine deploys, at its predicted address (a pure function of the operator address;
   * protocol/contractAddresses.ts): also the ones GET /config does not list (fallbackHandler,
   * proxyWalletImplementation). Known even when the chain is disabled or unreachable.
   */
  readonly deployment: DeploymentAddresses;
  /** The GSN relay EOA that sends RelayHub.relayCall (GET /relay-payload `address`). */
  readonly relayAddress: `0x${string}`;
  /** Read access to the chain; null when disabled. */
  readonly publicClient: ChainPublicClient | null;
  /** Signs and sends as the operator (nonce-managed); null when disabled. */
  readonly operatorWallet: ChainWalletClient | null;
  /** Signs and sends as the GSN relay (nonce-managed); null when disabled. */
  readonly relayWallet: ChainWalletClient | null;
  readonly abis: ChainAbis;
  /**
   * Whether the chain answers JSON-RPC now (false when disabled). After an outage, the first successful
   * probe also deploys whatever is missing before this resolves true.
   */
  reachable(): Promise<boolean>;
  /**
   * The clients, once the chain answers and the contracts are in place. Throws ApiError
   * `wallet_service_disabled` (no chain) or `wallet_transport_error` (RPC unreachable): what the relayer
   * routes answer.
   */
  ready(): Promise<ChainClients>;
}

export type ChainPublicClient = PublicClient<Transport, Chain>;
export type ChainWalletClient = WalletClient<Transport, Chain, PrivateKeyAccount>;

export interface ChainClients {
  publicClient: ChainPublicClient;
  operatorWallet: ChainWalletClient;
  relayWallet: ChainWalletClient;
}
