/**
 * The EIP-712 digest of a V2 order (decisions §6; clob-client-v2's ExchangeOrderBuilderV2): domain
 * {name "Polymarket CTF Exchange", version "2", chainId, verifyingContract = the V2 exchange} and
 * Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,
 * uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder). No taker, expiration,
 * nonce or feeRateBps are signed. Encoded word by word and hashed with the project's keccak; the
 * known-answer test checks it against viem's hashTypedData.
 */
import { keccak256 } from './keccak256.js';

export const ORDER_V2_DOMAIN_VERSION = '2';
export const ORDER_V2_TYPE =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

export interface OrderV2DigestInput {
  salt: string | bigint | number;
  maker: string;
  signer: string;
  tokenId: string | bigint;
  makerAmount: string | bigint;
  takerAmount: string | bigint;
  side: 'BUY' | 'SELL' | 0 | 1;
  signatureType: number;
  /** Milliseconds, as clob-client-v2 signs it. */
  timestamp: string | bigint | number;
  metadata: string;
  builder: string;
}

const UINT256_MAX = (1n << 256n) - 1n;
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const hash = (b: Uint8Array): Uint8Array => keccak256(b);

function uintWord(v: string | bigint | number, field: string): Uint8Array {
  const n = typeof v === 'bigint' ? v : BigInt(v);
  if (n < 0n || n > UINT256_MAX) throw new RangeError(`${field} is not a uint256`);
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
}

function hexWord(v: string, bytes: 20 | 32, field: string): Uint8Array {
  if (!new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`).test(v)) throw new RangeError(`${field} is not ${bytes === 20 ? 'an address' : 'a bytes32'}`);
  const w = new Uint8Array(32);
  w.set(Buffer.from(v.slice(2), 'hex'), 32 - bytes);
  return w;
}

const concat = (parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

const DOMAIN_TYPEHASH = hash(text('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'));
const ORDER_V2_TYPEHASH = hash(text(ORDER_V2_TYPE));
const domainSeparators = new Map<string, Uint8Array>();

/** `domainVersion` other than "2" only serves diagnostics: which domain a refused signature was made for. */
export function orderV2DomainSeparator(chainId: number, verifyingContract: string, domainVersion = ORDER_V2_DOMAIN_VERSION): Uint8Array {
  const key = `${chainId}:${verifyingContract.toLowerCase()}:${domainVersion}`;
  let sep = domainSeparators.get(key);
  if (!sep) {
    sep = hash(
      concat([DOMAIN_TYPEHASH, hash(text('Polymarket CTF Exchange')), hash(text(domainVersion)), uintWord(chainId, 'chainId'), hexWord(verifyingContract, 20, 'verifyingContract')]),
    );
    domainSeparators.set(key, sep);
  }
  return sep;
}

/** The 0x digest a V2 order's signature signs. Throws RangeError naming a field that cannot be encoded. */
export function orderV2Digest(o: OrderV2DigestInput, chainId: number, verifyingContract: string, domainVersion = ORDER_V2_DOMAIN_VERSION): `0x${string}` {
  return `0x${Buffer.from(orderV2DigestBytes(o, chainId, verifyingContract, domainVersion)).toString('hex')}`;
}

/** orderV2Digest as 32 bytes (what signature recovery takes). */
export function orderV2DigestBytes(o: OrderV2DigestInput, chainId: number, verifyingContract: string, domainVersion = ORDER_V2_DOMAIN_VERSION): Uint8Array {
  const side = o.side === 'BUY' || o.side === 0 ? 0 : 1;
  const structHash = hash(
    concat([
      ORDER_V2_TYPEHASH,
      uintWord(o.salt, 'salt'),
      hexWord(o.maker, 20, 'maker'),
      hexWord(o.signer, 20, 'signer'),
      uintWord(o.tokenId, 'tokenId'),
      uintWord(o.makerAmount, 'makerAmount'),
      uintWord(o.takerAmount, 'takerAmount'),
      uintWord(side, 'side'),
      uintWord(o.signatureType, 'signatureType'),
      uintWord(o.timestamp, 'timestamp'),
      hexWord(o.metadata, 32, 'metadata'),
      hexWord(o.builder, 32, 'builder'),
    ]),
  );
  return hash(concat([new Uint8Array([0x19, 0x01]), orderV2DomainSeparator(chainId, verifyingContract, domainVersion), structHash]));
}
