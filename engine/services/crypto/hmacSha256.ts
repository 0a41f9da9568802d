/**
 * HMAC-SHA256 for the L2 request signature on the hot path: the cryptoNative addon when it is built
 * (native/hmacSha256.c: one call, no per-call objects), node's createHmac otherwise. The same bytes
 * either way (hmacSha256.test.ts). Measured inside the engine at ≈ 4,000 orders/s: createHmac took
 * ≈ 12 µs to set up and ≈ 6 µs to hash a POST /order request, about a tenth of the main thread's time
 * per order; the addon ≈ 11 µs in all.
 */
import { createHmac } from 'node:crypto';
import { cryptoNative } from './cryptoNative.js';

// NATIVE_HMAC=0 uses createHmac (benchmarks compare the two).
const native = process.env.NATIVE_HMAC === '0' ? null : cryptoNative;
const out = Buffer.alloc(32);

/** Whether the addon computes the HMAC (false: node's createHmac). */
export const nativeHmacSha256 = native !== null;

/** HMAC-SHA256 of the message's UTF-8 bytes under `key`, as unpadded base64url. */
export function hmacSha256Base64Url(key: Uint8Array, message: string): string {
  if (!native) return createHmac('sha256', key).update(message).digest('base64url');
  native.hmacSha256(key, message, out);
  return out.toString('base64url');
}
