/**
 * EIP-712 typed data of the two signed payloads (decisions §2, §3) and the wire shape of a signed order
 * (interface §2.2). Shared by the engine (verification) and the client library (signing), so both
 * sides sign and check exactly the same definitions.
 */

export type Address = `0x${string}`;
export type Hex = `0x${string}`;

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

// ---------------------------------------------------------------------------------------------
// L1 authentication: ClobAuth
// ---------------------------------------------------------------------------------------------

export const CLOB_AUTH_DOMAIN_NAME = 'ClobAuthDomain';
export const CLOB_AUTH_VERSION = '1';
export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';

export const CLOB_AUTH_TYPES = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
} as const;

/** keccak256("ClobAuth(address address,string timestamp,uint256 nonce,string message)") (trading-api.md §3). */
export const CLOB_AUTH_TYPEHASH: Hex = '0x52578c5c725a28a84fedc8c22aa47947822942f35b4dc350db028e45320e035c';

/** The L1 domain has no verifyingContract: the chain id alone separates deployments. */
export function clobAuthDomain(chainId: number): { name: string; version: string; chainId: number } {
  return { name: CLOB_AUTH_DOMAIN_NAME, version: CLOB_AUTH_VERSION, chainId };
}

/** The message of an L1 signature; `timestamp` is a string in the signed struct (the public clients' choice). */
export function clobAuthMessage(address: Address, timestamp: string | number, nonce: bigint | number | string) {
  return { address, timestamp: String(timestamp), nonce: BigInt(nonce), message: CLOB_AUTH_MESSAGE } as const;
}

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

export const ORDER_DOMAIN_NAME = 'Polymarket CTF Exchange';
export const ORDER_DOMAIN_VERSION = '1';

export const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

export const ORDER_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)';

/** keccak256(ORDER_TYPE_STRING) (trading-api.md §5.1). */
export const ORDER_TYPEHASH: Hex = '0xa852566c4e14d00869b6db0220888a9090a13eccdaea03713ff0a3d27bf9767c';

export interface OrderDomainParams {
  chainId: number;
  /** The exchange, or the neg-risk exchange for a neg-risk market. */
  verifyingContract: Address;
}

export function orderDomain(p: OrderDomainParams): { name: string; version: string; chainId: number; verifyingContract: Address } {
  return { name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, chainId: p.chainId, verifyingContract: p.verifyingContract };
}

/** Picks the verifying contract the way the public clients do: the neg-risk exchange for neg-risk markets. */
export function orderVerifyingContract(exchanges: { exchange: Address; negRiskExchange: Address }, negRisk: boolean): Address {
  return negRisk ? exchanges.negRiskExchange : exchanges.exchange;
}

export type Side = 'BUY' | 'SELL';
export const SIDE_CODE = { BUY: 0, SELL: 1 } as const satisfies Record<Side, number>;

/** 0 = EOA, 1 = proxy signer (POLY_PROXY), 2 = Safe signer (POLY_GNOSIS_SAFE). */
export type SignatureType = 0 | 1 | 2;
export const SIGNATURE_TYPES = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2 } as const satisfies Record<string, SignatureType>;

export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';

/**
 * The signed fields of an order as they travel in JSON: uint256 values as decimal strings, `salt` as a
 * number (the public TS client) or a decimal string (other clients), `side` as text.
 */
export interface OrderStruct {
  salt: number | string;
  maker: Address;
  signer: Address;
  taker: Address;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  expiration: string;
  nonce: string;
  feeRateBps: string;
  side: Side;
  signatureType: SignatureType;
}

/** The `order` object of POST /order (interface §2.2): the signed struct plus request-only fields. */
export interface SignedOrder extends OrderStruct {
  signature: Hex;
  /** Not signed; must match the token's market (optional in the compatibility profile). */
  conditionId?: string;
  /** Not signed; zero address when unused. */
  referrer?: Address;
  affiliate?: Address | null;
  affiliatePercentage?: number | null;
  metadata?: Record<string, unknown> | null;
}

// ---------------------------------------------------------------------------------------------
// V2 orders (decisions §6: both order protocols; trading-api.md §12; clob-client-v2's ExchangeOrderBuilderV2)
// ---------------------------------------------------------------------------------------------

/** The V2 domain is the V1 domain with version "2" and the V2 exchanges as verifyingContract. */
export const ORDER_V2_DOMAIN_VERSION = '2';

/**
 * The signed fields of a V2 order as they travel in JSON. No taker, expiration, nonce or feeRateBps are
 * signed; `timestamp` (ms, decimal string), `metadata` and `builder` (bytes32 hex) are.
 */
export interface OrderStructV2 {
  salt: number | string;
  maker: Address;
  signer: Address;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: Side;
  signatureType: SignatureType;
  timestamp: string;
  metadata: Hex;
  builder: Hex;
}

/**
 * The `order` object of a V2 POST /order: the signed struct plus request-only fields. clob-client-v2
 * sends `expiration` beside the signed fields (unsigned, "0" unless GTD) and no `taker`.
 */
export interface SignedOrderV2 extends OrderStructV2 {
  signature: Hex;
  /** Unix seconds, not signed: the GTD deadline, as the public V2 service reads it. */
  expiration?: string;
  /** Not signed; the zero address when sent. */
  taker?: Address;
  conditionId?: string;
  referrer?: Address;
  affiliate?: Address | null;
  affiliatePercentage?: number | null;
}

/** A V2 order carries the V2-only signed fields (`timestamp`, `builder`), as clob-client-v2's isV2Order decides. */
export function isOrderV2(o: SignedOrder | SignedOrderV2): o is SignedOrderV2 {
  return typeof o === 'object' && o !== null && ('timestamp' in o || 'builder' in o);
}

/** One entry of POST /order (and of the POST /orders array). */
export interface PostOrderBody {
  /** A V1 or a V2 signed order: both rest and match on the same book. */
  order: SignedOrder | SignedOrderV2;
  /** SERVICE_ADDRESS (the API key in the compatibility profile). */
  owner: string;
  orderType: OrderType;
  deferExec?: boolean;
  postOnly?: boolean;
}

/** The order struct as viem's typed-data signer wants it (bigints and uint8 numbers). */
export function orderTypedMessage(o: OrderStruct) {
  return {
    salt: BigInt(o.salt),
    maker: o.maker,
    signer: o.signer,
    taker: o.taker,
    tokenId: BigInt(o.tokenId),
    makerAmount: BigInt(o.makerAmount),
    takerAmount: BigInt(o.takerAmount),
    expiration: BigInt(o.expiration),
    nonce: BigInt(o.nonce),
    feeRateBps: BigInt(o.feeRateBps),
    side: SIDE_CODE[o.side],
    signatureType: o.signatureType,
  } as const;
}
