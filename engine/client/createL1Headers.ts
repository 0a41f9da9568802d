import type { Hex } from 'viem';
import { CLOB_AUTH_TYPES, clobAuthDomain, clobAuthMessage } from '../protocol/eip712.js';
import { signerAddress, signTypedDataWith, type TypedDataSigner } from './signer.js';

export interface L1Headers {
  SERVICE_ADDRESS: string;
  SERVICE_SIGNATURE: Hex;
  SERVICE_TIMESTAMP: string;
  SERVICE_NONCE: string;
  [name: string]: string;
}

/** The EIP-712 ClobAuth signature of an L1 request (decisions §2). */
export async function signClobAuth(signer: TypedDataSigner, chainId: number, nonce: number | bigint, timestamp: number | string): Promise<Hex> {
  return signTypedDataWith(signer, {
    domain: clobAuthDomain(chainId),
    types: CLOB_AUTH_TYPES,
    primaryType: 'ClobAuth',
    message: clobAuthMessage(signerAddress(signer), String(timestamp), nonce),
  });
}

/**
 * Headers of POST /auth/api-key. `timestamp` is unix seconds (default: now, from this machine's clock;
 * pass GET /time when the clocks may differ by more than the server's window).
 */
export async function createL1Headers(
  signer: TypedDataSigner,
  chainId: number,
  nonce: number | bigint = 0,
  timestamp: number = Math.floor(Date.now() / 1000),
): Promise<L1Headers> {
  return {
    SERVICE_ADDRESS: signerAddress(signer),
    SERVICE_SIGNATURE: await signClobAuth(signer, chainId, nonce, timestamp),
    SERVICE_TIMESTAMP: String(timestamp),
    SERVICE_NONCE: String(nonce),
  };
}
