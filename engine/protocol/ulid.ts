/**
 * ULIDs (https://github.com/ulid/spec): 48-bit millisecond time + 80 random bits, Crockford base32,
 * 26 characters, lexicographically sortable by creation time. Order ids are ULIDs (interface §2.4).
 * Ids minted in the same millisecond increment the random part, so they stay strictly increasing.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_LEN = 10;
const MAX_TIME = 2 ** 48 - 1;
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** 40 bits: half the random part, 8 base32 characters, exact in a double (the hot path needs no bigint). */
const HALF = 2 ** 40;
const HALF_MAX = HALF - 1;
const HALF_MASK = BigInt(HALF_MAX);

/** Every 10-bit value as its two base32 characters: an id is spelt two characters at a time. */
const PAIRS = Array.from({ length: 1024 }, (_, i) => ALPHABET[i >> 5]! + ALPHABET[i & 31]!);

/** A number below 2^40 as 8 base32 characters, most significant first. */
function encode40(value: number): string {
  const hi = Math.floor(value / 1_048_576); // 2^20
  const lo = value - hi * 1_048_576;
  return PAIRS[hi >>> 10]! + PAIRS[hi & 1023]! + PAIRS[lo >>> 10]! + PAIRS[lo & 1023]!;
}

/** A millisecond time (48 bits) as 10 base32 characters. */
function encodeTime(ms: number): string {
  const top = Math.floor(ms / HALF);
  return PAIRS[top]! + encode40(ms - top * HALF);
}

const RANDOM_MAX = (1n << 80n) - 1n;

// Web Crypto works in Node 20 and in browsers alike (the client library shares the protocol layer). Bytes
// are drawn in blocks: one call per id made a crypto call (and its checks) the main cost of an id.
const POOL = new Uint8Array(10 * 400);
let poolAt = POOL.length;

/** Five fresh random bytes as a number below 2^40. */
function random40(): number {
  if (poolAt === POOL.length) {
    globalThis.crypto.getRandomValues(POOL);
    poolAt = 0;
  }
  let v = 0;
  for (let i = 0; i < 5; i++) v = v * 256 + POOL[poolAt++]!;
  return v;
}

/** A monotonic ULID factory: ids from one factory never repeat and always increase. */
export class UlidFactory {
  private lastTime = -1;
  private lastTimeText = '';
  /** The random part of the last id as two 40-bit halves (high, low). */
  private hi = 0;
  private lo = 0;

  /** `random` draws the 80-bit random part (a seeded source makes the ids reproducible); by default, crypto random bytes. */
  constructor(private readonly random?: () => bigint) {}

  next(nowMs: number): string {
    if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_TIME) throw new RangeError(`ULID time out of range: ${nowMs}`);
    // A clock that steps back must not produce a smaller id: keep the previous millisecond.
    const time = Math.max(nowMs, this.lastTime);
    if (time === this.lastTime) {
      if (this.lo < HALF_MAX) this.lo++;
      else if (this.hi < HALF_MAX) {
        this.hi++;
        this.lo = 0;
      } else throw new RangeError('ULID random part exhausted within one millisecond');
    } else {
      this.lastTime = time;
      this.lastTimeText = encodeTime(time);
      if (this.random) {
        const v = this.random() & RANDOM_MAX;
        this.hi = Number(v >> 40n);
        this.lo = Number(v & HALF_MASK);
      } else {
        this.hi = random40();
        this.lo = random40();
      }
    }
    return this.lastTimeText + encode40(this.hi) + encode40(this.lo);
  }
}

const shared = new UlidFactory();

/** A new ULID for `nowMs` from the process-wide monotonic factory. */
export function ulid(nowMs: number): string {
  return shared.next(nowMs);
}

/** True for a canonical (upper-case) ULID. */
export function isUlid(text: string): boolean {
  return ULID_RE.test(text);
}

/** Canonical form of a ULID typed in any case (ids are case-insensitive, interface §4.2). */
export function normalizeUlid(text: string): string {
  return text.trim().toUpperCase();
}

/** Base32 digit values by character code, either case. */
const DIGIT = new Uint8Array(128);
for (let i = 0; i < ALPHABET.length; i++) {
  DIGIT[ALPHABET.charCodeAt(i)] = i;
  DIGIT[ALPHABET.toLowerCase().charCodeAt(i)] = i;
}

/** Characters from … to − 1 of a ULID (at most 10: below 2^50, exact in a double) as a number. */
function digitsValue(id: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 32 + DIGIT[id.charCodeAt(i) & 127]!;
  return v;
}

/** The millisecond timestamp encoded in a ULID. */
export function ulidTime(id: string): number {
  return digitsValue(id, 0, TIME_LEN);
}

/** A ULID's 128 bits as 32 lower-case hex digits (time, then the random part). */
export function ulidHex(id: string): string {
  return digitsValue(id, 0, 10).toString(16).padStart(12, '0') + digitsValue(id, 10, 18).toString(16).padStart(10, '0') + digitsValue(id, 18, 26).toString(16).padStart(10, '0');
}
