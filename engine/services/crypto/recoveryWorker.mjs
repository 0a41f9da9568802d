// Worker thread of SignatureVerifier: native public-key recovery for batches of signatures.
// Plain ESM JavaScript so it loads the same under tsx, plain node and a bundled build.
// Message in:  { id, count, digests: Uint8Array(32·count), rs: Uint8Array(64·count), recids: Uint8Array(count) }
// Message out: { id, ok: Uint8Array(count), pubs: Uint8Array(64·count) }  (pubs without the 0x04 prefix)
import { parentPort } from 'node:worker_threads';
import secp256k1 from 'secp256k1';

const pub = new Uint8Array(65);

parentPort.on('message', (msg) => {
  const { id, count, digests, rs, recids } = msg;
  const ok = new Uint8Array(count);
  const pubs = new Uint8Array(64 * count);
  for (let i = 0; i < count; i++) {
    try {
      secp256k1.ecdsaRecover(rs.subarray(64 * i, 64 * i + 64), recids[i], digests.subarray(32 * i, 32 * i + 32), false, pub);
      pubs.set(pub.subarray(1), 64 * i);
      ok[i] = 1;
    } catch {
      // unrecoverable signature: ok[i] stays 0
    }
  }
  parentPort.postMessage({ id, ok, pubs }, [ok.buffer, pubs.buffer]);
});
