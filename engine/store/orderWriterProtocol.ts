/** Main thread → writer thread. */
export type WriterRequest =
  /** `groups`: encodeOrderWrites() of the batch's groups. */
  | { type: 'batch'; seq: number; groups: string }
  /** Commit these last groups, close the connection, then set flag[0] to 1 (ok) or 2 (failed) and notify. */
  | { type: 'close'; groups: string; flag: Int32Array };

/**
 * Writer thread → main thread. `failed` lists [group index, error message] of groups that were not stored;
 * `transaction` numbers the writer's transactions (batches committed together share it).
 */
export type WriterReply = { type: 'ready' } | { type: 'done'; seq: number; failed: Array<[number, string]>; transaction: number };
