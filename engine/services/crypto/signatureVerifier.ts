/**
 * Order-signature recovery for the hot path, off the main thread when that pays.
 *
 * Requests made during one event-loop turn are batched into one message to a worker thread
 * (recoveryWorker.mjs: native libsecp256k1), so the main thread, which also runs HTTP, matching and
 * SQLite, only pays for parsing, the digest and one keccak of the public key per order.
 * Measured on this 2-core machine (bench/cryptoBench.ts, `npx tsx bench/cryptoBench.ts`):
 *   - native recovery, one core: ~14 k/s (≈70 µs each); viem/noble pure JS: ~300/s
 *   - two cores busy (two workers): ~27 k/s ceiling
 *   - simulated order path (60 µs of other main-thread work per order, the rest of placement):
 *     inline ≈ 7.5 k orders/s, worker ≈ 11–13 k orders/s (main thread no longer recovers).
 * So 'worker' is the default, with one worker (two cores: one for the main thread, one for recovery).
 * 'inline' stays as the fallback when a worker cannot start or dies, and for callers that want no thread.
 */
import { Worker } from 'node:worker_threads';
import type { Address, Hex, OrderDomainParams } from '../../protocol/eip712.js';
import { bytesToHex, orderDigest, type OrderDigestInput } from './orderDigest.js';
import { parseSignature, publicKeyToAddress, recoverPublicKey, type ParsedSignature } from './recoverSigner.js';

export type VerifierMode = 'inline' | 'worker';

export interface SignatureVerifierOptions {
  mode?: VerifierMode;
  /** Worker threads; default 1 (the machine has 2 cores and the main thread needs one). */
  workers?: number;
  /** Largest batch per message. */
  maxBatch?: number;
}

interface Pending {
  digest: Uint8Array;
  sig: ParsedSignature;
  resolve: (a: Address | null) => void;
}

interface WorkerSlot {
  worker: Worker;
  inflight: Map<number, Pending[]>;
  dead: boolean;
}

const WORKER_URL = new URL('./recoveryWorker.mjs', import.meta.url);

export class SignatureVerifier {
  readonly mode: VerifierMode;
  private readonly maxBatch: number;
  private slots: WorkerSlot[] = [];
  private queue: Pending[] = [];
  private scheduled = false;
  private nextId = 1;
  private rr = 0;
  private closed = false;
  /** Counters for the benchmark and tests. */
  readonly stats = { batches: 0, inWorker: 0, inline: 0 };

  constructor(opts: SignatureVerifierOptions = {}) {
    this.maxBatch = opts.maxBatch ?? 256;
    let mode: VerifierMode = opts.mode ?? 'worker';
    if (mode === 'worker') {
      try {
        for (let i = 0; i < Math.max(1, opts.workers ?? 1); i++) this.slots.push(this.spawn());
      } catch {
        for (const s of this.slots) void s.worker.terminate();
        this.slots = [];
        mode = 'inline';
      }
    }
    this.mode = mode;
  }

  private spawn(): WorkerSlot {
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    const slot: WorkerSlot = { worker, inflight: new Map(), dead: false };
    worker.unref();
    worker.on('message', (msg: { id: number; ok: Uint8Array; pubs: Uint8Array }) => {
      const batch = slot.inflight.get(msg.id);
      if (!batch) return;
      slot.inflight.delete(msg.id);
      if (slot.inflight.size === 0) worker.unref();
      for (let i = 0; i < batch.length; i++) {
        batch[i]!.resolve(msg.ok[i] ? publicKeyToAddress(msg.pubs.subarray(64 * i, 64 * i + 64)) : null);
      }
    });
    const fail = () => {
      if (slot.dead) return;
      slot.dead = true;
      // Nothing is lost: what the worker held is recovered here instead.
      for (const batch of slot.inflight.values()) for (const p of batch) this.recoverInline(p);
      slot.inflight.clear();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    return slot;
  }

  private recoverInline(p: Pending): void {
    this.stats.inline++;
    p.resolve(recoverFromParsed(p.digest, p.sig));
  }

  /** The lower-case address that signed the 32-byte digest, or null (malformed, high-s, unrecoverable). */
  recover(digest: Uint8Array, signature: string): Promise<Address | null> {
    if (digest.length !== 32) return Promise.resolve(null);
    const sig = parseSignature(signature);
    if (!sig) return Promise.resolve(null);
    const live = this.closed ? [] : this.slots.filter((s) => !s.dead);
    if (live.length === 0) {
      this.stats.inline++;
      return Promise.resolve(recoverFromParsed(digest, sig));
    }
    return new Promise((resolve) => {
      // The digest buffer may be reused by the caller; the signature bytes are already a private copy.
      this.queue.push({ digest: digest.slice(), sig, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const live = this.slots.filter((s) => !s.dead);
      const batch = this.queue.splice(0, this.maxBatch);
      if (live.length === 0) {
        for (const p of batch) this.recoverInline(p);
        continue;
      }
      const slot = live[this.rr++ % live.length]!;
      const n = batch.length;
      const digests = new Uint8Array(32 * n);
      const rs = new Uint8Array(64 * n);
      const recids = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const p = batch[i]!;
        digests.set(p.digest, 32 * i);
        rs.set(p.sig.rs, 64 * i);
        recids[i] = p.sig.recid;
      }
      const id = this.nextId++;
      slot.inflight.set(id, batch);
      slot.worker.ref();
      this.stats.batches++;
      this.stats.inWorker += n;
      slot.worker.postMessage({ id, count: n, digests, rs, recids }, [digests.buffer, rs.buffer, recids.buffer]);
    }
  }

  /** Stops the workers; requests still in flight are finished in this thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      const inflight = [...s.inflight.values()];
      s.inflight.clear();
      s.dead = true;
      for (const batch of inflight) for (const p of batch) this.recoverInline(p);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

function recoverFromParsed(digest: Uint8Array, sig: ParsedSignature): Address | null {
  const pub = recoverPublicKey(digest, sig);
  return pub ? publicKeyToAddress(pub) : null;
}

let shared: SignatureVerifier | undefined;

/** The process-wide verifier the order path uses (its worker does not keep the process alive when idle). */
export function sharedSignatureVerifier(): SignatureVerifier {
  if (!shared) shared = new SignatureVerifier();
  return shared;
}

/** Stops the shared verifier's worker (engine shutdown); a later call starts a new one. */
export async function closeSharedSignatureVerifier(): Promise<void> {
  const v = shared;
  shared = undefined;
  if (v) await v.close();
}

export interface OrderSignatureCheck {
  /** The EIP-712 order digest (the public order hash). */
  digest: Hex;
  /** Lower-case address that signed it, or null when the signature is malformed or unrecoverable. */
  recovered: Address | null;
}

/**
 * Digest and signer of a wire order under its domain (exchange or neg-risk exchange). Throws
 * OrderEncodingError (with `field`) when a signed field cannot be encoded as its EIP-712 type.
 */
export async function verifyOrderSignature(
  order: OrderDigestInput & { signature: string },
  domain: OrderDomainParams,
  verifier: SignatureVerifier = sharedSignatureVerifier(),
): Promise<OrderSignatureCheck> {
  const digest = orderDigest(order, domain);
  const recovered = await verifier.recover(digest, order.signature);
  return { digest: bytesToHex(digest), recovered };
}
