/**
 * The relayer's view of the chain: a JSON-RPC client with short timeouts (an unreachable node must turn
 * into a prompt 502, not a hung request), the engine's relay and operator keys, the contract addresses,
 * wallet derivation, and the mapping of chain failures onto the error registry.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  HttpRequestError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { safeFactoryDomainName } from '../../protocol/contractAddresses.js';
import { ApiError } from '../../protocol/errors.js';
import type { WalletType } from '../../protocol/schemas/relayer.js';
import { deriveProxyWalletAddress, deriveSafeAddress } from '../../protocol/walletAddresses.js';
import type { ChainPublicClient } from '../../chain/chainHandle.js';
import type { Infra } from '../infra.js';
import type { RelayerSender } from '../../store/relayerRepo.js';

export interface RelayerContracts {
  safeFactory: Address;
  safeSingleton: Address;
  proxyFactory: Address;
  proxyWalletImplementation: Address;
  relayHub: Address;
}

export class RelayerChain {
  readonly relayAccount: PrivateKeyAccount;
  readonly operatorAccount: PrivateKeyAccount;

  constructor(private readonly ctx: Pick<Infra, 'chain' | 'config' | 'secrets'>) {
    // Own signers over the same keys as the chain handle's wallets: the relayer signs first, stores the
    // signed bytes, then sends (restart-safe), which a nonce-managed wallet client's sendTransaction cannot.
    this.relayAccount = privateKeyToAccount(ctx.secrets.relayPrivateKey);
    this.operatorAccount = privateKeyToAccount(ctx.secrets.operatorPrivateKey);
    // The hub only accepts relayCall from the relay the chain registered: both must be the same key.
    if (ctx.chain.relayAddress.toLowerCase() !== this.relayAccount.address.toLowerCase()) {
      throw new Error(`the chain registered relay ${ctx.chain.relayAddress}, but secrets.json holds the key of ${this.relayAccount.address}`);
    }
  }

  get enabled(): boolean {
    return this.ctx.chain.enabled && this.ctx.chain.publicClient !== null;
  }

  get chainId(): number {
    return this.ctx.chain.chainId;
  }

  /** Throws 503 wallet_service_disabled when the engine runs without a chain (--chain none). */
  requireEnabled(): void {
    if (!this.enabled) {
      throw new ApiError(
        'wallet_service_disabled',
        'wallet_service_disabled: the engine runs without a chain (--chain none), so the relayer cannot read or send transactions. Restart it with --chain anvil or a JSON-RPC URL.',
      );
    }
  }

  /**
   * For request paths: the chain answers and its contracts are deployed; else 503 wallet_service_disabled
   * or 502 wallet_transport_error (from the chain handle).
   */
  async ready(): Promise<void> {
    this.requireEnabled();
    await this.ctx.chain.ready();
  }

  get public(): ChainPublicClient {
    this.requireEnabled();
    return this.ctx.chain.publicClient!;
  }

  /** Addresses are known (predicted) even while the node is away, so derivation never needs it. */
  contracts(): RelayerContracts {
    const d = this.ctx.chain.deployment;
    return {
      safeFactory: d.safeFactory.toLowerCase() as Address,
      safeSingleton: d.safeSingleton.toLowerCase() as Address,
      proxyFactory: d.proxyFactory.toLowerCase() as Address,
      proxyWalletImplementation: d.proxyWalletImplementation.toLowerCase() as Address,
      relayHub: d.relayHub.toLowerCase() as Address,
    };
  }

  /** The EIP-712 domain name of the Safe factory's CreateProxy signatures in this profile (decisions §6). */
  get safeFactoryName(): string {
    return safeFactoryDomainName(this.ctx.config.profile);
  }

  account(sender: RelayerSender): PrivateKeyAccount {
    return sender === 'relay' ? this.relayAccount : this.operatorAccount;
  }

  get relayAddress(): Address {
    return this.relayAccount.address.toLowerCase() as Address;
  }

  get operatorAddress(): Address {
    return this.operatorAccount.address.toLowerCase() as Address;
  }

  /** The deterministic wallet of an owner (lower case). Pure: works while the node is down. */
  walletOf(owner: Address, type: WalletType): Address {
    const c = this.contracts();
    const a = type === 'SAFE' ? deriveSafeAddress(owner, c) : deriveProxyWalletAddress(owner, c);
    return a.toLowerCase() as Address;
  }

  async hasCode(address: Address): Promise<boolean> {
    const code = await this.public.getCode({ address });
    return code !== undefined && code !== '0x';
  }
}

// ---------------------------------------------------------------- errors

/** The node could not be reached (refused, reset, timed out): no answer at all, as opposed to an RPC error. */
export function isTransportError(e: unknown): boolean {
  if (!(e instanceof BaseError)) return e instanceof TypeError && /fetch failed/i.test(e.message);
  return Boolean(
    e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError || x instanceof SocketClosedError || x instanceof WebSocketRequestError),
  );
}

/** One line describing a chain failure: the node's message, without viem's multi-line help text. */
export function chainErrorMessage(e: unknown): string {
  if (e instanceof BaseError) {
    const reason = revertReason(e);
    if (reason !== undefined) return `execution reverted: ${reason}`;
    const rpc = e.walk((x) => x instanceof RpcRequestError) as RpcRequestError | null;
    if (rpc) return rpc.shortMessage.replace(/^RPC Request failed\.\s*/, '') || rpc.details;
    if (isTransportError(e)) {
      const http = e.walk((x) => x instanceof HttpRequestError) as HttpRequestError | null;
      const cause = http?.cause instanceof Error ? (http.cause.cause instanceof Error ? http.cause.cause.message : http.cause.message) : undefined;
      return `${e.shortMessage}${cause ? ` (${cause})` : ''}`;
    }
    return (e.details || e.shortMessage).split('\n')[0]!;
  }
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}

const ERROR_STRING_ABI = [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }] as const;

/** The revert reason of a failed call or estimate, if the node reported one; '' for a bare revert. */
export function revertReason(e: unknown): string | undefined {
  if (!(e instanceof BaseError)) return undefined;
  const reverted = e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  if (reverted) return reverted.reason ?? reverted.data?.errorName ?? '';
  // eth_call / eth_estimateGas: the node's error carries the revert data; decode Error(string) ourselves.
  let data: Hex | undefined;
  let message = '';
  e.walk((x) => {
    const d = (x as { data?: unknown }).data;
    if (typeof d === 'string' && d.startsWith('0x') && data === undefined) data = d as Hex;
    if (x instanceof BaseError && /revert/i.test(x.details ?? '')) message = x.details;
    return false;
  });
  if (data && data.length >= 10) {
    try {
      return decodeErrorResult({ abi: ERROR_STRING_ABI, data }).args[0];
    } catch {
      return `custom error ${data.slice(0, 10)}`;
    }
  }
  if (message) return message.replace(/^execution reverted:?\s*/i, '');
  return undefined;
}

/**
 * Maps a failure of a chain read or send made while serving a request: node unreachable → 502
 * wallet_transport_error, other RPC failures → 502 upstream_rpc_error; ApiErrors pass through.
 */
export function toRequestError(e: unknown): unknown {
  if (e instanceof ApiError) return e;
  if (isTransportError(e)) {
    return new ApiError('wallet_transport_error', `wallet_transport_error: the chain RPC could not be reached (${chainErrorMessage(e)}). Retry when the node is back.`);
  }
  if (e instanceof BaseError) return new ApiError('upstream_rpc_error', `The chain RPC call failed: ${chainErrorMessage(e)}`);
  return e;
}
