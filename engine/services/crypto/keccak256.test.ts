import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keccak_256, keccakP } from '@noble/hashes/sha3';
import { keccak256 as viemKeccak, toHex } from 'viem';
import { keccak256, keccakF1600, keccakMemory, keccakPaddedBlocks, reserveKeccakScratch } from './keccak256.js';

function randomBytes(n: number): Uint8Array {
  return new Uint8Array(n).map(() => Math.floor(Math.random() * 256));
}

test('the fast keccak equals noble keccak_256 for every length up to three blocks', () => {
  for (let n = 0; n <= 420; n++) {
    const data = new Uint8Array(n).map((_, i) => (i * 131 + n * 7) & 0xff);
    assert.deepEqual(keccak256(data), keccak_256(data), `length ${n}`);
  }
});

test('the fast keccak equals noble and viem for random inputs of 0..600 bytes and at every block boundary', () => {
  const lengths = [0, 1, 31, 32, 33, 65, 66, 67, 135, 136, 137, 271, 272, 273, 407, 408, 409, 415, 416, 417, 543, 544, 545, 600];
  for (let i = 0; i < 400; i++) lengths.push(Math.floor(Math.random() * 601));
  for (const n of lengths) {
    const data = randomBytes(n);
    const mine = keccak256(data);
    assert.deepEqual(mine, keccak_256(data), `length ${n} vs noble`);
    assert.equal(toHex(mine), viemKeccak(data, 'hex'), `length ${n} vs viem`);
  }
});

test('the fast keccak streams inputs longer than its staging area (57,256 bytes) through in chunks', () => {
  const chunk = 421 * 136;
  for (const n of [chunk - 1, chunk, chunk + 1, chunk + 136, 2 * chunk, 2 * chunk + 135, 150_001]) {
    const data = randomBytes(n);
    assert.deepEqual(keccak256(data), keccak_256(data), `length ${n}`);
  }
});

test('keccak256 writes only the 32 bytes at outOffset of a given output array', () => {
  const data = randomBytes(100);
  const out = new Uint8Array(40).fill(0xaa);
  assert.equal(keccak256(data, out, 5), out);
  assert.deepEqual(out.subarray(5, 37), keccak_256(data));
  assert.ok(out.subarray(0, 5).every((b) => b === 0xaa) && out.subarray(37).every((b) => b === 0xaa));
  // The input itself is never touched, even when it is a view that the hasher would otherwise reuse.
  const copy = data.slice();
  keccak256(data);
  assert.deepEqual(data, copy);
});

test('keccakF1600 equals noble keccakP on random states', () => {
  for (let i = 0; i < 20; i++) {
    const s = new Int32Array(50).map(() => (Math.random() * 2 ** 32) | 0);
    const ref = new Uint32Array(s);
    keccakP(ref, 24);
    keccakF1600(s);
    assert.deepEqual(new Uint32Array(s.buffer), ref);
  }
});

test('keccakPaddedBlocks hashes a message laid out and padded in reserved scratch', () => {
  const at = reserveKeccakScratch(2 * 136);
  const out = reserveKeccakScratch(32);
  const msg = randomBytes(200);
  keccakMemory.fill(0, at, at + 272);
  keccakMemory.set(msg, at);
  keccakMemory[at + 200] = 0x01;
  keccakMemory[at + 271] = 0x80;
  keccakPaddedBlocks(at, 2, out);
  assert.deepEqual(keccakMemory.slice(out, out + 32), keccak_256(msg));
  // The state does not leak between calls: the same blocks hash the same again.
  keccakPaddedBlocks(at, 2, out);
  assert.deepEqual(keccakMemory.slice(out, out + 32), keccak_256(msg));
});

test('reserving more scratch than the hasher has fails loudly', () => {
  assert.throws(() => reserveKeccakScratch(8192), /keccak scratch exhausted/);
});
