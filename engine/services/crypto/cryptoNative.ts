/**
 * The cryptoNative addon (native/: batch ECDSA verification and HMAC-SHA256, built by `npm install`),
 * or null when it was not built (no C compiler): its users then take their slower fallbacks. The
 * signature worker (recoveryWorker.mjs, plain JavaScript) loads the same file itself.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { unpackedPath } from '../../unpackedPath.js';

export interface CryptoNative {
  /** Whether every signature recovers the key it claims (native/batchVerify.c). */
  verify(digests: Uint8Array, rs: Uint8Array, recids: Uint8Array, signer: Uint16Array, keys: Uint8Array, random: Uint8Array): boolean;
  /** HMAC-SHA256 of the message's UTF-8 bytes under `key`, into `out` (32 bytes; native/hmacSha256.c). */
  hmacSha256(key: Uint8Array, message: string, out: Uint8Array): void;
}

/**
 * The addon's file. In the packaged app this module lies inside app.asar and dlopen needs a real file:
 * electron-builder.yml unpacks every .node, so the path is the one in app.asar.unpacked.
 */
export function cryptoNativePath(moduleUrl: string = import.meta.url): string {
  return unpackedPath(fileURLToPath(new URL('./native/cryptoNative.node', moduleUrl)));
}

function load(): CryptoNative | null {
  try {
    return createRequire(import.meta.url)(cryptoNativePath()) as CryptoNative;
  } catch {
    return null;
  }
}

export const cryptoNative: CryptoNative | null = load();
