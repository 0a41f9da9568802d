/**
 * Keccak-256 for the order hot path. @noble/hashes' keccak (what viem uses) measured ~17 µs per
 * permutation on this machine (its u32 lanes fall off V8's integer fast path); this permutation keeps
 * the 25 lanes in 50 int32 locals, fully unrolled (generated code), and runs well under 1 µs.
 * Equality with noble's keccak_256 is a test.
 */

// prettier-ignore
const RC_LO = new Int32Array([1, 32898, 32906, -2147450880, 32907, -2147483647, -2147450751, 32777, 138, 136, -2147450871, -2147483638, -2147450741, 139, 32905, 32771, 32770, 128, 32778, -2147483638, -2147450751, 32896, -2147483647, -2147450872]);
// prettier-ignore
const RC_HI = new Int32Array([0, 0, -2147483648, -2147483648, 0, 0, -2147483648, -2147483648, 0, 0, 0, 0, 0, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, 0, -2147483648, -2147483648, -2147483648, 0, -2147483648]);

/** keccak-f[1600] on a state of 25 lanes stored as 50 int32 (lane i: lo at 2i, hi at 2i+1). */
export function keccakF1600(s: Int32Array): void {
  let a0l = s[0]!, a0h = s[1]!;
  let a1l = s[2]!, a1h = s[3]!;
  let a2l = s[4]!, a2h = s[5]!;
  let a3l = s[6]!, a3h = s[7]!;
  let a4l = s[8]!, a4h = s[9]!;
  let a5l = s[10]!, a5h = s[11]!;
  let a6l = s[12]!, a6h = s[13]!;
  let a7l = s[14]!, a7h = s[15]!;
  let a8l = s[16]!, a8h = s[17]!;
  let a9l = s[18]!, a9h = s[19]!;
  let a10l = s[20]!, a10h = s[21]!;
  let a11l = s[22]!, a11h = s[23]!;
  let a12l = s[24]!, a12h = s[25]!;
  let a13l = s[26]!, a13h = s[27]!;
  let a14l = s[28]!, a14h = s[29]!;
  let a15l = s[30]!, a15h = s[31]!;
  let a16l = s[32]!, a16h = s[33]!;
  let a17l = s[34]!, a17h = s[35]!;
  let a18l = s[36]!, a18h = s[37]!;
  let a19l = s[38]!, a19h = s[39]!;
  let a20l = s[40]!, a20h = s[41]!;
  let a21l = s[42]!, a21h = s[43]!;
  let a22l = s[44]!, a22h = s[45]!;
  let a23l = s[46]!, a23h = s[47]!;
  let a24l = s[48]!, a24h = s[49]!;
  let c0l = 0, c0h = 0, c1l = 0, c1h = 0, c2l = 0, c2h = 0, c3l = 0, c3h = 0, c4l = 0, c4h = 0, dl = 0, dh = 0;
  let b0l = 0, b0h = 0;
  let b1l = 0, b1h = 0;
  let b2l = 0, b2h = 0;
  let b3l = 0, b3h = 0;
  let b4l = 0, b4h = 0;
  let b5l = 0, b5h = 0;
  let b6l = 0, b6h = 0;
  let b7l = 0, b7h = 0;
  let b8l = 0, b8h = 0;
  let b9l = 0, b9h = 0;
  let b10l = 0, b10h = 0;
  let b11l = 0, b11h = 0;
  let b12l = 0, b12h = 0;
  let b13l = 0, b13h = 0;
  let b14l = 0, b14h = 0;
  let b15l = 0, b15h = 0;
  let b16l = 0, b16h = 0;
  let b17l = 0, b17h = 0;
  let b18l = 0, b18h = 0;
  let b19l = 0, b19h = 0;
  let b20l = 0, b20h = 0;
  let b21l = 0, b21h = 0;
  let b22l = 0, b22h = 0;
  let b23l = 0, b23h = 0;
  let b24l = 0, b24h = 0;
  for (let round = 0; round < 24; round++) {
    c0l = a0l ^ a5l ^ a10l ^ a15l ^ a20l;
    c0h = a0h ^ a5h ^ a10h ^ a15h ^ a20h;
    c1l = a1l ^ a6l ^ a11l ^ a16l ^ a21l;
    c1h = a1h ^ a6h ^ a11h ^ a16h ^ a21h;
    c2l = a2l ^ a7l ^ a12l ^ a17l ^ a22l;
    c2h = a2h ^ a7h ^ a12h ^ a17h ^ a22h;
    c3l = a3l ^ a8l ^ a13l ^ a18l ^ a23l;
    c3h = a3h ^ a8h ^ a13h ^ a18h ^ a23h;
    c4l = a4l ^ a9l ^ a14l ^ a19l ^ a24l;
    c4h = a4h ^ a9h ^ a14h ^ a19h ^ a24h;
    dl = c4l ^ ((c1l << 1) | (c1h >>> 31));
    dh = c4h ^ ((c1h << 1) | (c1l >>> 31));
    a0l ^= dl;
    a0h ^= dh;
    a5l ^= dl;
    a5h ^= dh;
    a10l ^= dl;
    a10h ^= dh;
    a15l ^= dl;
    a15h ^= dh;
    a20l ^= dl;
    a20h ^= dh;
    dl = c0l ^ ((c2l << 1) | (c2h >>> 31));
    dh = c0h ^ ((c2h << 1) | (c2l >>> 31));
    a1l ^= dl;
    a1h ^= dh;
    a6l ^= dl;
    a6h ^= dh;
    a11l ^= dl;
    a11h ^= dh;
    a16l ^= dl;
    a16h ^= dh;
    a21l ^= dl;
    a21h ^= dh;
    dl = c1l ^ ((c3l << 1) | (c3h >>> 31));
    dh = c1h ^ ((c3h << 1) | (c3l >>> 31));
    a2l ^= dl;
    a2h ^= dh;
    a7l ^= dl;
    a7h ^= dh;
    a12l ^= dl;
    a12h ^= dh;
    a17l ^= dl;
    a17h ^= dh;
    a22l ^= dl;
    a22h ^= dh;
    dl = c2l ^ ((c4l << 1) | (c4h >>> 31));
    dh = c2h ^ ((c4h << 1) | (c4l >>> 31));
    a3l ^= dl;
    a3h ^= dh;
    a8l ^= dl;
    a8h ^= dh;
    a13l ^= dl;
    a13h ^= dh;
    a18l ^= dl;
    a18h ^= dh;
    a23l ^= dl;
    a23h ^= dh;
    dl = c3l ^ ((c0l << 1) | (c0h >>> 31));
    dh = c3h ^ ((c0h << 1) | (c0l >>> 31));
    a4l ^= dl;
    a4h ^= dh;
    a9l ^= dl;
    a9h ^= dh;
    a14l ^= dl;
    a14h ^= dh;
    a19l ^= dl;
    a19h ^= dh;
    a24l ^= dl;
    a24h ^= dh;
    b0l = a0l; b0h = a0h;
    b16l = (a5h << 4) | (a5l >>> 28); b16h = (a5l << 4) | (a5h >>> 28);
    b7l = (a10l << 3) | (a10h >>> 29); b7h = (a10h << 3) | (a10l >>> 29);
    b23l = (a15h << 9) | (a15l >>> 23); b23h = (a15l << 9) | (a15h >>> 23);
    b14l = (a20l << 18) | (a20h >>> 14); b14h = (a20h << 18) | (a20l >>> 14);
    b10l = (a1l << 1) | (a1h >>> 31); b10h = (a1h << 1) | (a1l >>> 31);
    b1l = (a6h << 12) | (a6l >>> 20); b1h = (a6l << 12) | (a6h >>> 20);
    b17l = (a11l << 10) | (a11h >>> 22); b17h = (a11h << 10) | (a11l >>> 22);
    b8l = (a16h << 13) | (a16l >>> 19); b8h = (a16l << 13) | (a16h >>> 19);
    b24l = (a21l << 2) | (a21h >>> 30); b24h = (a21h << 2) | (a21l >>> 30);
    b20l = (a2h << 30) | (a2l >>> 2); b20h = (a2l << 30) | (a2h >>> 2);
    b11l = (a7l << 6) | (a7h >>> 26); b11h = (a7h << 6) | (a7l >>> 26);
    b2l = (a12h << 11) | (a12l >>> 21); b2h = (a12l << 11) | (a12h >>> 21);
    b18l = (a17l << 15) | (a17h >>> 17); b18h = (a17h << 15) | (a17l >>> 17);
    b9l = (a22h << 29) | (a22l >>> 3); b9h = (a22l << 29) | (a22h >>> 3);
    b5l = (a3l << 28) | (a3h >>> 4); b5h = (a3h << 28) | (a3l >>> 4);
    b21l = (a8h << 23) | (a8l >>> 9); b21h = (a8l << 23) | (a8h >>> 9);
    b12l = (a13l << 25) | (a13h >>> 7); b12h = (a13h << 25) | (a13l >>> 7);
    b3l = (a18l << 21) | (a18h >>> 11); b3h = (a18h << 21) | (a18l >>> 11);
    b19l = (a23h << 24) | (a23l >>> 8); b19h = (a23l << 24) | (a23h >>> 8);
    b15l = (a4l << 27) | (a4h >>> 5); b15h = (a4h << 27) | (a4l >>> 5);
    b6l = (a9l << 20) | (a9h >>> 12); b6h = (a9h << 20) | (a9l >>> 12);
    b22l = (a14h << 7) | (a14l >>> 25); b22h = (a14l << 7) | (a14h >>> 25);
    b13l = (a19l << 8) | (a19h >>> 24); b13h = (a19h << 8) | (a19l >>> 24);
    b4l = (a24l << 14) | (a24h >>> 18); b4h = (a24h << 14) | (a24l >>> 18);
    a0l = b0l ^ (~b1l & b2l); a0h = b0h ^ (~b1h & b2h);
    a1l = b1l ^ (~b2l & b3l); a1h = b1h ^ (~b2h & b3h);
    a2l = b2l ^ (~b3l & b4l); a2h = b2h ^ (~b3h & b4h);
    a3l = b3l ^ (~b4l & b0l); a3h = b3h ^ (~b4h & b0h);
    a4l = b4l ^ (~b0l & b1l); a4h = b4h ^ (~b0h & b1h);
    a5l = b5l ^ (~b6l & b7l); a5h = b5h ^ (~b6h & b7h);
    a6l = b6l ^ (~b7l & b8l); a6h = b6h ^ (~b7h & b8h);
    a7l = b7l ^ (~b8l & b9l); a7h = b7h ^ (~b8h & b9h);
    a8l = b8l ^ (~b9l & b5l); a8h = b8h ^ (~b9h & b5h);
    a9l = b9l ^ (~b5l & b6l); a9h = b9h ^ (~b5h & b6h);
    a10l = b10l ^ (~b11l & b12l); a10h = b10h ^ (~b11h & b12h);
    a11l = b11l ^ (~b12l & b13l); a11h = b11h ^ (~b12h & b13h);
    a12l = b12l ^ (~b13l & b14l); a12h = b12h ^ (~b13h & b14h);
    a13l = b13l ^ (~b14l & b10l); a13h = b13h ^ (~b14h & b10h);
    a14l = b14l ^ (~b10l & b11l); a14h = b14h ^ (~b10h & b11h);
    a15l = b15l ^ (~b16l & b17l); a15h = b15h ^ (~b16h & b17h);
    a16l = b16l ^ (~b17l & b18l); a16h = b16h ^ (~b17h & b18h);
    a17l = b17l ^ (~b18l & b19l); a17h = b17h ^ (~b18h & b19h);
    a18l = b18l ^ (~b19l & b15l); a18h = b18h ^ (~b19h & b15h);
    a19l = b19l ^ (~b15l & b16l); a19h = b19h ^ (~b15h & b16h);
    a20l = b20l ^ (~b21l & b22l); a20h = b20h ^ (~b21h & b22h);
    a21l = b21l ^ (~b22l & b23l); a21h = b21h ^ (~b22h & b23h);
    a22l = b22l ^ (~b23l & b24l); a22h = b22h ^ (~b23h & b24h);
    a23l = b23l ^ (~b24l & b20l); a23h = b23h ^ (~b24h & b20h);
    a24l = b24l ^ (~b20l & b21l); a24h = b24h ^ (~b20h & b21h);
    a0l ^= RC_LO[round]!;
    a0h ^= RC_HI[round]!;
  }
  s[0] = a0l; s[1] = a0h;
  s[2] = a1l; s[3] = a1h;
  s[4] = a2l; s[5] = a2h;
  s[6] = a3l; s[7] = a3h;
  s[8] = a4l; s[9] = a4h;
  s[10] = a5l; s[11] = a5h;
  s[12] = a6l; s[13] = a6h;
  s[14] = a7l; s[15] = a7h;
  s[16] = a8l; s[17] = a8h;
  s[18] = a9l; s[19] = a9h;
  s[20] = a10l; s[21] = a10h;
  s[22] = a11l; s[23] = a11h;
  s[24] = a12l; s[25] = a12h;
  s[26] = a13l; s[27] = a13h;
  s[28] = a14l; s[29] = a14h;
  s[30] = a15l; s[31] = a15h;
  s[32] = a16l; s[33] = a16h;
  s[34] = a17l; s[35] = a17h;
  s[36] = a18l; s[37] = a18h;
  s[38] = a19l; s[39] = a19h;
  s[40] = a20l; s[41] = a20h;
  s[42] = a21l; s[43] = a21h;
  s[44] = a22l; s[45] = a22h;
  s[46] = a23l; s[47] = a23h;
  s[48] = a24l; s[49] = a24h;
}

const RATE = 136;
const state = new Int32Array(50);
const lastBlock = new Uint8Array(RATE);

function absorb(block: Uint8Array, o: number): void {
  const s = state;
  for (let j = 0; j < 34; j++, o += 4) {
    s[j] = s[j]! ^ (block[o]! | (block[o + 1]! << 8) | (block[o + 2]! << 16) | (block[o + 3]! << 24));
  }
}

/**
 * keccak256(data) into `out` (32 bytes at `outOffset`; a fresh array when omitted). Synchronous and
 * not re-entrant-sensitive: it finishes before returning, so one shared state is safe.
 */
export function keccak256(data: Uint8Array, out: Uint8Array = new Uint8Array(32), outOffset = 0): Uint8Array {
  state.fill(0);
  const len = data.length;
  let off = 0;
  for (; len - off >= RATE; off += RATE) {
    absorb(data, off);
    keccakF1600(state);
  }
  lastBlock.fill(0);
  lastBlock.set(data.subarray(off));
  lastBlock[len - off] = lastBlock[len - off]! ^ 0x01;
  lastBlock[RATE - 1] = lastBlock[RATE - 1]! ^ 0x80;
  absorb(lastBlock, 0);
  keccakF1600(state);
  for (let j = 0; j < 8; j++) {
    const w = state[j]!;
    const p = outOffset + 4 * j;
    out[p] = w & 0xff;
    out[p + 1] = (w >>> 8) & 0xff;
    out[p + 2] = (w >>> 16) & 0xff;
    out[p + 3] = (w >>> 24) & 0xff;
  }
  return out;
}
