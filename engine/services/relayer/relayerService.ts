/**
 * The relayer (interface §4.4, decisions §4, relayer-api.md): accepts signed Safe / Safe-creation /
 * GSN proxy transactions, persists them before anything else, broadcasts them from the engine's relay
 * key and follows them to CONFIRMED; plus the operator approvals and the managed wallet routes.
 */
import type { Address } from 'viem';
import { ApiError } from '../../protocol/errors.js';
import { WALLET_TYPES, type RelayPayloadResponse, type TransactionRecord, type WalletType } from '../../protocol/schemas/relayer.js';
import { RelayerRepo, type RelayerTxRow } from '../../store/relayerRepo.js';
import type { Infra } from '../infra.js';
import { KeyedQueue } from './keyedQueue.js';
import { RELAY_HUB_ABI, SAFE_ABI } from '../../chain/abis.js';
import { RelayerChain, toRequestError } from './relayerChain.js';
import { DEFAULT_RELAYER_SETTINGS, type RelayerSettings } from './relayerSettings.js';
import { fieldError, parseAddress, parseEnum } from './relayerValidation.js';
import { SubmitPreparer, type NewRow } from './submitPreparer.js';
import { parseSubmit } from './submitRequest.js';
import { toTransactionRecord } from './transactionRecord.js';
import { transactionId } from './transactionId.js';
import { TransactionPipeline, type PipelineHooks } from './transactionPipeline.js';
import { WalletOperations, type OperationsHost, type TxResult } from './walletOperations.js';

export interface SubmitResult {
  transactionID: string;
  state: 'STATE_NEW';
}

/** What the relayer uses (it calls no other service): the chain, its keys, the clock and the database. */
export type RelayerDeps = Pick<Infra, 'chain' | 'clock' | 'ids' | 'config' | 'db' | 'secrets' | 'writes'>;

export class RelayerService implements OperationsHost {
  readonly settings: RelayerSettings;
  readonly chain: RelayerChain;
  readonly preparer: SubmitPreparer;
  /** Per-wallet serialisation of acceptance (nonce check + persisted row) and of the wallet routes. */
  readonly walletQueue = new KeyedQueue();
  /** Test seams (e.g. take the node away just before a broadcast). */
  readonly hooks: PipelineHooks = {};
  private readonly repo: RelayerRepo;
  private readonly pipeline: TransactionPipeline;
  private readonly operations: WalletOperations;

  constructor(
    private readonly ctx: RelayerDeps,
    settings: Partial<RelayerSettings> = {},
  ) {
    this.settings = { ...DEFAULT_RELAYER_SETTINGS, ...settings };
    this.repo = new RelayerRepo(ctx.db);
    this.chain = new RelayerChain(ctx);
    this.preparer = new SubmitPreparer(this.chain, this.repo, this.settings);
    this.pipeline = new TransactionPipeline(ctx, this.chain, this.repo, this.settings, this.hooks);
    this.operations = new WalletOperations(this);
  }

  /** Resumes watching the transactions a previous run left in flight (they are all in SQLite). */
  async init(): Promise<void> {
    if (this.chain.enabled) this.pipeline.resume();
  }

  stop(): void {
    this.pipeline.stop();
  }

  // ---------------------------------------------------------------- writes (L2)

  /** POST /submit: checks everything knowable up front, commits STATE_NEW, answers before mining. */
  async submit(auth: Address, body: unknown): Promise<SubmitResult> {
    this.chain.requireEnabled();
    const req = parseSubmit(body);
    if (req.from !== auth) {
      throw new ApiError('owner_address_mismatch', `from ${req.from} must equal the SERVICE_ADDRESS header (${auth}): a key may only relay for its own address.`, {
        details: { field: 'from', expected: auth },
      });
    }
    return this.guard(async () => {
      await this.chain.ready();
      const type: WalletType = req.type === 'PROXY' ? 'PROXY' : 'SAFE';
      const wallet = this.chain.walletOf(req.from, type);
      const key = type === 'PROXY' ? `proxy:${wallet}` : `wallet:${wallet}`;
      const row = await this.walletQueue.run(key, async () => {
        const prepared =
          req.type === 'SAFE'
            ? await this.preparer.safe(req)
            : req.type === 'SAFE-CREATE'
              ? await this.preparer.safeCreate(req, (problem) => new ApiError('invalid_relayer_signature', `Field 'signature' is not valid: ${problem}.`, { details: { field: 'signature' } }))
              : await this.preparer.proxy(req);
        return this.persist(auth, prepared);
      });
      return { transactionID: row.id, state: 'STATE_NEW' };
    });
  }

  approve(auth: Address, body: unknown): Promise<TxResult> {
    return this.guard(() => this.operations.approve(auth, body));
  }

  walletProxy(auth: Address, body: unknown): Promise<TxResult & { proxyWallet: string }> {
    return this.guard(() => this.operations.walletProxy(auth, body));
  }

  walletSafe(auth: Address, body: unknown): Promise<TxResult & { safe: string }> {
    return this.guard(() => this.operations.walletSafe(auth, body));
  }

  // ---------------------------------------------------------------- reads (public)

  /** GET /nonce: SAFE → Safe.nonce() of the owner's Safe ("0" before deployment); PROXY → RelayHub.getNonce. */
  async nonce(query: { address?: unknown; type?: unknown }): Promise<{ nonce: string }> {
    this.chain.requireEnabled();
    const address = parseAddress(query.address, 'address', { query: true });
    const type = query.type === undefined || query.type === '' ? 'SAFE' : parseEnum(query.type, 'type', WALLET_TYPES, { query: true });
    return this.guard(async () => {
      await this.chain.ready();
      if (type === 'PROXY') {
        const n = await this.chain.public.readContract({ address: this.chain.contracts().relayHub, abi: RELAY_HUB_ABI, functionName: 'getNonce', args: [address] });
        return { nonce: n.toString() };
      }
      const safe = this.chain.walletOf(address, 'SAFE');
      if (!(await this.chain.hasCode(safe))) return { nonce: '0' };
      const n = await this.chain.public.readContract({ address: safe, abi: SAFE_ABI, functionName: 'nonce' });
      return { nonce: n.toString() };
    });
  }

  /** GET /relay-payload: every backend value of the rlx: hash (decisions §4). */
  async relayPayload(query: { address?: unknown; type?: unknown }): Promise<RelayPayloadResponse> {
    this.chain.requireEnabled();
    const address = parseAddress(query.address, 'address', { query: true });
    if (query.type !== undefined && query.type !== '' && query.type !== 'PROXY') {
      throw fieldError('type', `must be PROXY (relay payloads exist only for GSN proxy wallets), got '${String(query.type)}'`, { code: 'invalid_query' });
    }
    return this.guard(async () => {
      await this.chain.ready();
      const { relayHub, proxyFactory } = this.chain.contracts();
      const n = await this.chain.public.readContract({ address: relayHub, abi: RELAY_HUB_ABI, functionName: 'getNonce', args: [address] });
      return {
        address: this.chain.relayAddress,
        nonce: n.toString(),
        relayHub,
        proxyFactory,
        gasPrice: this.settings.relayGasPrice.toString(),
        gasLimit: this.settings.relayGasLimit.toString(),
        relayerFee: this.settings.relayerFee.toString(),
      };
    });
  }

  /**
   * GET /deployed. Without `type` (the public client) `address` is the wallet itself. With `type`,
   * `address` is the owner and the answer names the derived wallet; a contract address given with a type
   * is taken as the wallet itself, since an owner EOA has no code.
   */
  async deployed(query: { address?: unknown; type?: unknown }): Promise<{ deployed: boolean; address: string }> {
    this.chain.requireEnabled();
    const address = parseAddress(query.address, 'address', { query: true });
    const type = query.type === undefined || query.type === '' ? null : parseEnum(query.type, 'type', WALLET_TYPES, { query: true });
    return this.guard(async () => {
      await this.chain.ready();
      if (type === null || (await this.chain.hasCode(address))) {
        return { deployed: await this.chain.hasCode(address), address };
      }
      const wallet = this.chain.walletOf(address, type);
      return { deployed: await this.chain.hasCode(wallet), address: wallet };
    });
  }

  /** GET /transaction: an array (the public client reads [0]); unknown id → []. Works without a chain. */
  transaction(query: { id?: unknown }): TransactionRecord[] {
    if (typeof query.id !== 'string' || query.id.trim() === '') throw fieldError('id', 'is required: pass the transactionID returned by POST /submit', { code: 'invalid_query' });
    const row = this.repo.get(query.id.trim().toLowerCase());
    return row ? [toTransactionRecord(row)] : [];
  }

  /** GET /transactions (L2): the caller's transactions, newest first. */
  transactions(auth: Address): TransactionRecord[] {
    return this.repo.listByOwner(auth).map(toTransactionRecord);
  }

  // ---------------------------------------------------------------- host of the operations

  async persist(owner: Address, prepared: NewRow): Promise<RelayerTxRow> {
    const now = this.ctx.clock.nowMs();
    const row: RelayerTxRow = {
      ...prepared,
      id: transactionId(now, this.ctx.ids ? (n) => this.ctx.ids!.bytes('relayer', n) : undefined),
      state: 'STATE_NEW',
      owner: owner.toLowerCase(),
      txHash: '',
      errorMsg: '',
      rawTx: null,
      blockNumber: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.pipeline.accept(row);
    return row;
  }

  waitForFinal(id: string): Promise<RelayerTxRow> {
    return this.pipeline.waitForFinal(id, this.settings.waitTimeoutMs);
  }

  confirmationsOf(row: RelayerTxRow): Promise<number> {
    return this.pipeline.confirmationsOf(row);
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw toRequestError(e);
    }
  }
}
