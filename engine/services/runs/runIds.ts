import { createHash } from 'node:crypto';

/**
 * The ids a fast or stepped run makes, drawn from its seed (decisions §11): order and trade ids, API
 * keys, heartbeat sessions, relayer transaction ids, a fresh directory's operator key. Each kind of id is its own
 * counter-mode SHA-256 stream, so the same seed and the same requests in the same order give the same
 * order ids, trade ids and API keys, and adding one kind of id never shifts another.
 */
export class RunIds {
  private readonly counters = new Map<string, number>();

  constructor(readonly seed: number) {}

  /** `n` bytes (at most 32) of the stream `label`. */
  bytes(label: string, n: number): Buffer {
    const i = this.counters.get(label) ?? 0;
    this.counters.set(label, i + 1);
    return createHash('sha256').update(`${this.seed}:${label}:${i}`).digest().subarray(0, n);
  }

  /** The 80 random bits of a ULID (order and trade ids). */
  readonly random80 = (): bigint => BigInt('0x' + this.bytes('ulid', 10).toString('hex'));

  /** A version-4 shaped UUID of the stream `label` (API keys; heartbeat sessions on their own stream). */
  uuid(label = 'uuid'): string {
    const b = this.bytes(label, 16);
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** A 32-byte private key for a fresh data directory's operator and relay accounts (condition ids derive from the operator). */
  privateKey(label: string): `0x${string}` {
    let h = createHash('sha256').update(`${this.seed}:key:${label}`).digest();
    while (h[0] === 0xff) h = createHash('sha256').update(h).digest();
    return `0x${h.toString('hex')}`;
  }
}
