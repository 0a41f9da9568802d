/**
 * Native ECDSA public-key recovery (libsecp256k1 through the `secp256k1` N-API addon): ~50× faster
 * than viem's pure-JS recoverAddress on this machine (figures in bench/cryptoBench.ts).
 */
import secp256k1 from 'secp256k1';
import type { Address } from '../../protocol/eip712.js';
import { bytesToHex, hexToBytes } from './orderDigest.js';
import { keccak256 } from './keccak256.js';

/** secp256k1 group order n and n/2: signatures with s > n/2 are malleable copies and are refused (as OpenZeppelin's ECDSA does). */
const N_HALF_BYTES = Uint8Array.from(Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex'));

export interface ParsedSignature {
  /** r ‖ s, 64 bytes. */
  rs: Uint8Array;
  /** 0 or 1. */
  recid: number;
}

function isHighS(rs: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) {
    const a = rs[32 + i]!;
    const b = N_HALF_BYTES[i]!;
    if (a !== b) return a > b;
  }
  return false;
}

/** Parses a 65-byte r‖s‖v hex signature (v 27/28 or 0/1); null when malformed or high-s. */
export function parseSignature(signature: string): ParsedSignature | null {
  if (typeof signature !== 'string') return null;
  const bytes = new Uint8Array(65);
  if (!hexToBytes(signature, bytes, 0, 65)) return null;
  const v = bytes[64]!;
  const recid = v === 27 || v === 28 ? v - 27 : v === 0 || v === 1 ? v : -1;
  if (recid < 0) return null;
  const rs = bytes.subarray(0, 64);
  if (isHighS(rs)) return null;
  return { rs, recid };
}

const pubOut = new Uint8Array(65);
const addrHash = new Uint8Array(32);

/** Address of an uncompressed public key (65 bytes with the 0x04 prefix, or the 64 raw bytes). */
export function publicKeyToAddress(pub: Uint8Array): Address {
  keccak256(pub.length === 65 ? pub.subarray(1) : pub, addrHash);
  return bytesToHex(addrHash.subarray(12)) as Address;
}

/** Recovers the uncompressed public key (65 bytes, shared buffer: copy it to keep it), or null. */
export function recoverPublicKey(digest: Uint8Array, sig: ParsedSignature): Uint8Array | null {
  try {
    return secp256k1.ecdsaRecover(sig.rs, sig.recid, digest, false, pubOut);
  } catch {
    // r or s zero or ≥ n, or no curve point for r: not a signature of anything.
    return null;
  }
}

/** The lower-case address that signed `digest` (32 bytes), or null for a malformed / unrecoverable / high-s signature. */
export function recoverAddress(digest: Uint8Array, signature: string): Address | null {
  if (digest.length !== 32) return null;
  const sig = parseSignature(signature);
  if (!sig) return null;
  const pub = recoverPublicKey(digest, sig);
  return pub ? publicKeyToAddress(pub) : null;
}
