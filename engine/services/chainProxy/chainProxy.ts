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

/** Deepest nesting of arrays and objects a request may carry (real params nest a few levels: eth_call overrides, log topics). */
export const MAX_RPC_DEPTH = 16;

/** The nesting depth of a JSON value, walked without recursion (a deep value must not overflow the stack here either). */
function depthOf(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > MAX_RPC_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/** A JSON-RPC notification (no `id` member) gets no answer. */
function isNotification(req: unknown): boolean {
  return typeof req === 'object' && req !== null && !Array.isArray(req) && !('id' in req);
}

export class ChainProxy {
  constructor(private readonly ctx: Pick<Infra, 'chain'>) {}

  /**
   * Forwards the allowed requests of a JSON-RPC payload (single or batch); refused entries get a
   * JSON-RPC error in place. Answers are matched to requests by id, never by position (the node
   * answers a batch in its own order and skips notifications), and a notification gets no answer:
   * undefined when nothing is to be answered at all (the route sends 204).
   */
  async forward(payload: unknown): Promise<unknown> {
    const rpcUrl = this.ctx.chain.rpcUrl;
    if (!this.ctx.chain.enabled || !rpcUrl) {
      throw new ApiError('wallet_service_disabled', 'This exchange runs without a chain (--chain none): there is no JSON-RPC to proxy.');
    }
    if (depthOf(payload) > MAX_RPC_DEPTH) {
      throw new ApiError('invalid_field', `JSON-RPC params nest deeper than ${MAX_RPC_DEPTH} levels of arrays and objects; no chain method takes such params. Send the params flat as the method documents them.`);
    }
    const batch = Array.isArray(payload);
    const requests = batch ? payload : [payload];
    if (batch && (requests.length === 0 || requests.length > MAX_RPC_BATCH)) {
      throw new ApiError('invalid_field', `A JSON-RPC batch holds 1 to ${MAX_RPC_BATCH} requests; this one has ${requests.length}.`);
    }
    const verdicts = requests.map(refused);
    // Each forwarded request carries its position as its id; the client's own id goes back on the answer.
    const outgoing: Array<Record<string, unknown>> = [];
    requests.forEach((r, i) => {
      if (!verdicts[i]) outgoing.push({ ...(r as Record<string, unknown>), id: i });
    });
    const byPosition = new Map<number, Record<string, unknown>>();
    if (outgoing.length > 0) {
      const answers = await this.send(rpcUrl, outgoing);
      for (const a of Array.isArray(answers) ? answers : [answers]) {
        if (typeof a === 'object' && a !== null && typeof (a as { id?: unknown }).id === 'number') byPosition.set((a as { id: number }).id, a as Record<string, unknown>);
      }
    }
    const out: unknown[] = [];
    requests.forEach((r, i) => {
      if (isNotification(r)) return;
      const id = (r as { id: unknown }).id;
      const verdict = verdicts[i];
      if (verdict) out.push(verdict);
      else {
        const a = byPosition.get(i);
        out.push(a ? { ...a, id } : refusal(id, 'Internal error: the chain node gave no answer to this request; retry it', -32603));
      }
    });
    if (out.length === 0) return undefined;
    return batch ? out : out[0];
  }

  private async send(rpcUrl: string, payload: unknown): Promise<unknown> {
    try {
      return await rpcForward(rpcUrl, payload);
    } catch (e) {
      throw new ApiError('wallet_transport_error', `wallet_transport_error: the chain RPC did not answer (${(e as Error).message}). Retry when it is back.`);
    }
  }
}
