/**
 * The L2 request signature (decisions §2), exactly as the public clients build it:
 *   base64url_with_padding(HMAC_SHA256(base64url_decode(secret), timestamp + METHOD + path + body))
 * Isomorphic (Node and browser): @noble/hashes and TextEncoder only, no node: modules.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Sextet value of each char code; -1 for characters the decoder drops. Both alphabets decode. */
const DECODE = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    t[STD.charCodeAt(i)] = i;
    t[URL_SAFE.charCodeAt(i)] = i;
  }
  return t;
})();

/**
 * Decodes base64 in either alphabet, like the reference client: `-`→`+`, `_`→`/`, every character outside
 * the alphabet dropped; decoding stops at the first `=`.
 */
export function base64Decode(text: string): Uint8Array {
  const sextets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61 /* = */) break;
    const v = c < 128 ? DECODE[c]! : -1;
    if (v >= 0) sextets.push(v);
  }
  const out = new Uint8Array(Math.floor((sextets.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const v of sextets) {
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** URL-safe base64 (`-`, `_`) with `=` padding: the only secret/signature form every public client reads. */
export function base64UrlEncode(bytes: Uint8Array, padding = true): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += URL_SAFE[n >> 18]! + URL_SAFE[(n >> 12) & 63]! + URL_SAFE[(n >> 6) & 63]! + URL_SAFE[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += URL_SAFE[n >> 18]! + URL_SAFE[(n >> 12) & 63]! + (padding ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += URL_SAFE[n >> 18]! + URL_SAFE[(n >> 12) & 63]! + URL_SAFE[(n >> 6) & 63]! + (padding ? '=' : '');
  }
  return out;
}

/**
 * The signed text. The method is used as given (the reference client does not upper-case it; HTTP
 * methods already are). Nothing is appended without a body, so an empty body signs the same.
 */
export function l2Message(timestamp: string | number, method: string, requestPath: string, body?: string): string {
  return String(timestamp) + method + requestPath + (body ?? '');
}

const encoder = new TextEncoder();

/** HMAC over the message with a key that is already decoded (the server caches decoded keys). */
export function l2SignatureWithKey(key: Uint8Array, message: string): string {
  return base64UrlEncode(hmac(sha256, key, encoder.encode(message)));
}

/** SERVICE_SIGNATURE of an L2 request. `requestPath` has no host and no query string. */
export function buildL2Signature(secret: string, timestamp: string | number, method: string, requestPath: string, body?: string): string {
  return l2SignatureWithKey(base64Decode(secret), l2Message(timestamp, method, requestPath, body));
}

/**
 * Canonical form of a received signature for comparison: the standard alphabet mapped to the URL-safe
 * one and padding removed, so `+/` and unpadded senders verify too.
 */
export function normalizeBase64Signature(sig: string): string {
  return sig.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
