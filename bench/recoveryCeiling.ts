/**
 * The machine's two-core signer-recovery ceiling: two worker threads running the engine's recovery
 * worker (native libsecp256k1) on batches back to back for `ms`, after one warm-up batch each. The
 * yardstick the crypto and HTTP benchmarks measure the order path against.
 */
import { Worker } from 'node:worker_threads';
import { parseSignature } from '../engine/services/crypto/recoverSigner.js';

/** Recoveries per second over both workers. */
export async function recoveryCeiling(samples: Array<{ digest: Uint8Array; signature: string }>, ms: number): Promise<number> {
  const url = new URL('../engine/services/crypto/recoveryWorker.mjs', import.meta.url);
  const batch = 500;
  const parsed = samples.map((s) => ({ digest: s.digest, sig: parseSignature(s.signature)! }));
  const runOne = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const w = new Worker(url, { execArgv: [] });
      let done = 0;
      let id = 0;
      let start = 0;
      const send = () => {
        const digests = new Uint8Array(32 * batch);
        const rs = new Uint8Array(64 * batch);
        const recids = new Uint8Array(batch);
        for (let i = 0; i < batch; i++) {
          const p = parsed[(id * batch + i) % parsed.length]!;
          digests.set(p.digest, 32 * i);
          rs.set(p.sig.rs, 64 * i);
          recids[i] = p.sig.recid;
        }
        w.postMessage({ id: id++, count: batch, digests, rs, recids }, [digests.buffer, rs.buffer, recids.buffer]);
      };
      w.on('error', reject);
      let outstanding = 0;
      let rate = 0;
      w.on('message', (msg: { ok: Uint8Array }) => {
        outstanding--;
        if (!msg.ok[0]) reject(new Error('ceiling sample did not recover'));
        if (rate > 0) {
          // Terminated only once idle: killing a worker inside a native call aborts the process.
          if (outstanding === 0) void w.terminate().then(() => resolve(rate));
          return;
        }
        if (start === 0) start = performance.now();
        else done += batch;
        const elapsed = start ? performance.now() - start : 0;
        if (elapsed >= ms) {
          rate = (done * 1000) / elapsed;
          if (outstanding === 0) void w.terminate().then(() => resolve(rate));
        } else {
          outstanding++;
          send();
        }
      });
      outstanding += 2;
      send();
      send(); // one batch always queued so the worker never idles
    });
  const [a, b] = await Promise.all([runOne(), runOne()]);
  return a + b;
}
