/**
 * Signature-crypto figures of the order hot path:
 *   - EIP-712 order digests/s: the hand-rolled encoder + fast keccak vs viem hashTypedData;
 *   - recoveries/s on one core: native libsecp256k1 vs viem's pure-JS recoverAddress;
 *   - batch verification on one core (native/batchVerify.c, 32 signatures of one known signer a batch),
 *     what the order path's recovery worker does once it knows a signer's key;
 *   - the two-core recovery ceiling (two worker threads recovering flat out): what the HTTP order
 *     benchmark is compared against;
 *   - a simulated order path (fixed main-thread work per order + digest + recovery), inline vs worker,
 *     which is how SignatureVerifier's default mode was chosen.
 * Run alone: `npx tsx bench/cryptoBench.ts`.
 */
import { randomFillSync } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { hashTypedData, recoverAddress as viemRecoverAddress, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ORDER_TYPES, orderDomain, orderTypedMessage, type Address, type OrderStruct } from '../engine/protocol/eip712.js';
import { cryptoNative } from '../engine/services/crypto/cryptoNative.js';
import { orderDigest, orderDigestHex } from '../engine/services/crypto/orderDigest.js';
import { parseSignature, recoverAddress, recoverPublicKey } from '../engine/services/crypto/recoverSigner.js';
import { SignatureVerifier } from '../engine/services/crypto/signatureVerifier.js';
import { recoveryCeiling } from './recoveryCeiling.js';

export interface CryptoBenchResult {
  digestsPerSecFast: number;
  digestsPerSecViem: number;
  usPerDigestFast: number;
  recoveriesPerSecNative: number;
  recoveriesPerSecViem: number;
  recoveriesPerSecTwoCores: number;
  /** Signatures/s of batch verification on one core, 32 a batch; null when the addon is not built. */
  batchVerifiesPerSec: number | null;
  simulatedOrderPath: Array<{ otherWorkUs: number; inlineOrdersPerSec: number; workerOrdersPerSec: number }>;
}

const DOMAIN = { chainId: 31337, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address };
const ACCOUNT = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');

function order(i: number): OrderStruct {
  return {
    salt: 1_000_000 + i,
    maker: ACCOUNT.address,
    signer: ACCOUNT.address,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
    makerAmount: String(5_200_000 + i),
    takerAmount: '10000000',
    expiration: '0',
    nonce: '0',
    feeRateBps: '0',
    side: i % 2 ? 'SELL' : 'BUY',
    signatureType: 0,
  };
}

/** Runs `fn` repeatedly for about `ms` milliseconds; returns calls per second. */
function rate(ms: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < 200; i++) fn(i);
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let k = 0; k < 50; k++) fn(n++);
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

async function signedOrders(count: number): Promise<Array<{ order: OrderStruct; digest: Uint8Array; signature: `0x${string}` }>> {
  const out = [];
  for (let i = 0; i < count; i++) {
    const o = order(i);
    const digest = orderDigest(o, DOMAIN);
    out.push({ order: o, digest, signature: await ACCOUNT.sign({ hash: toHex(digest) }) });
  }
  return out;
}

/** Signatures/s that the batch verifier checks on this thread, `size` a batch, all by the one known signer. */
function batchVerifyRate(samples: Array<{ digest: Uint8Array; signature: string }>, ms: number, size = 32): number | null {
  const addon = cryptoNative;
  if (!addon) return null;
  const first = parseSignature(samples[0]!.signature)!;
  const keys = recoverPublicKey(samples[0]!.digest, first)!.slice(1);
  const batches = Array.from({ length: Math.floor(samples.length / size) }, (_, b) => {
    const digests = new Uint8Array(32 * size);
    const rs = new Uint8Array(64 * size);
    const recids = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      const s = samples[b * size + i]!;
      const sig = parseSignature(s.signature)!;
      digests.set(s.digest, 32 * i);
      rs.set(sig.rs, 64 * i);
      recids[i] = sig.recid;
    }
    return { digests, rs, recids };
  });
  const signer = new Uint16Array(size);
  const random = new Uint8Array(16 * size);
  const batchesPerSec = rate(ms, (i) => {
    const b = batches[i % batches.length]!;
    if (!addon.verify(b.digests, b.rs, b.recids, signer, keys, randomFillSync(random))) throw new Error('bench batch did not verify');
  });
  return batchesPerSec * size;
}

function spin(us: number): void {
  const end = performance.now() + us / 1000;
  while (performance.now() < end) {
    /* stands for HTTP parsing, validation, matching and the SQLite write of one order */
  }
}

/** Orders/s of a main thread that spends `otherWorkUs` per order plus the digest and the recovery. */
async function simulatedPath(
  samples: Array<{ order: OrderStruct; signature: string }>,
  otherWorkUs: number,
  mode: 'inline' | 'worker',
  ms: number,
): Promise<number> {
  const v = new SignatureVerifier({ mode });
  const concurrency = 64;
  let n = 0;
  let end = 0;
  // Time is checked, not a timer: inline recoveries resolve in microtasks, so timers would never fire.
  const chain = async (k: number) => {
    for (let i = k; performance.now() < end; i += concurrency) {
      const s = samples[i % samples.length]!;
      spin(otherWorkUs);
      const recovered = await v.recover(orderDigest(s.order, DOMAIN), s.signature);
      if (recovered === null) throw new Error('bench signature did not recover');
      n++;
    }
  };
  // warm-up
  await Promise.all(samples.slice(0, 50).map((s) => v.recover(orderDigest(s.order, DOMAIN), s.signature)));
  const start = performance.now();
  end = start + ms;
  await Promise.all(Array.from({ length: concurrency }, (_, k) => chain(k)));
  const elapsed = performance.now() - start;
  await v.close();
  return (n * 1000) / elapsed;
}

export async function runCryptoBench(opts: { ms?: number } = {}): Promise<CryptoBenchResult> {
  const ms = opts.ms ?? 1000;
  const samples = await signedOrders(256);

  const digestsPerSecFast = rate(ms, (i) => orderDigestHex(samples[i & 255]!.order, DOMAIN));
  const digestsPerSecViem = rate(ms / 2, (i) =>
    hashTypedData({ domain: orderDomain(DOMAIN), types: ORDER_TYPES, primaryType: 'Order', message: orderTypedMessage(samples[i & 255]!.order) }),
  );
  const recoveriesPerSecNative = rate(ms, (i) => recoverAddress(samples[i & 255]!.digest, samples[i & 255]!.signature));

  let viemCount = 0;
  const viemStart = performance.now();
  while (performance.now() - viemStart < ms / 2) {
    const s = samples[viemCount & 255]!;
    await viemRecoverAddress({ hash: toHex(s.digest), signature: s.signature });
    viemCount++;
  }
  const recoveriesPerSecViem = (viemCount * 1000) / (performance.now() - viemStart);

  const batchVerifiesPerSec = batchVerifyRate(samples, ms);
  const recoveriesPerSecTwoCores = await recoveryCeiling(samples, ms * 1.5);

  const simulatedOrderPath = [];
  for (const otherWorkUs of [30, 60, 120]) {
    const inlineOrdersPerSec = await simulatedPath(samples, otherWorkUs, 'inline', ms);
    const workerOrdersPerSec = await simulatedPath(samples, otherWorkUs, 'worker', ms);
    simulatedOrderPath.push({ otherWorkUs, inlineOrdersPerSec: Math.round(inlineOrdersPerSec), workerOrdersPerSec: Math.round(workerOrdersPerSec) });
  }

  return {
    digestsPerSecFast: Math.round(digestsPerSecFast),
    digestsPerSecViem: Math.round(digestsPerSecViem),
    usPerDigestFast: Math.round((1e6 / digestsPerSecFast) * 100) / 100,
    recoveriesPerSecNative: Math.round(recoveriesPerSecNative),
    recoveriesPerSecViem: Math.round(recoveriesPerSecViem),
    recoveriesPerSecTwoCores: Math.round(recoveriesPerSecTwoCores),
    batchVerifiesPerSec: batchVerifiesPerSec === null ? null : Math.round(batchVerifiesPerSec),
    simulatedOrderPath,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCryptoBench()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
