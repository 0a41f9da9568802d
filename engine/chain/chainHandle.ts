/** Addresses of everything the exchange signs against or deploys (GET /config `contracts`). */
export interface ContractAddresses {
  /** Order-signing domain's verifyingContract for plain markets. */
  exchange: `0x${string}`;
  /** Order-signing domain's verifyingContract for neg-risk markets. */
  negRiskExchange: `0x${string}`;
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
}
