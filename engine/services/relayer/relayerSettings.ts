/** Tunables of the relayer; defaults suit a local anvil (automine) and a remote JSON-RPC alike. */
export interface RelayerSettings {
  /** Blocks (the mining block included) before STATE_CONFIRMED; also reported by the wallet routes. */
  confirmations: number;
  /** How often an in-flight transaction's receipt and the chain head are polled. */
  pollIntervalMs: number;
  /** An in-flight transaction whose node stays unreachable this long ends STATE_FAILED. */
  transportGiveUpMs: number;
  /** How long a synchronous route (approve, wallet/*) waits for its transaction before a 502. */
  waitTimeoutMs: number;
  /** GSN values the backend enforces in the rlx: hash (GET /relay-payload, /wallet/proxy). */
  relayGasPrice: bigint;
  relayGasLimit: bigint;
  relayerFee: bigint;
  /** Largest gasLimit a /submit PROXY request may ask for (the public client's fallback estimate). */
  maxRelayGasLimit: bigint;
  /** RelayHub v1 needs gasleft() >= gasLimit + ~350k at entry; the outer transaction adds this much. */
  relayOuterGasOverhead: bigint;
}

export const DEFAULT_RELAYER_SETTINGS: RelayerSettings = {
  confirmations: 1,
  pollIntervalMs: 50,
  transportGiveUpMs: 15_000,
  waitTimeoutMs: 120_000,
  relayGasPrice: 0n,
  relayGasLimit: 2_000_000n,
  relayerFee: 0n,
  maxRelayGasLimit: 10_000_000n,
  relayOuterGasOverhead: 400_000n,
};
