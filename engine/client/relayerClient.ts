/**
 * HTTP client of the relayer (`<base>/relayer`), isomorphic (fetch). L2 routes are signed with the
 * SERVICE_* headers over the path relative to the relayer base (decisions §2), e.g. `/submit`.
 */
import { buildL2Signature } from '../protocol/hmac.js';
import type { DeployedResponse, RelayPayloadResponse, RelayerTxState, TransactionRecord, WalletType } from '../protocol/schemas/relayer.js';

export interface RelayerCredentials {
  address: string;
  key: string;
  secret: string;
  passphrase: string;
}

export interface RelayerClientOptions {
  /** e.g. http://127.0.0.1:PORT/relayer */
  baseUrl: string;
  credentials?: RelayerCredentials;
  fetch?: typeof fetch;
  /** Unix seconds for SERVICE_TIMESTAMP (defaults to the local clock). */
  nowSeconds?: () => number;
}

/** A non-2xx answer: the engine's `{error, message, details?}` body. */
export class RelayerHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'RelayerHttpError';
  }
}

export function relayerL2Headers(creds: RelayerCredentials, method: string, path: string, body: string | undefined, timestamp: number): Record<string, string> {
  return {
    SERVICE_ADDRESS: creds.address,
    SERVICE_SIGNATURE: buildL2Signature(creds.secret, timestamp, method, path, body),
    SERVICE_TIMESTAMP: String(timestamp),
    SERVICE_API_KEY: creds.key,
    SERVICE_PASSPHRASE: creds.passphrase,
  };
}

export interface TxResult {
  txHash: string;
  confirmations: number;
}

export class RelayerClient {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: RelayerClientOptions) {
    this.base = opts.baseUrl.replace(/\/$/, '');
    this.fetchFn = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  getNonce(address: string, type: WalletType): Promise<{ nonce: string }> {
    return this.get('/nonce', { address, type });
  }

  getRelayPayload(address: string): Promise<RelayPayloadResponse> {
    return this.get('/relay-payload', { address, type: 'PROXY' });
  }

  getDeployed(address: string, type?: WalletType): Promise<DeployedResponse> {
    return this.get('/deployed', type ? { address, type } : { address });
  }

  getTransaction(id: string): Promise<TransactionRecord[]> {
    return this.get('/transaction', { id });
  }

  getTransactions(): Promise<TransactionRecord[]> {
    return this.request('GET', '/transactions', undefined, true);
  }

  submit(body: Record<string, unknown>): Promise<{ transactionID: string; state: RelayerTxState }> {
    return this.request('POST', '/submit', body, true);
  }

  approve(body: { token: string; spender: string; amount: string }): Promise<TxResult> {
    return this.request('POST', '/operations/approve', body, true);
  }

  walletProxy(body: Record<string, unknown>): Promise<TxResult & { proxyWallet: string }> {
    return this.request('POST', '/wallet/proxy', body, true);
  }

  walletSafe(body: Record<string, unknown>): Promise<TxResult & { safe: string }> {
    return this.request('POST', '/wallet/safe', body, true);
  }

  /**
   * Polls GET /transaction until the record reaches one of `until` (default CONFIRMED) or a failure
   * state (FAILED, INVALID), which rejects with the record's errorMsg.
   */
  async waitFor(
    id: string,
    opts: { until?: readonly RelayerTxState[]; timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<TransactionRecord> {
    const until = opts.until ?? ['STATE_CONFIRMED'];
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    for (;;) {
      const [tx] = await this.getTransaction(id);
      if (tx && until.includes(tx.state as RelayerTxState)) return tx;
      if (tx && (tx.state === 'STATE_FAILED' || tx.state === 'STATE_INVALID')) {
        throw new Error(`relayer transaction ${id} ended ${tx.state}: ${tx.errorMsg}`);
      }
      if (Date.now() > deadline) throw new Error(`relayer transaction ${id} is still ${tx?.state ?? 'unknown'} after the timeout`);
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
    }
  }

  private get<T>(path: string, query: Record<string, string>): Promise<T> {
    return this.request('GET', `${path}?${new URLSearchParams(query).toString()}`, undefined, false);
  }

  private async request<T>(method: string, pathWithQuery: string, body: unknown, signed: boolean): Promise<T> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' };
    if (signed) {
      if (!this.opts.credentials) throw new Error(`${method} ${pathWithQuery} needs L2 credentials`);
      const ts = Math.floor(this.opts.nowSeconds?.() ?? Date.now() / 1000);
      Object.assign(headers, relayerL2Headers(this.opts.credentials, method, pathWithQuery.split('?')[0]!, text, ts));
    }
    const res = await this.fetchFn(this.base + pathWithQuery, { method, headers, ...(text === undefined ? {} : { body: text }) });
    const parsed: unknown = await res.json().catch(() => undefined);
    if (!res.ok) {
      const b = (parsed ?? {}) as { error?: string; message?: string };
      throw new RelayerHttpError(res.status, b.error ?? 'http_error', b.message ?? `${method} ${pathWithQuery} answered ${res.status}`, parsed);
    }
    return parsed as T;
  }
}
