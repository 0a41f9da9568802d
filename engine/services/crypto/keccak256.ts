/**
 * Keccak-256 for the order hot path, as a tiny WebAssembly module built below at load time.
 *
 * Why WebAssembly: on this 2-core machine the best pure-JS permutation we could write (25 lanes as
 * 32-bit halves, bit-interleaved so rotations are single 32-bit rotates, rounds unrolled in pairs)
 * still cost ~1.7 µs, because V8 keeps ~100 int32 values in flight and bounds-checks every
 * typed-array access; the same rounds on native 64-bit lanes (i64.rotl is one instruction) run in
 * ~0.5 µs. @noble/hashes' keccak (viem's) costs ~20 µs here. An order digest takes 5 permutations,
 * so this is most of its cost.
 *
 * The module is generated from the algorithm, not shipped as opaque bytes: `emitAbsorb` writes the
 * textbook round (theta, rho+pi into 25 temporaries, chi, iota) once inside a 24-turn loop. Variants
 * measured slower here: fully unrolled rounds (~2×, code size), two rounds per turn with theta's
 * parities accumulated during chi (~25%). Equality with noble's keccak_256 / keccakP and viem's
 * keccak256 is tested.
 *
 * Memory (one fixed 64 KiB page, never grown, so views on it stay valid):
 *   [0, 192)       round constants (data segment)
 *   [256, 456)     the sponge state, 25 little-endian lanes
 *   [512, 648)     a zero block (absorbing it is a bare permutation)
 *   [1024, 8192)   scratch reserved by callers (orderDigest encodes its blocks there)
 *   [8192, 65536)  input staging for keccak256(data)
 */

const RATE = 136;
const RC_AT = 0;
const STATE_AT = 256;
const ZERO_BLOCK_AT = 512;
const SCRATCH_AT = 1024;
const SCRATCH_END = 8192;
const INPUT_AT = 8192;
const INPUT_BLOCKS = Math.floor((65536 - INPUT_AT) / RATE);

// Round constants as (low, high) 32-bit halves.
// prettier-ignore
const RC_LO = [1, 32898, 32906, -2147450880, 32907, -2147483647, -2147450751, 32777, 138, 136, -2147450871, -2147483638, -2147450741, 139, 32905, 32771, 32770, 128, 32778, -2147483638, -2147450751, 32896, -2147483647, -2147450872];
// prettier-ignore
const RC_HI = [0, 0, -2147483648, -2147483648, 0, 0, -2147483648, -2147483648, 0, 0, 0, 0, 0, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, 0, -2147483648, -2147483648, -2147483648, 0, -2147483648];
/** rho rotation of lane x + 5y. */
// prettier-ignore
const RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

// --- a minimal WebAssembly binary emitter ------------------------------------------------------

// prettier-ignore
const OP = {
  loop: 0x03, if: 0x04, end: 0x0b, brIf: 0x0d,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i64Load: 0x29, i64Store: 0x37, i32Const: 0x41, i64Const: 0x42,
  i32Eqz: 0x45, i32LtU: 0x49, i32Add: 0x6a, i32Sub: 0x6b,
  i64And: 0x83, i64Xor: 0x85, i64Rotl: 0x89,
} as const;
const VOID = 0x40;
const I32 = 0x7f;
const I64 = 0x7e;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a small int32 constant (all this module needs: -1, rotations, offsets). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => vec([...s].map((c) => [c.charCodeAt(0)]));

/**
 * absorb(at, blocks, reset, outAt): XORs `blocks` (≥ 1) rate-sized blocks at `at` into the state
 * (a zero state when `reset` ≠ 0), permuting after each, then stores the state and copies its
 * first 32 bytes (the hash, once the input was padded) to `outAt`.
 */
function emitAbsorb(): number[] {
  const AT = 0, BLOCKS = 1, RESET = 2, OUT = 3, ROUND = 4;
  const a = (i: number) => 5 + i;
  const b = (i: number) => 30 + i;
  const c = (x: number) => 55 + x;
  const d = (x: number) => 60 + x;
  const code: number[] = [];
  const get = (l: number) => code.push(OP.localGet, ...uleb(l));
  const set = (l: number) => code.push(OP.localSet, ...uleb(l));
  const tee = (l: number) => code.push(OP.localTee, ...uleb(l));
  const i32 = (v: number) => code.push(OP.i32Const, ...sleb(v));
  const i64 = (v: number) => code.push(OP.i64Const, ...sleb(v));
  const load64 = (offset: number) => code.push(OP.i64Load, 0, ...uleb(offset));
  const store64 = (offset: number) => code.push(OP.i64Store, 0, ...uleb(offset));

  // Locals start at zero: a reset state needs no loads.
  get(RESET);
  code.push(OP.i32Eqz, OP.if, VOID);
  for (let i = 0; i < 25; i++) {
    i32(0);
    load64(STATE_AT + 8 * i);
    set(a(i));
  }
  code.push(OP.end);

  code.push(OP.loop, VOID);
  for (let i = 0; i < RATE / 8; i++) {
    get(a(i));
    get(AT);
    load64(8 * i);
    code.push(OP.i64Xor);
    set(a(i));
  }
  i32(0);
  set(ROUND);
  code.push(OP.loop, VOID);
  // theta: c[x] = column parity, d[x] = c[x-1] ^ rot(c[x+1], 1)
  for (let x = 0; x < 5; x++) {
    get(a(x));
    for (let y = 1; y < 5; y++) {
      get(a(x + 5 * y));
      code.push(OP.i64Xor);
    }
    set(c(x));
  }
  for (let x = 0; x < 5; x++) {
    get(c((x + 4) % 5));
    get(c((x + 1) % 5));
    i64(1);
    code.push(OP.i64Rotl, OP.i64Xor);
    set(d(x));
  }
  // theta applied, rho, and pi: lane (x, y) moves to (y, 2x + 3y)
  for (let i = 0; i < 25; i++) {
    const x = i % 5;
    const y = (i - x) / 5;
    get(a(i));
    get(d(x));
    code.push(OP.i64Xor);
    if (RHO[i] !== 0) {
      i64(RHO[i]!);
      code.push(OP.i64Rotl);
    }
    set(b(y + 5 * ((2 * x + 3 * y) % 5)));
  }
  // chi along each row, iota on lane 0
  for (let i = 0; i < 25; i++) {
    const x = i % 5;
    const row = i - x;
    get(b(i));
    get(b(row + ((x + 1) % 5)));
    i64(-1);
    code.push(OP.i64Xor);
    get(b(row + ((x + 2) % 5)));
    code.push(OP.i64And, OP.i64Xor);
    if (i === 0) {
      get(ROUND);
      load64(RC_AT);
      code.push(OP.i64Xor);
    }
    set(a(i));
  }
  get(ROUND);
  i32(8);
  code.push(OP.i32Add);
  tee(ROUND);
  i32(24 * 8);
  code.push(OP.i32LtU, OP.brIf, 0, OP.end);

  get(AT);
  i32(RATE);
  code.push(OP.i32Add);
  set(AT);
  get(BLOCKS);
  i32(1);
  code.push(OP.i32Sub);
  tee(BLOCKS);
  code.push(OP.brIf, 0, OP.end);

  for (let i = 0; i < 25; i++) {
    i32(0);
    get(a(i));
    store64(STATE_AT + 8 * i);
  }
  for (let i = 0; i < 4; i++) {
    get(OUT);
    get(a(i));
    store64(8 * i);
  }
  code.push(OP.end);
  // locals after the 4 params: ROUND (i32), then a, b, c, d (60 × i64)
  return [...vec([[...uleb(1), I32], [...uleb(60), I64]]), ...code];
}

function buildModule(): Uint8Array<ArrayBuffer> {
  const rc: number[] = [];
  for (let r = 0; r < 24; r++) {
    for (const w of [RC_LO[r]!, RC_HI[r]!]) rc.push(w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24);
  }
  const absorb = emitAbsorb();
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([])]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x01, 1, 1]])),
    ...section(7, vec([[...name('absorb'), 0x00, 0], [...name('memory'), 0x02, 0]])),
    ...section(10, vec([[...uleb(absorb.length), ...absorb]])),
    ...section(11, vec([[0x00, OP.i32Const, ...sleb(RC_AT), OP.end, ...vec(rc.map((x) => [x]))]])),
  ]);
}

const instance = new WebAssembly.Instance(new WebAssembly.Module(buildModule()), {});
const absorb = instance.exports.absorb as (at: number, blocks: number, reset: number, outAt: number) => void;

/** Byte view of the hasher's memory, for callers that encode their input in place (see reserveKeccakScratch). */
export const keccakMemory = new Uint8Array((instance.exports.memory as WebAssembly.Memory).buffer);
const mem = keccakMemory;

let scratchNext = SCRATCH_AT;

/**
 * Reserves `bytes` (8-aligned) of hasher memory for a caller's own blocks, once, at module load.
 * Nothing else writes there, so constant parts (padding, prefixes) can be written once.
 */
export function reserveKeccakScratch(bytes: number): number {
  const at = scratchNext;
  if (at + bytes > SCRATCH_END) throw new Error(`keccak scratch exhausted (${bytes} bytes asked, ${SCRATCH_END - at} left)`);
  scratchNext = at + ((bytes + 7) & ~7);
  return at;
}

/**
 * keccak256 of `blocks` already-padded rate blocks at `at` in keccakMemory, written to keccakMemory at
 * `outAt` (32 bytes). For callers that lay out their message in a reserved scratch area.
 */
export function keccakPaddedBlocks(at: number, blocks: number, outAt: number): void {
  absorb(at, blocks, 1, outAt);
}

/** keccak-f[1600] on a state of 25 lanes stored as 50 int32 (lane i: low half at 2i, high at 2i+1). */
export function keccakF1600(s: Int32Array): void {
  for (let j = 0; j < 50; j++) {
    const w = s[j]!;
    const p = STATE_AT + 4 * j;
    mem[p] = w;
    mem[p + 1] = w >>> 8;
    mem[p + 2] = w >>> 16;
    mem[p + 3] = w >>> 24;
  }
  absorb(ZERO_BLOCK_AT, 1, 0, STATE_AT);
  for (let j = 0; j < 50; j++) {
    const p = STATE_AT + 4 * j;
    s[j] = mem[p]! | (mem[p + 1]! << 8) | (mem[p + 2]! << 16) | (mem[p + 3]! << 24);
  }
}

/**
 * keccak256(data) into `out` (32 bytes at `outOffset`; a fresh array when omitted). Synchronous, so
 * the one shared state and staging area are never seen half-used.
 */
export function keccak256(data: Uint8Array, out: Uint8Array = new Uint8Array(32), outOffset = 0): Uint8Array {
  const len = data.length;
  let off = 0;
  let reset = 1;
  // Inputs longer than the staging area go through in whole chunks; the rest is padded in place.
  for (; len - off >= INPUT_BLOCKS * RATE; off += INPUT_BLOCKS * RATE, reset = 0) {
    mem.set(data.subarray(off, off + INPUT_BLOCKS * RATE), INPUT_AT);
    absorb(INPUT_AT, INPUT_BLOCKS, reset, STATE_AT);
  }
  const rest = len - off;
  const blocks = Math.floor(rest / RATE) + 1;
  const end = INPUT_AT + blocks * RATE;
  if (off === 0) mem.set(data, INPUT_AT);
  else mem.set(data.subarray(off), INPUT_AT);
  for (let p = INPUT_AT + rest; p < end; p++) mem[p] = 0;
  mem[INPUT_AT + rest] = 0x01;
  mem[end - 1] = mem[end - 1]! | 0x80;
  absorb(INPUT_AT, blocks, reset, STATE_AT);
  for (let j = 0; j < 32; j++) out[outOffset + j] = mem[STATE_AT + j]!;
  return out;
}
