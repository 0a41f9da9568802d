import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import secp256k1 from 'secp256k1';
import { cryptoNative } from './cryptoNative.js';
import { orderDigest } from './orderDigest.js';
import { parseSignature } from './recoverSigner.js';
import { VECTOR_6_3_DOMAIN, VECTOR_6_3_ORDER, VECTOR_6_3_SIGNATURE } from '../../testkit/tradingVectorsKit.js';

/** The addon the signature worker batch-verifies with (native/batchVerify.c, built by `npm install`). */
assert.ok(cryptoNative, 'the cryptoNative addon is not built: run `npm run build:native`');
const addon = cryptoNative;

interface Sig {
  digest: Uint8Array;
  rs: Uint8Array;
  recid: number;
  signer: number;
}

function batchOf(sigs: Sig[], keys: Uint8Array[]) {
  const n = sigs.length;
  const b = { digests: new Uint8Array(32 * n), rs: new Uint8Array(64 * n), recids: new Uint8Array(n), signer: new Uint16Array(n), keys: new Uint8Array(64 * keys.length) };
  sigs.forEach((s, i) => {
    b.digests.set(s.digest, 32 * i);
    b.rs.set(s.rs, 64 * i);
    b.recids[i] = s.recid;
    b.signer[i] = s.signer;
  });
  keys.forEach((k, j) => b.keys.set(k, 64 * j));
  return b;
}

function verify(sigs: Sig[], keys: Uint8Array[]): boolean {
  const b = batchOf(sigs, keys);
  return addon.verify(b.digests, b.rs, b.recids, b.signer, b.keys, randomBytes(16 * sigs.length));
}

/** What a recovery says: every signature recovers exactly its claimed key. */
function allRecover(sigs: Sig[], keys: Uint8Array[]): boolean {
  return sigs.every((s) => {
    try {
      const pub = secp256k1.ecdsaRecover(s.rs, s.recid, s.digest, false);
      return Buffer.from(pub.subarray(1)).equals(Buffer.from(keys[s.signer]!));
    } catch {
      return false;
    }
  });
}

const privs = Array.from({ length: 4 }, () => {
  for (;;) {
    const k = randomBytes(32);
    if (secp256k1.privateKeyVerify(k)) return k;
  }
});
const keys = privs.map((k) => secp256k1.publicKeyCreate(k, false).subarray(1));

function sign(signer: number): Sig {
  const digest = randomBytes(32);
  const { signature, recid } = secp256k1.ecdsaSign(digest, privs[signer]!);
  return { digest, rs: signature, recid, signer };
}

test('the §6.3 reference order verifies in a batch against the key its signature recovers', () => {
  const digest = orderDigest(VECTOR_6_3_ORDER, VECTOR_6_3_DOMAIN);
  const sig = parseSignature(VECTOR_6_3_SIGNATURE)!;
  const key = secp256k1.ecdsaRecover(sig.rs, sig.recid, digest, false).subarray(1);
  const vector: Sig = { digest, rs: sig.rs, recid: sig.recid, signer: 0 };
  assert.equal(verify([vector, vector], [key]), true);
  assert.equal(verify([vector], [keys[0]!]), false, 'the same signature against another key');
});

test('a batch of signatures by several signers verifies when each claims its own key', () => {
  const sigs = Array.from({ length: 40 }, (_, i) => sign(i % 4));
  assert.equal(verify(sigs, keys), true);
});

test('one bad signature among many fails the batch, whatever was altered', () => {
  const sigs = Array.from({ length: 24 }, (_, i) => sign(i % 3));
  const alter = (f: (s: Sig) => Sig) => verify(sigs.map((s, i) => (i === 13 ? f({ ...s, digest: s.digest.slice(), rs: s.rs.slice() }) : s)), keys);
  assert.equal(alter((s) => ({ ...s, signer: (s.signer + 1) % 4 })), false, 'claims another key');
  assert.equal(alter((s) => (s.digest[5]! ^= 1, s)), false, 'another digest');
  assert.equal(alter((s) => (s.rs[40]! ^= 1, s)), false, 'another s');
  assert.equal(alter((s) => (s.rs[7]! ^= 1, s)), false, 'another r');
  assert.equal(alter((s) => ({ ...s, recid: s.recid ^ 1 })), false, 'the other y parity');
  assert.equal(alter((s) => ({ ...s, recid: s.recid | 2 })), false, 'recid 2/3 (x = r + n)');
  assert.equal(alter((s) => (s.rs.fill(0, 32), s)), false, 's = 0');
  assert.equal(alter((s) => (s.rs.fill(0xff, 0, 32), s)), false, 'r ≥ n');
});

test('a key that is not on the curve fails the batch instead of verifying anything', () => {
  const sigs = [sign(0), sign(0)];
  const offCurve = keys[0]!.slice();
  offCurve[63]! ^= 1;
  assert.equal(verify(sigs, [offCurve]), false);
});

test('on random batches with occasional corruption, the batch verdict equals recovering every signature', () => {
  let rejected = 0;
  for (let round = 0; round < 150; round++) {
    const n = 1 + (round % 33);
    const sigs = Array.from({ length: n }, () => sign(Math.floor(Math.random() * 4)));
    if (round % 3 === 0) {
      const i = Math.floor(Math.random() * n);
      const s = { ...sigs[i]!, rs: sigs[i]!.rs.slice() };
      s.rs[Math.floor(Math.random() * 64)]! ^= 1 << Math.floor(Math.random() * 8);
      sigs[i] = s;
    }
    const expected = allRecover(sigs, keys);
    if (!expected) rejected++;
    assert.equal(verify(sigs, keys), expected, `round ${round}`);
  }
  assert.ok(rejected >= 40, `corrupted rounds: ${rejected}`);
});

test('mismatched lengths are a TypeError, not a crash', () => {
  const b = batchOf([sign(0), sign(1)], keys);
  assert.throws(() => addon.verify(b.digests.subarray(0, 32), b.rs, b.recids, b.signer, b.keys, randomBytes(32)), TypeError);
  assert.throws(() => addon.verify(b.digests, b.rs, b.recids, b.signer, b.keys, randomBytes(16)), TypeError);
  assert.equal(addon.verify(b.digests, b.rs, b.recids, new Uint16Array([0, 9]), b.keys, randomBytes(32)), false, 'a signer index beyond the keys');
});

test('a batch larger than one pass of the multiplication (1,100 signatures) verifies, and fails with one bad signature', () => {
  const sigs = Array.from({ length: 1100 }, (_, i) => sign(i % 4));
  assert.equal(verify(sigs, keys), true);
  sigs[1099] = { ...sigs[1099]!, signer: (sigs[1099]!.signer + 1) % 4 };
  assert.equal(verify(sigs, keys), false);
});
