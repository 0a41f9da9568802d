// Worker thread of SignatureVerifier: checks batches of order signatures natively.
// Plain ESM JavaScript so it loads the same under tsx, plain node and a bundled build.
// Message in:  { id, count, digests: Uint8Array(32·count), rs: Uint8Array(64·count), recids: Uint8Array(count),
//                signer?: Uint16Array(count), keys?: Uint8Array(64·k) }
//   signer[i] < k names the public key (keys, 64 bytes without the 0x04 prefix) that signature i claims;
//   0xffff (or no signer array) means unknown.
// Message out: { id, ok: Uint8Array(count), pubs: Uint8Array(64·count), batched }
//   ok[i] = 2: signature i recovers exactly keys[signer[i]] (batch-verified; pubs not filled);
//   ok[i] = 1: recovered one by one, public key in pubs (without the 0x04 prefix);
//   ok[i] = 0: unrecoverable.
// Signatures with a known key are verified together (native/batchVerify.c: one multi-scalar
// multiplication, ≈ 3.5× cheaper per signature than a recovery at 32 a batch); if that batch fails,
// each of them is recovered on its own so the caller learns who did sign.
import { randomFillSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import secp256k1 from 'secp256k1';

const UNKNOWN = 0xffff;
/** Below this many known-key signatures a batch costs more than recovering them (measured: 1 → 114 µs, 8 → 37 µs per signature). */
const MIN_BATCH = 2;

/** The addon, as cryptoNative.ts loads it for the main thread (this file cannot import TypeScript). */
function loadBatchVerifier() {
  // SIGNATURE_BATCH_VERIFY=0 switches batching off (benchmarks compare the two).
  if (process.env.SIGNATURE_BATCH_VERIFY === '0') return null;
  try {
    // The parent names the file (cryptoNativePath: the real file in app.asar.unpacked when packaged).
    return createRequire(import.meta.url)(workerData?.addon ?? './native/cryptoNative.node');
  } catch {
    return null; // not built (no compiler at install): every signature is recovered on its own
  }
}
const native = loadBatchVerifier();
const pub = new Uint8Array(65);

function recoverOne(msg, i, ok, pubs) {
  try {
    secp256k1.ecdsaRecover(msg.rs.subarray(64 * i, 64 * i + 64), msg.recids[i], msg.digests.subarray(32 * i, 32 * i + 32), false, pub);
    pubs.set(pub.subarray(1), 64 * i);
    ok[i] = 1;
  } catch {
    // unrecoverable signature: ok[i] stays 0
  }
}

/** Batch-verifies the known-key signatures at `idx`; true when all of them recover their claimed keys. */
function verifyKnown(msg, idx) {
  const n = idx.length;
  if (n === msg.count) return native.verify(msg.digests, msg.rs, msg.recids, msg.signer, msg.keys, randomFillSync(new Uint8Array(16 * n)));
  const digests = new Uint8Array(32 * n);
  const rs = new Uint8Array(64 * n);
  const recids = new Uint8Array(n);
  const signer = new Uint16Array(n);
  for (let j = 0; j < n; j++) {
    const i = idx[j];
    digests.set(msg.digests.subarray(32 * i, 32 * i + 32), 32 * j);
    rs.set(msg.rs.subarray(64 * i, 64 * i + 64), 64 * j);
    recids[j] = msg.recids[i];
    signer[j] = msg.signer[i];
  }
  return native.verify(digests, rs, recids, signer, msg.keys, randomFillSync(new Uint8Array(16 * n)));
}

parentPort.on('message', (msg) => {
  const { id, count, signer, keys } = msg;
  const ok = new Uint8Array(count);
  const pubs = new Uint8Array(64 * count);
  const known = [];
  if (native && signer && keys && keys.length >= 64) {
    const k = keys.length / 64;
    for (let i = 0; i < count; i++) if (signer[i] !== UNKNOWN && signer[i] < k) known.push(i);
  }
  let batched = 0;
  if (known.length >= MIN_BATCH && verifyKnown(msg, known)) {
    for (const i of known) ok[i] = 2;
    batched = known.length;
  }
  for (let i = 0; i < count; i++) if (ok[i] === 0) recoverOne(msg, i, ok, pubs);
  parentPort.postMessage({ id, ok, pubs, batched }, [ok.buffer, pubs.buffer]);
});
