/**
 * Order-signature recovery for the hot path: in this thread (the class default) or batched to a worker
 * thread (what the order service uses, see sharedSignatureVerifier).
 *
 * In 'worker' mode, requests go in batches (one message per batch) to a worker
 * (recoveryWorker.mjs: native libsecp256k1), so the main thread, which also runs HTTP, matching and
 * SQLite, only pays for the digest and one keccak of the recovered public key per order.
 * Measured on this 2-core machine with `npx tsx bench/cryptoBench.ts` (three runs, shared with other
 * busy processes, load average 5–11, so absolute numbers are pessimistic):
 *   - order digest (hand-rolled encoder + unrolled keccak): 31–51 k/s (20–32 µs); viem hashTypedData 2–3.5 k/s.
 *     Idle, the keccak alone measured 11 µs for the 416-byte struct and 3 µs for the 66-byte digest input.
 *   - native recovery, one core: 10.4–12.0 k/s; viem/noble pure JS: 180–280/s.
 *   - two cores recovering flat out (two workers): 11.6–23.4 k/s (23 k when both cores were free).
 *   - simulated order path (30/60/120 µs of other main-thread work per order), orders/s inline vs worker:
 *     30 µs: 6090/6033, 5939/5936, 6700/5824; 60 µs: 4701/4526, 4989/5258, 5496/4735;
 *     120 µs: 3671/4015, 4188/3755, 4149/3955.
 * The worker did not pay: the second core is not free (the chain process and everything else on the
 * machine compete for it) and each batch costs a structured-clone round trip. So 'inline' is the
 * default; 'worker' stays available (and falls back to inline when a worker cannot start or dies) for a
 * deployment with an idle core, where the two-core ceiling shows the headroom.
 * Re-measured end to end over HTTP (bench/httpBench.ts, 64 connections, load average 4–5 from other
 * work on the 2 cores): inline 1207–1604 orders/s (engine CPU 498–605 µs/order), worker 1096–1395
 * (533–568 µs/order): still no gain while the second core is busy. Inline recovery costs the main
 * thread ≈ 110 µs/order under that load; in worker mode one batch is out per worker at a time and
 * requests gather behind it, so the message cost is paid per batch, not per event-loop turn.
 * With that change, and once the machine was quieter (load average 1.5–1.8), the same benchmark gave
 * worker 2591 / 2706 orders/s (p99 36 ms, 464–478 µs/order) against inline 2009 / 2231 (p99 44–49 ms)
 * in alternating runs: with a partly free second core the worker pays, so the order service's shared
 * verifier runs in 'worker' mode; this class's own default stays 'inline'.
 *
 * Known signers are batch-verified, not recovered. A recovery answers "who signed this?"; for an order
 * the question is "did its signer sign this?", and once one recovery has shown a signer's public key
 * (its keccak is the address), the worker checks all the batch's signatures that claim known keys with
 * one multi-scalar multiplication (native/batchVerify.c; random 128-bit weights, so a bad signature
 * passes with probability ≈ 2^-127). On one core, 32 a batch: ≈ 36,800 signatures/s against ≈ 10,100
 * recoveries/s (`npx tsx bench/cryptoBench.ts`). A failed batch is recovered signature by signature, so
 * every answer, including the address in an error message, is the one a recovery gives.
 */
import { Worker } from 'node:worker_threads';
import type { Address, Hex, OrderDomainParams } from '../../protocol/eip712.js';
import { bytesToHex, orderDigest, type OrderDigestInput } from './orderDigest.js';
import { parseSignature, publicKeyToAddress, recoverPublicKey, type ParsedSignature } from './recoverSigner.js';
import { cryptoNativePath } from './cryptoNative.js';

export type VerifierMode = 'inline' | 'worker';

export interface SignatureVerifierOptions {
  mode?: VerifierMode;
  /** Worker threads in 'worker' mode; default 1 (on 2 cores the main thread needs the other). */
  workers?: number;
  /** Largest batch per message. */
  maxBatch?: number;
  /** Batches a worker may hold at once (the one it works on and queued ones); default 1. */
  depth?: number;
}

interface Pending {
  digest: Uint8Array;
  sig: ParsedSignature;
  /** The lower-case address the order says signed it, when well-formed. */
  claimed: Address | undefined;
  resolve: (a: Address | null) => void;
}

/** Worker message: which key each signature claims (index into `keys`), 0xffff when unknown. */
const UNKNOWN_KEY = 0xffff;
/** Public keys remembered per address (64 bytes each); the oldest is dropped beyond this. */
const KEY_CACHE_SIZE = 4096;
const ADDRESS = /^0x[0-9a-f]{40}$/;

interface WorkerSlot {
  worker: Worker;
  inflight: Map<number, Pending[]>;
  dead: boolean;
}

const WORKER_URL = new URL('./recoveryWorker.mjs', import.meta.url);

export class SignatureVerifier {
  readonly mode: VerifierMode;
  private readonly maxBatch: number;
  private readonly depth: number;
  private slots: WorkerSlot[] = [];
  private queue: Pending[] = [];
  private scheduled = false;
  private nextId = 1;
  private rr = 0;
  private closed = false;
  /** Counters for the benchmark and tests. */
  readonly stats = { batches: 0, inWorker: 0, inline: 0, batchVerified: 0 };
  /**
   * Public keys of signers already recovered once: a signature that claims one of them is batch-verified
   * against it in the worker instead of recovered (recoveryWorker.mjs). Only a recovery that yields the
   * claimed address adds a key, so an entry is always the key whose keccak is that address.
   */
  private readonly keys = new Map<Address, Uint8Array>();

  constructor(opts: SignatureVerifierOptions = {}) {
    this.maxBatch = opts.maxBatch ?? 256;
    this.depth = Math.max(1, opts.depth ?? 1);
    let mode: VerifierMode = opts.mode ?? 'inline';
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
    const worker = new Worker(WORKER_URL, { execArgv: [], workerData: { addon: cryptoNativePath() } });
    const slot: WorkerSlot = { worker, inflight: new Map(), dead: false };
    worker.on('message', (msg: { id: number; ok: Uint8Array; pubs: Uint8Array; batched: number }) => {
      const batch = slot.inflight.get(msg.id);
      if (!batch) return;
      slot.inflight.delete(msg.id);
      if (slot.inflight.size === 0) worker.unref();
      this.stats.batchVerified += msg.batched;
      for (let i = 0; i < batch.length; i++) {
        const p = batch[i]!;
        if (msg.ok[i] === 2) p.resolve(p.claimed!);
        else if (msg.ok[i] === 1) p.resolve(this.learn(p.claimed, msg.pubs.subarray(64 * i, 64 * i + 64)));
        else p.resolve(null);
      }
      // What queued while this batch was out goes now, as one message.
      if (this.queue.length > 0 && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
    const fail = () => {
      if (slot.dead) return;
      slot.dead = true;
      // Nothing is lost: what the worker held is recovered here instead.
      for (const batch of slot.inflight.values()) for (const p of batch) this.recoverInline(p);
      slot.inflight.clear();
      if (this.queue.length > 0) this.flush();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    return slot;
  }

  /** The address of a recovered key; remembers the key when it is the one the order claimed. */
  private learn(claimed: Address | undefined, pub: Uint8Array): Address {
    const address = publicKeyToAddress(pub);
    if (address === claimed && !this.keys.has(address)) {
      if (this.keys.size >= KEY_CACHE_SIZE) this.keys.delete(this.keys.keys().next().value!);
      this.keys.set(address, pub.slice());
    }
    return address;
  }

  private recoverInline(p: Pending): void {
    this.stats.inline++;
    p.resolve(recoverFromParsed(p.digest, p.sig));
  }

  /**
   * The lower-case address that signed the 32-byte digest, or null (malformed, high-s, unrecoverable).
   * `claimedSigner` (the order's signer field) only makes it cheaper: once that signer's key is known, the
   * signature is verified against it in a batch; the answer is the same as a recovery's.
   */
  recover(digest: Uint8Array, signature: string, claimedSigner?: string): Promise<Address | null> {
    if (digest.length !== 32) return Promise.resolve(null);
    const sig = parseSignature(signature);
    if (!sig) return Promise.resolve(null);
    if (this.closed || !this.slots.some((s) => !s.dead)) {
      this.stats.inline++;
      return Promise.resolve(recoverFromParsed(digest, sig));
    }
    return new Promise((resolve) => {
      // The digest buffer may be reused by the caller; the signature bytes are already a private copy.
      const claimed = typeof claimedSigner === 'string' ? claimedSigner.toLowerCase() : '';
      this.queue.push({ digest: digest.slice(), sig, claimed: ADDRESS.test(claimed) ? (claimed as Address) : undefined, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Sends queued requests to idle workers, one batch each. A worker with a batch out gets nothing more
   * until it answers: meanwhile requests gather, so under load batches grow and the per-message cost
   * (structured clone, wake-up) is paid once per batch rather than once per event-loop turn.
   */
  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const live = this.slots.filter((s) => !s.dead);
      if (live.length === 0) {
        for (const p of this.queue.splice(0)) this.recoverInline(p);
        return;
      }
      let slot: WorkerSlot | undefined;
      let idle = 0;
      for (let k = 0; k < live.length; k++) {
        const s = live[this.rr++ % live.length]!;
        if (s.inflight.size < this.depth || this.closed) {
          idle++;
          slot ??= s;
        }
      }
      if (!slot) return; // every worker is busy: its answer flushes the queue
      // Idle workers share the queue evenly: smaller batches finish sooner, so replies wait less.
      const batch = this.queue.splice(0, Math.min(this.maxBatch, Math.ceil(this.queue.length / idle)));
      const n = batch.length;
      const digests = new Uint8Array(32 * n);
      const rs = new Uint8Array(64 * n);
      const recids = new Uint8Array(n);
      const signer = new Uint16Array(n).fill(UNKNOWN_KEY);
      const keyIndex = new Map<Address, number>();
      const keyList: Uint8Array[] = [];
      for (let i = 0; i < n; i++) {
        const p = batch[i]!;
        digests.set(p.digest, 32 * i);
        rs.set(p.sig.rs, 64 * i);
        recids[i] = p.sig.recid;
        const key = p.claimed && this.keys.get(p.claimed);
        if (key) {
          let k = keyIndex.get(p.claimed!);
          if (k === undefined) keyIndex.set(p.claimed!, (k = keyList.push(key) - 1));
          signer[i] = k;
        }
      }
      const keys = new Uint8Array(64 * keyList.length);
      keyList.forEach((key, k) => keys.set(key, 64 * k));
      const id = this.nextId++;
      slot.inflight.set(id, batch);
      slot.worker.ref();
      this.stats.batches++;
      this.stats.inWorker += n;
      slot.worker.postMessage({ id, count: n, digests, rs, recids, signer, keys }, [digests.buffer, rs.buffer, recids.buffer, signer.buffer, keys.buffer]);
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

/**
 * The process-wide verifier of the order service: one recovery worker (see the figures above; it
 * falls back to inline recovery when the worker cannot start or dies, and does not keep the process
 * alive when idle).
 */
export function sharedSignatureVerifier(): SignatureVerifier {
  if (!shared) shared = new SignatureVerifier({ mode: 'worker', workers: envCount('SIGNATURE_WORKERS'), depth: envCount('SIGNATURE_DEPTH') });
  return shared;
}

/**
 * The shared verifier's recovery threads (SIGNATURE_WORKERS) and batches per thread (SIGNATURE_DEPTH):
 * 1 and 1 unless set, for benchmarks to compare. Measured over HTTP on this 2-core machine (64
 * connections, alternating runs): 2 workers 3,184/s against 1 worker 3,269/s (means of 3); depth 2
 * 3,418 and 3,364/s against depth 1 3,339 and 3,187/s: within the machine's run-to-run noise.
 */
function envCount(name: string): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n >= 1 && n <= 8 ? n : 1;
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
  const recovered = await verifier.recover(digest, order.signature, order.signer);
  return { digest: bytesToHex(digest), recovered };
}
