/**
 * ULIDs (https://github.com/ulid/spec): 48-bit millisecond time + 80 random bits, Crockford base32,
 * 26 characters, lexicographically sortable by creation time. Order ids are ULIDs (interface §2.4).
 * Ids minted in the same millisecond increment the random part, so they stay strictly increasing.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_LEN = 10;
const RANDOM_LEN = 16;
const MAX_TIME = 2 ** 48 - 1;
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < TIME_LEN; i++) {
    out = ALPHABET[t % 32]! + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(value: bigint): string {
  let out = '';
  let v = value;
  for (let i = 0; i < RANDOM_LEN; i++) {
    out = ALPHABET[Number(v & 31n)]! + out;
    v >>= 5n;
  }
  return out;
}

const RANDOM_MAX = (1n << 80n) - 1n;

// Web Crypto works in Node 20 and in browsers alike (the client library shares the protocol layer).
function random80(): bigint {
  const bytes = new Uint8Array(10);
  globalThis.crypto.getRandomValues(bytes);
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** A monotonic ULID factory: ids from one factory never repeat and always increase. */
export class UlidFactory {
  private lastTime = -1;
  private lastRandom = 0n;

  /** `random` draws the 80-bit random part (a seeded source makes the ids reproducible). */
  constructor(private readonly random: () => bigint = random80) {}

  next(nowMs: number): string {
    if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_TIME) throw new RangeError(`ULID time out of range: ${nowMs}`);
    // A clock that steps back must not produce a smaller id: keep the previous millisecond.
    const time = Math.max(nowMs, this.lastTime);
    if (time === this.lastTime) {
      if (this.lastRandom === RANDOM_MAX) throw new RangeError('ULID random part exhausted within one millisecond');
      this.lastRandom += 1n;
    } else {
      this.lastTime = time;
      this.lastRandom = this.random() & RANDOM_MAX;
    }
    return encodeTime(time) + encodeRandom(this.lastRandom);
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

/** The millisecond timestamp encoded in a ULID. */
export function ulidTime(id: string): number {
  let t = 0;
  for (let i = 0; i < TIME_LEN; i++) t = t * 32 + ALPHABET.indexOf(id[i]!.toUpperCase());
  return t;
}
