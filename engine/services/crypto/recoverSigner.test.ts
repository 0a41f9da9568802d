import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keccak256, recoverAddress as viemRecover, toBytes, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSignature, recoverAddress } from './recoverSigner.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

test('native recovery matches viem recoverAddress for random keys and digests', async () => {
  for (let i = 0; i < 40; i++) {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = keccak256(toBytes(`message ${i} ${Math.random()}`));
    const sig = await account.sign({ hash });
    const expected = (await viemRecover({ hash, signature: sig })).toLowerCase();
    assert.equal(recoverAddress(toBytes(hash), sig), expected);
    assert.equal(expected, account.address.toLowerCase());
  }
});

test('v may be 27/28 or 0/1', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const hash = keccak256(toBytes('v forms'));
  const sig = await account.sign({ hash });
  const v = parseInt(sig.slice(130), 16);
  const alt = (sig.slice(0, 130) + (v - 27).toString(16).padStart(2, '0')) as Hex;
  assert.equal(recoverAddress(toBytes(hash), alt), account.address.toLowerCase());
});

test('malformed, wrong-v, zero and high-s signatures recover to null', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const hash = keccak256(toBytes('bad'));
  const digest = toBytes(hash);
  const sig = await account.sign({ hash });
  assert.equal(recoverAddress(digest, '0x1234'), null);
  assert.equal(recoverAddress(digest, sig.slice(2)), null);
  assert.equal(recoverAddress(digest, sig.slice(0, 130) + '1d'), null);
  assert.equal(recoverAddress(digest, sig.slice(0, 130) + 'zz'), null);
  assert.equal(recoverAddress(digest, '0x' + '00'.repeat(64) + '1b'), null);
  assert.equal(recoverAddress(digest.subarray(0, 31), sig), null);
  // The malleable twin (n − s, flipped v) is refused although it recovers mathematically.
  const s = BigInt('0x' + sig.slice(66, 130));
  const v = parseInt(sig.slice(130), 16);
  const twin = sig.slice(0, 66) + (N - s).toString(16).padStart(64, '0') + (v === 27 ? '1c' : '1b');
  assert.equal(parseSignature(twin), null);
  assert.equal(recoverAddress(digest, twin), null);
});

test('a signature over another digest recovers to another address', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const sig = await account.sign({ hash: keccak256(toBytes('one')) });
  const other = recoverAddress(toBytes(keccak256(toBytes('two'))), sig);
  assert.notEqual(other, account.address.toLowerCase());
});
