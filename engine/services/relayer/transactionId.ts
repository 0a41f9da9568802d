import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48-bit unix milliseconds, version 7, variant 10, random rest. The public relayer's
 * ids look like this (`0190b317-a1d3-7bec-…`), and they sort by creation time.
 */
export function transactionId(nowMs: number, random: (n: number) => Buffer = randomBytes): string {
  const b = Buffer.from(random(16));
  let t = nowMs;
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
