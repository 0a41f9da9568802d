import { rpcForward } from '../../chain/rpcForward.js';
import { ApiError } from '../../protocol/errors.js';
import type { Infra } from '../infra.js';

/**
 * What a wallet, a script or the terminal may ask the local chain through the engine: reads, gas
 * estimates and signed transactions. Never the node's cheat methods (anvil_*, evm_*, hardhat_*,
 * debug_*: set any balance, replace any contract's code, impersonate any account) nor the node's own
 * unlocked accounts (eth_sendTransaction, eth_sign*): anvil's port refuses browsers (started with
 * --no-cors), so this allowlist is all a web page can reach.
 */
export const ALLOWED_RPC_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'net_version',
  'web3_clientVersion',
  'eth_syncing',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_sendRawTransaction',
]);

/** Largest batch forwarded at once: a page cannot make the node do unbounded work per request. */
export const MAX_RPC_BATCH = 100;

type RpcError = { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string } };

function refusal(id: unknown, message: string, code = -32601): RpcError {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message } };
}

/** The one refusal reason of a single JSON-RPC request, or undefined when it may go to the node. */
function refused(req: unknown): RpcError | undefined {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) return refusal(null, 'Invalid request: a JSON-RPC request is an object', -32600);
  const { method, id } = req as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return refusal(id, 'Invalid request: "method" must be a string', -32600);
  if (!ALLOWED_RPC_METHODS.has(method)) {
    return refusal(id, `Method ${method} is not available through the exchange's RPC endpoint (only reads, gas estimates and signed raw transactions are). Operator chain actions go through the authenticated /admin routes.`);
  }
  return undefined;
}

export class ChainProxy {
  constructor(private readonly ctx: Pick<Infra, 'chain'>) {}

  /** Forwards the allowed requests of a JSON-RPC payload (single or batch); refused entries get a JSON-RPC error in place. */
  async forward(payload: unknown): Promise<unknown> {
    const rpcUrl = this.ctx.chain.rpcUrl;
    if (!this.ctx.chain.enabled || !rpcUrl) {
      throw new ApiError('wallet_service_disabled', 'This exchange runs without a chain (--chain none): there is no JSON-RPC to proxy.');
    }
    if (!Array.isArray(payload)) return refused(payload) ?? this.send(rpcUrl, payload);
    if (payload.length === 0 || payload.length > MAX_RPC_BATCH) {
      throw new ApiError('invalid_field', `A JSON-RPC batch holds 1 to ${MAX_RPC_BATCH} requests; this one has ${payload.length}.`);
    }
    const verdicts = payload.map(refused);
    const allowed = payload.filter((_, i) => !verdicts[i]);
    const answers = allowed.length ? ((await this.send(rpcUrl, allowed)) as unknown[]) : [];
    let next = 0;
    return verdicts.map((v) => v ?? (Array.isArray(answers) ? answers[next++] : answers));
  }

  private async send(rpcUrl: string, payload: unknown): Promise<unknown> {
    try {
      return await rpcForward(rpcUrl, payload);
    } catch (e) {
      throw new ApiError('wallet_transport_error', `wallet_transport_error: the chain RPC did not answer (${(e as Error).message}). Retry when it is back.`);
    }
  }
}
