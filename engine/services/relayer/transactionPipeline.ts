/**
 * The life of a relayer transaction after it was accepted (and committed in STATE_NEW):
 *   NEW → (pre-broadcast check, sign, store the signed bytes, send) → EXECUTED → (receipt) → MINED →
 *   (confirmations) → CONFIRMED, or FAILED with the RPC / revert error, or INVALID (GSN CanRelayFailed).
 * Every step starts from the stored row, so `resume()` after a restart picks up where the last run stopped.
 * Sends are serialised per sending account so its chain nonce never races.
 */
import {
  decodeEventLog,
  decodeFunctionData,
  keccak256,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { TERMINAL_STATES, type RelayerTxState } from '../../protocol/schemas/relayer.js';
import type { RelayerRepo, RelayerTxRow } from '../../store/relayerRepo.js';
import type { Infra } from '../infra.js';
import { KeyedQueue } from './keyedQueue.js';
import { CAN_RELAY_REASON, RELAY_CALL_STATUS, RELAY_HUB_ABI, SAFE_ABI } from '../../chain/abis.js';
import { chainErrorMessage, isTransportError, revertReason, type RelayerChain } from './relayerChain.js';
import type { RelayerSettings } from './relayerSettings.js';

/** errorMsg prefixes the synchronous routes map to their HTTP errors. */
export const TRANSPORT_ERROR_PREFIX = 'wallet_transport_error:';
export const RELAY_CALL_REVERTED_PREFIX = 'relay call reverted';
export const CAN_RELAY_FAILED_PREFIX = 'CanRelayFailed';

export interface PipelineHooks {
  /** Runs just before a transaction is checked and sent (tests use it to take the node away mid-flight). */
  beforeBroadcast?: (row: RelayerTxRow) => Promise<void> | void;
}

export class TransactionPipeline {
  private readonly senders = new KeyedQueue();
  private readonly driving = new Set<string>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly ctx: Pick<Infra, 'clock' | 'writes'>,
    private readonly chain: RelayerChain,
    private readonly repo: RelayerRepo,
    private readonly settings: RelayerSettings,
    readonly hooks: PipelineHooks,
  ) {}

  /** Persists a new STATE_NEW row (resolves once committed) and starts driving it. */
  async accept(row: RelayerTxRow): Promise<void> {
    await this.ctx.writes.commit(() => this.repo.insert(row));
    this.drive(row.id);
  }

  /** Keeps watching every transaction a previous run left in flight. */
  resume(): number {
    const open = this.repo.listOpen();
    for (const row of open) this.drive(row.id);
    return open.length;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const set of this.listeners.values()) for (const l of set) l();
  }

  /**
   * Resolves with the row once it is terminal (CONFIRMED, FAILED, INVALID), or with its current state
   * after `timeoutMs`.
   */
  waitForFinal(id: string, timeoutMs: number): Promise<RelayerTxRow> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const row = this.repo.get(id);
        if (!row) return false;
        if (TERMINAL_STATES.includes(row.state) || this.stopped) {
          done(row);
          return true;
        }
        return false;
      };
      const timers: NodeJS.Timeout[] = [];
      const listener = (): void => void check();
      const done = (row: RelayerTxRow): void => {
        for (const t of timers) clearTimeout(t);
        this.listeners.get(id)?.delete(listener);
        resolve(row);
      };
      if (check()) return;
      let set = this.listeners.get(id);
      if (!set) this.listeners.set(id, (set = new Set()));
      set.add(listener);
      timers.push(setTimeout(() => done(this.repo.get(id)!), timeoutMs));
    });
  }

  // ---------------------------------------------------------------- driving

  private drive(id: string): void {
    if (this.driving.has(id) || this.stopped) return;
    this.driving.add(id);
    void this.advance(id)
      .catch(() => undefined) // a commit after close (engine shutting down): the row stays for the next run
      .finally(() => this.driving.delete(id));
  }

  private async advance(id: string): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const row = this.repo.get(id);
      if (!row || TERMINAL_STATES.includes(row.state)) return;
      const before = row.state;
      if (row.state === 'STATE_NEW') {
        if (row.rawTx) await this.resend(row);
        else await this.senders.run(`sender:${row.sender}`, () => this.broadcast(row));
      } else if (row.state === 'STATE_EXECUTED') {
        await this.awaitReceipt(row);
      } else if (row.state === 'STATE_MINED') {
        await this.awaitConfirmations(row);
      }
      if (this.repo.get(id)?.state === before && this.stopped) return;
    }
  }

  private async setState(id: string, state: RelayerTxState, extra: { txHash?: string; errorMsg?: string; blockNumber?: number } = {}): Promise<void> {
    await this.ctx.writes.commit(() => this.repo.setState(id, state, this.ctx.clock.nowMs(), extra));
    for (const l of this.listeners.get(id) ?? []) l();
  }

  private async fail(row: RelayerTxRow, errorMsg: string, state: RelayerTxState = 'STATE_FAILED'): Promise<void> {
    await this.setState(row.id, state, { errorMsg });
  }

  /** Pre-broadcast check, signing, durable record of the signed bytes, send. */
  private async broadcast(row: RelayerTxRow): Promise<void> {
    if (this.stopped) return;
    const account = this.chain.account(row.sender);
    const to = row.outerTo as Address;
    const data = row.outerData as Hex;
    const value = BigInt(row.outerValue);
    const gas = BigInt(row.outerGas);
    try {
      await this.hooks.beforeBroadcast?.(row);
      const pub = this.chain.public;
      // The state may have moved since acceptance (e.g. another transaction used the nonce): check again.
      if (row.type === 'PROXY') {
        const invalid = await this.canRelayProblem(row);
        if (invalid) return await this.fail(row, invalid, 'STATE_INVALID');
      }
      try {
        await pub.call({ account: account.address, to, data, value, gas });
      } catch (e) {
        if (isTransportError(e)) throw e;
        return await this.fail(row, `pre-broadcast check failed, nothing was sent: ${chainErrorMessage(e)}`);
      }
      const nonce = await pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const fees = await pub.estimateFeesPerGas().catch(() => undefined);
      const common = { chainId: this.chain.chainId, nonce, to, data, value, gas };
      const rawTx = fees
        ? await account.signTransaction({ ...common, type: 'eip1559', maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas })
        : await account.signTransaction({ ...common, type: 'legacy', gasPrice: await pub.getGasPrice() });
      const txHash = keccak256(rawTx);
      await this.ctx.writes.commit(() => this.repo.setSigned(row.id, rawTx, this.ctx.clock.nowMs()));
      await pub.sendRawTransaction({ serializedTransaction: rawTx });
      await this.setState(row.id, 'STATE_EXECUTED', { txHash });
    } catch (e) {
      // interface §3: a transaction whose broadcast fails is STATE_FAILED with the RPC error.
      const msg = chainErrorMessage(e);
      await this.fail(row, isTransportError(e) ? `${TRANSPORT_ERROR_PREFIX} broadcast failed: ${msg}` : `broadcast failed: ${msg}`);
    }
  }

  /** A row signed by a previous run but maybe never sent: find it on chain or send the same bytes again. */
  private async resend(row: RelayerTxRow): Promise<void> {
    const pub = this.chain.public;
    const txHash = keccak256(row.rawTx as Hex);
    try {
      if (await this.isKnown(txHash)) return await this.setState(row.id, 'STATE_EXECUTED', { txHash });
      await pub.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
      await this.setState(row.id, 'STATE_EXECUTED', { txHash });
    } catch (e) {
      const msg = chainErrorMessage(e);
      if (!isTransportError(e) && (await this.isKnown(txHash).catch(() => false))) return await this.setState(row.id, 'STATE_EXECUTED', { txHash });
      await this.fail(row, isTransportError(e) ? `${TRANSPORT_ERROR_PREFIX} broadcast failed: ${msg}` : `broadcast failed: ${msg}`);
    }
  }

  private async isKnown(hash: Hex): Promise<boolean> {
    try {
      await this.chain.public.getTransaction({ hash });
      return true;
    } catch (e) {
      if (e instanceof TransactionNotFoundError) return false;
      throw e;
    }
  }

  private async awaitReceipt(row: RelayerTxRow): Promise<void> {
    const hash = row.txHash as Hex;
    let failures = 0;
    while (!this.stopped) {
      try {
        const pub = this.chain.public;
        const receipt = await pub.getTransactionReceipt({ hash }).catch((e: unknown) => {
          if (e instanceof TransactionReceiptNotFoundError) return null;
          throw e;
        });
        if (receipt) return await this.settle(row, receipt);
        if (row.rawTx && !(await this.isKnown(hash))) {
          // The node forgot it (restarted without its mempool): send the same signed bytes again.
          try {
            await pub.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
          } catch (e) {
            if (isTransportError(e)) throw e;
            if (/nonce too low|nonce.*already/i.test(chainErrorMessage(e))) {
              return await this.fail(row, `dropped: the sending account's nonce was used by another transaction (${chainErrorMessage(e)})`);
            }
          }
        }
        failures = 0;
      } catch (e) {
        failures++;
        if (failures * this.settings.pollIntervalMs >= this.settings.transportGiveUpMs) {
          return await this.fail(row, `${TRANSPORT_ERROR_PREFIX} lost the chain RPC while waiting for ${hash} to be mined: ${chainErrorMessage(e)}`);
        }
      }
      await this.sleep(this.settings.pollIntervalMs);
    }
  }

  /** Judges a receipt: reverted, GSN-level failure, Safe inner failure, or mined. */
  private async settle(row: RelayerTxRow, receipt: TransactionReceipt): Promise<void> {
    const block = Number(receipt.blockNumber);
    if (receipt.status === 'reverted') {
      const why = await this.replayReason(row.outerTo as Address, row.outerData as Hex, this.chain.account(row.sender).address, receipt.blockNumber);
      return await this.fail(row, `transaction reverted on chain in block ${block}${why ? `: ${why}` : ''}`);
    }
    if (row.type === 'PROXY') {
      const hub = row.outerTo.toLowerCase();
      for (const log of receipt.logs) {
        if (log.address.toLowerCase() !== hub) continue;
        let ev;
        try {
          ev = decodeEventLog({ abi: RELAY_HUB_ABI, data: log.data, topics: log.topics });
        } catch {
          continue;
        }
        if (ev.eventName === 'CanRelayFailed') {
          const code = Number(ev.args.reason);
          return await this.fail(row, `${CAN_RELAY_FAILED_PREFIX}: ${CAN_RELAY_REASON[code] ?? 'unknown'} (${code})`, 'STATE_INVALID');
        }
        if (ev.eventName === 'TransactionRelayed' && ev.args.status !== 0) {
          const status = ev.args.status;
          const why = await this.replayReason(row.to as Address, row.data as Hex, row.from as Address, receipt.blockNumber);
          return await this.fail(
            row,
            `${RELAY_CALL_REVERTED_PREFIX}${why ? `: ${why}` : ''} (TransactionRelayed status ${status} ${RELAY_CALL_STATUS[status] ?? ''}, block ${block})`.replace(' )', ')'),
          );
        }
      }
    }
    if (row.type === 'SAFE') {
      const safe = row.proxyAddress.toLowerCase();
      for (const log of receipt.logs) {
        if (log.address.toLowerCase() !== safe) continue;
        try {
          const ev = decodeEventLog({ abi: SAFE_ABI, data: log.data, topics: log.topics });
          if (ev.eventName === 'ExecutionFailure') return await this.fail(row, `Safe execution failed in block ${block}: the inner call reverted (ExecutionFailure)`);
        } catch {
          // other Safe events
        }
      }
    }
    // relayer-api.md §11.6: MINED only once reads (/nonce, /deployed) at the node's head include the block.
    while (!this.stopped) {
      try {
        if ((await this.chain.public.getBlockNumber({ cacheTime: 0 })) >= receipt.blockNumber) break;
      } catch {
        // keep waiting: the transaction is mined whatever the node says now
      }
      await this.sleep(this.settings.pollIntervalMs);
    }
    if (this.stopped) return;
    await this.setState(row.id, 'STATE_MINED', { blockNumber: block });
  }

  private async awaitConfirmations(row: RelayerTxRow): Promise<void> {
    const block = BigInt(row.blockNumber ?? 0);
    while (!this.stopped) {
      try {
        const head = await this.chain.public.getBlockNumber({ cacheTime: 0 });
        if (head - block + 1n >= BigInt(this.settings.confirmations)) return await this.setState(row.id, 'STATE_CONFIRMED');
      } catch {
        // a mined transaction stays MINED while the node is away; it confirms when the node is back
      }
      await this.sleep(this.settings.pollIntervalMs);
    }
  }

  /** Confirmations a mined row has now (0 when not mined or the node is away). */
  async confirmationsOf(row: RelayerTxRow): Promise<number> {
    if (row.blockNumber === null) return 0;
    try {
      const head = await this.chain.public.getBlockNumber({ cacheTime: 0 });
      return Math.max(0, Number(head - BigInt(row.blockNumber)) + 1);
    } catch {
      return this.settings.confirmations;
    }
  }

  private async canRelayProblem(row: RelayerTxRow): Promise<string | undefined> {
    const { args } = decodeFunctionData({ abi: RELAY_HUB_ABI, data: row.outerData as Hex });
    const [from, recipient, encodedFunction, fee, gasPrice, gasLimit, nonce, signature, approvalData] = args as readonly [
      Address, Address, Hex, bigint, bigint, bigint, bigint, Hex, Hex,
    ];
    const [status] = await this.chain.public.readContract({
      address: row.outerTo as Address,
      abi: RELAY_HUB_ABI,
      functionName: 'canRelay',
      args: [this.chain.relayAccount.address, from, recipient, encodedFunction, fee, gasPrice, gasLimit, nonce, signature, approvalData],
    });
    if (status === 0n) return undefined;
    const code = Number(status);
    return `${CAN_RELAY_FAILED_PREFIX}: ${CAN_RELAY_REASON[code] ?? 'recipient status'} (${code}), checked before relayCall; nothing was sent`;
  }

  /** Re-runs a call on the state before its block to learn the revert reason (best effort). */
  private async replayReason(to: Address, data: Hex, from: Address, blockNumber: bigint): Promise<string | undefined> {
    try {
      await this.chain.public.call({ account: from, to, data, blockNumber: blockNumber - 1n });
      return undefined;
    } catch (e) {
      const r = revertReason(e);
      return r === undefined || r === '' ? undefined : r;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}
