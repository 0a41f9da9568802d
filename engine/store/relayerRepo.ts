import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { RelayerTxState, RelayerTxType } from '../protocol/schemas/relayer.js';

/** Which engine-held key broadcasts the outer transaction. */
export type RelayerSender = 'relay' | 'operator';

/** One relayer transaction as stored: the public record's fields plus what the broadcaster needs. */
export interface RelayerTxRow {
  id: string;
  type: RelayerTxType;
  state: RelayerTxState;
  /** Authenticated address that asked for it (GET /transactions lists by it). */
  owner: string;
  from: string;
  to: string;
  proxyAddress: string;
  data: string;
  nonce: string;
  value: string;
  signature: string;
  metadata: string;
  txHash: string;
  errorMsg: string;
  sender: RelayerSender;
  /** The chain transaction the sender signs: target, calldata, wei, gas limit. */
  outerTo: string;
  outerData: string;
  outerValue: string;
  outerGas: string;
  /** Signed raw transaction, stored before broadcasting so a restart can resend it. */
  rawTx: string | null;
  blockNumber: number | null;
  createdAt: number;
  updatedAt: number;
}

interface DbRow {
  id: string;
  type: string;
  state: string;
  owner: string;
  from_address: string;
  to_address: string;
  proxy_address: string;
  data: string;
  nonce: string;
  value: string;
  signature: string;
  metadata: string;
  tx_hash: string;
  error_msg: string;
  sender: string;
  outer_to: string;
  outer_data: string;
  outer_value: string;
  outer_gas: string;
  raw_tx: string | null;
  block_number: number | null;
  created_at: number;
  updated_at: number;
}

const OPEN_STATES = "('STATE_NEW', 'STATE_EXECUTED', 'STATE_MINED')";

function fromDb(r: DbRow): RelayerTxRow {
  return {
    id: r.id,
    type: r.type as RelayerTxType,
    state: r.state as RelayerTxState,
    owner: r.owner,
    from: r.from_address,
    to: r.to_address,
    proxyAddress: r.proxy_address,
    data: r.data,
    nonce: r.nonce,
    value: r.value,
    signature: r.signature,
    metadata: r.metadata,
    txHash: r.tx_hash,
    errorMsg: r.error_msg,
    sender: r.sender as RelayerSender,
    outerTo: r.outer_to,
    outerData: r.outer_data,
    outerValue: r.outer_value,
    outerGas: r.outer_gas,
    rawTx: r.raw_tx,
    blockNumber: r.block_number,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * SQL of the relayer. Reads run directly; the mutating methods are meant to be called inside
 * `ctx.writes.commit(() => ...)` so they share the turn's transaction (group commit).
 */
export class RelayerRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement;
  private readonly byOwnerStmt: Statement;
  private readonly openStmt: Statement;
  private readonly openForWalletStmt: Statement;
  private readonly signedStmt: Statement;
  private readonly stateStmt: Statement;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(`INSERT INTO relayer_transactions
      (id, type, state, owner, from_address, to_address, proxy_address, data, nonce, value, signature, metadata,
       tx_hash, error_msg, sender, outer_to, outer_data, outer_value, outer_gas, raw_tx, block_number, created_at, updated_at)
      VALUES (@id, @type, @state, @owner, @from, @to, @proxyAddress, @data, @nonce, @value, @signature, @metadata,
       @txHash, @errorMsg, @sender, @outerTo, @outerData, @outerValue, @outerGas, @rawTx, @blockNumber, @createdAt, @updatedAt)`);
    this.getStmt = db.prepare('SELECT * FROM relayer_transactions WHERE id = ?');
    this.byOwnerStmt = db.prepare('SELECT * FROM relayer_transactions WHERE owner = ? ORDER BY seq DESC LIMIT ?');
    this.openStmt = db.prepare(`SELECT * FROM relayer_transactions WHERE state IN ${OPEN_STATES} ORDER BY seq`);
    this.openForWalletStmt = db.prepare(
      `SELECT * FROM relayer_transactions WHERE proxy_address = ? AND type = ? AND state IN ${OPEN_STATES} ORDER BY seq`,
    );
    this.signedStmt = db.prepare('UPDATE relayer_transactions SET raw_tx = ?, updated_at = ? WHERE id = ?');
    this.stateStmt = db.prepare(`UPDATE relayer_transactions
      SET state = @state, tx_hash = COALESCE(@txHash, tx_hash), error_msg = COALESCE(@errorMsg, error_msg),
          block_number = COALESCE(@blockNumber, block_number), updated_at = @updatedAt
      WHERE id = @id`);
  }

  insert(row: RelayerTxRow): void {
    this.insertStmt.run(row);
  }

  get(id: string): RelayerTxRow | undefined {
    const r = this.getStmt.get(id) as DbRow | undefined;
    return r ? fromDb(r) : undefined;
  }

  /** Newest first. */
  listByOwner(owner: string, limit = 500): RelayerTxRow[] {
    return (this.byOwnerStmt.all(owner.toLowerCase(), limit) as DbRow[]).map(fromDb);
  }

  /** Everything not yet terminal, oldest first: what a restart must keep watching. */
  listOpen(): RelayerTxRow[] {
    return (this.openStmt.all() as DbRow[]).map(fromDb);
  }

  /** Non-terminal transactions of one kind on one wallet (a nonce in flight there is taken). */
  listOpenForWallet(proxyAddress: string, type: RelayerTxType): RelayerTxRow[] {
    return (this.openForWalletStmt.all(proxyAddress.toLowerCase(), type) as DbRow[]).map(fromDb);
  }

  /** The signed transaction, recorded before it is sent (its hash becomes public once it is sent). */
  setSigned(id: string, rawTx: string, nowMs: number): void {
    this.signedStmt.run(rawTx, nowMs, id);
  }

  setState(id: string, state: RelayerTxState, nowMs: number, extra: { txHash?: string; errorMsg?: string; blockNumber?: number } = {}): void {
    this.stateStmt.run({
      id,
      state,
      txHash: extra.txHash ?? null,
      errorMsg: extra.errorMsg ?? null,
      blockNumber: extra.blockNumber ?? null,
      updatedAt: nowMs,
    });
  }

  /** For the store's own consistency checks in tests. */
  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM relayer_transactions').pluck().get() as number;
  }
}
