import type { TransactionRecord } from '../../protocol/schemas/relayer.js';
import type { RelayerTxRow } from '../../store/relayerRepo.js';

/** The public record (relayer-api.md §3.4, keys in its order) plus `errorMsg`. Addresses lower case. */
export function toTransactionRecord(row: RelayerTxRow): TransactionRecord {
  return {
    transactionID: row.id,
    transactionHash: row.txHash,
    from: row.from,
    to: row.to,
    proxyAddress: row.proxyAddress,
    data: row.data,
    nonce: row.nonce,
    value: row.value,
    signature: row.signature,
    state: row.state,
    type: row.type,
    owner: row.owner,
    metadata: row.metadata,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    errorMsg: row.errorMsg,
  };
}
