/**
 * The three signatures the relayer checks, as pure functions usable in Node and the browser:
 * the Safe 1.3.0 SafeTx hash (SAFE), the factory's CreateProxy typed data (SAFE-CREATE, /wallet/safe)
 * and the GSN v1 `rlx:` hash (PROXY, /wallet/proxy). Known-answer vectors: relayer-api.md §6.
 */
import { POLYGON_WALLET_CONTRACTS, safeFactoryDomainName } from './contractAddresses.js';
import {
  concat,
  encodeFunctionData,
  encodePacked,
  getAddress,
  hashMessage,
  hashTypedData,
  isHex,
  keccak256,
  recoverAddress,
  toHex,
  type Address,
  type Hex,
} from 'viem';

/** EIP-712 domain name of the local Safe proxy factory (the public one says "Polymarket Contract Proxy Factory"). */
export const CREATE_PROXY_DOMAIN_NAME = safeFactoryDomainName('default');

/**
 * The domain name the Safe factory at this address signs under: the public name at the public Polygon
 * address (where the polymarket profile places it), the local name anywhere else (decisions §6).
 */
export function createProxyDomainNameOf(factory: Address): string {
  return safeFactoryDomainName(factory.toLowerCase() === POLYGON_WALLET_CONTRACTS.safeFactory.toLowerCase() ? 'polymarket' : 'default');
}

export { ZERO_ADDRESS } from './eip712.js';
export const ZERO_HASH: Hex = '0x0000000000000000000000000000000000000000000000000000000000000000';
export const MAX_UINT256 = (1n << 256n) - 1n;

// ---------------------------------------------------------------- SafeTx (Safe 1.3.0)

export interface SafeTx {
  to: Address;
  value: bigint;
  data: Hex;
  /** 0 = CALL, 1 = DELEGATECALL. */
  operation: number;
  safeTxGas: bigint;
  baseGas: bigint;
  gasPrice: bigint;
  gasToken: Address;
  refundReceiver: Address;
  nonce: bigint;
}

/** The SafeTx fields before the nonce: also the leading parameters of Safe's execTransaction and getTransactionHash. */
export const SAFE_TX_FIELDS = [
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'data', type: 'bytes' },
  { name: 'operation', type: 'uint8' },
  { name: 'safeTxGas', type: 'uint256' },
  { name: 'baseGas', type: 'uint256' },
  { name: 'gasPrice', type: 'uint256' },
  { name: 'gasToken', type: 'address' },
  { name: 'refundReceiver', type: 'address' },
] as const;

export const SAFE_TX_TYPES = { SafeTx: [...SAFE_TX_FIELDS, { name: 'nonce', type: 'uint256' }] } as const;

/** Safe 1.3.0 domain: chainId and the Safe itself, no name and no version. */
export function safeTxTypedData(chainId: number, safe: Address, tx: SafeTx) {
  return {
    domain: { chainId, verifyingContract: safe },
    types: SAFE_TX_TYPES,
    primaryType: 'SafeTx' as const,
    message: tx,
  };
}

export function safeTxHash(chainId: number, safe: Address, tx: SafeTx): Hex {
  return hashTypedData(safeTxTypedData(chainId, safe, tx));
}

/**
 * Who signed a Safe owner signature over `hash`, following Safe 1.3.0 `checkNSignatures`:
 * v 27/28 signs the hash itself (EIP-712), v 31/32 signs the EIP-191 message of the hash (eth_sign, v+4).
 * Other v values (contract signatures, approved hashes) are not relayable and are rejected.
 */
export async function recoverSafeSigner(hash: Hex, signature: Hex): Promise<Address> {
  const { r, s, v } = splitSignature(signature);
  if (v === 27 || v === 28) return recoverAddress({ hash, signature: concat([r, s, toHex(v, { size: 1 })]) });
  if (v === 31 || v === 32) {
    return recoverAddress({ hash: hashMessage({ raw: hash }), signature: concat([r, s, toHex(v - 4, { size: 1 })]) });
  }
  throw new Error(`signature v must be 27, 28, 31 or 32 (got ${v})`);
}

/**
 * Turns a personal_sign/eth_sign signature of a SafeTx hash into the Safe's eth_sign form (v 31/32),
 * as the public client's `splitAndPackSig` does.
 */
export function toSafeEthSignSignature(signature: Hex): Hex {
  const { r, s, v } = splitSignature(signature);
  let adjusted: number;
  if (v === 0 || v === 1) adjusted = v + 31;
  else if (v === 27 || v === 28) adjusted = v + 4;
  else throw new Error('Invalid signature');
  return encodePacked(['uint256', 'uint256', 'uint8'], [BigInt(r), BigInt(s), adjusted]);
}

// ---------------------------------------------------------------- MultiSend (batches for SAFE)

export interface MultiSendEntry {
  operation: number;
  to: Address;
  value: bigint;
  data: Hex;
}

export const MULTI_SEND_ABI = [
  { type: 'function', name: 'multiSend', stateMutability: 'payable', inputs: [{ name: 'transactions', type: 'bytes' }], outputs: [] },
] as const;

/** MultiSend 1.3.0 `multiSend(bytes)` calldata; the batch must be delegatecalled (operation 1). */
export function encodeMultiSend(entries: readonly MultiSendEntry[]): Hex {
  const packed = concat(
    entries.map((e) =>
      encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [e.operation, e.to, e.value, BigInt((e.data.length - 2) / 2), e.data]),
    ),
  );
  return encodeFunctionData({
    abi: MULTI_SEND_ABI,
    functionName: 'multiSend',
    args: [packed],
  });
}

// ---------------------------------------------------------------- CreateProxy (Safe factory)

export interface CreateProxyMessage {
  paymentToken: Address;
  payment: bigint;
  paymentReceiver: Address;
}

export const CREATE_PROXY_TYPES = {
  CreateProxy: [
    { name: 'paymentToken', type: 'address' },
    { name: 'payment', type: 'uint256' },
    { name: 'paymentReceiver', type: 'address' },
  ],
} as const;

/** Domain `{name, chainId, verifyingContract}`, deliberately without `version` (as the factory hashes it). */
export function createProxyTypedData(chainId: number, factory: Address, message: CreateProxyMessage, name: string = createProxyDomainNameOf(factory)) {
  return {
    domain: { name, chainId, verifyingContract: factory },
    types: CREATE_PROXY_TYPES,
    primaryType: 'CreateProxy' as const,
    message,
  };
}

export function createProxyHash(chainId: number, factory: Address, message: CreateProxyMessage, name: string = createProxyDomainNameOf(factory)): Hex {
  return hashTypedData(createProxyTypedData(chainId, factory, message, name));
}

/** The signer of a CreateProxy signature (v 27/28 only, as OpenZeppelin's ECDSA in the factory). */
export async function recoverCreateProxySigner(
  chainId: number,
  factory: Address,
  message: CreateProxyMessage,
  signature: Hex,
  name: string = createProxyDomainNameOf(factory),
): Promise<Address> {
  const { v } = splitSignature(signature);
  if (v !== 27 && v !== 28) throw new Error(`signature v must be 27 or 28 (got ${v})`);
  return recoverAddress({ hash: createProxyHash(chainId, factory, message, name), signature });
}

// ---------------------------------------------------------------- GSN v1 relayed call (PROXY)

export interface RelayRequest {
  /** The signer (proxy wallet owner). */
  from: Address;
  /** The recipient: the proxy wallet factory. */
  to: Address;
  encodedFunction: Hex;
  transactionFee: bigint;
  gasPrice: bigint;
  gasLimit: bigint;
  nonce: bigint;
  relayHub: Address;
  relay: Address;
}

/** keccak256("rlx:" ‖ from ‖ to ‖ encodedFunction ‖ fee ‖ gasPrice ‖ gasLimit ‖ nonce ‖ hub ‖ relay), RelayHub v1 `canRelay`. */
export function rlxHash(r: RelayRequest): Hex {
  return keccak256(
    encodePacked(
      ['string', 'address', 'address', 'bytes', 'uint256', 'uint256', 'uint256', 'uint256', 'address', 'address'],
      ['rlx:', r.from, r.to, r.encodedFunction, r.transactionFee, r.gasPrice, r.gasLimit, r.nonce, r.relayHub, r.relay],
    ),
  );
}

/** The owner's EIP-191 signature of the rlx hash (signMessage of the raw 32 bytes) → the signer. */
export async function recoverRelaySigner(r: RelayRequest, signature: Hex): Promise<Address> {
  const { v } = splitSignature(signature);
  if (v !== 27 && v !== 28) throw new Error(`signature v must be 27 or 28 (got ${v})`);
  return recoverAddress({ hash: hashMessage({ raw: rlxHash(r) }), signature });
}

/** Proxy wallet call kinds: the wire's CALL / DELEGATE_CALL are the factory's CallType 1 / 2. */
export const PROXY_CALL_TYPE = { CALL: 1, DELEGATE_CALL: 2 } as const;

export interface ProxyCall {
  typeCode: number;
  to: Address;
  value: bigint;
  data: Hex;
}

/** `proxy(calls)`, the same on the proxy wallet factory and on each proxy wallet. */
export const PROXY_FACTORY_PROXY_ABI = [
  {
    type: 'function',
    name: 'proxy',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'typeCode', type: 'uint8' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
      },
    ],
    outputs: [{ name: 'returnValues', type: 'bytes[]' }],
  },
] as const;

/** `proxy((uint8,address,uint256,bytes)[])` calldata (selector 0x34ee9791). */
export function encodeProxyCalls(calls: readonly ProxyCall[]): Hex {
  return encodeFunctionData({ abi: PROXY_FACTORY_PROXY_ABI, functionName: 'proxy', args: [calls] });
}

// ---------------------------------------------------------------- signatures

export interface SplitSignature {
  r: Hex;
  s: Hex;
  v: number;
}

/** A 65-byte r ‖ s ‖ v signature split as the Safe factory's `Sig{v, r, s}` needs it. */
export function splitSignature(signature: Hex): SplitSignature {
  if (!isHex(signature, { strict: true }) || signature.length !== 132) throw new Error('signature must be 65 bytes of 0x-prefixed hex');
  return {
    r: `0x${signature.slice(2, 66)}`,
    s: `0x${signature.slice(66, 130)}`,
    v: Number.parseInt(signature.slice(130, 132), 16),
  };
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function checksum(a: string): Address {
  return getAddress(a);
}
