import { ZERO_ADDRESS, type Address, type OrderStruct, type Side, type SignatureType } from '../protocol/eip712.js';
import { OrderBuildError } from './clientHttpError.js';
import { getMarketOrderRawAmounts, getOrderRawAmounts, toTickSize, type TickSize } from './orderAmounts.js';

/** An order ready to sign: the signed struct plus the request-only fields (not signed). */
export interface UnsignedOrder extends OrderStruct {
  conditionId?: string;
  referrer?: Address;
}

interface CommonOrderParams {
  tokenId: string;
  side: Side;
  tickSize: TickSize | string | number;
  /** The EOA that signs. */
  signer: Address;
  /** The funder: the signer for EOA orders, its proxy or Safe for signature types 1/2. */
  maker?: Address;
  taker?: Address;
  signatureType?: SignatureType;
  feeRateBps?: string | number;
  nonce?: string | number;
  salt?: string | number;
  /** Market of the token (required by the exchange outside the compatibility profile). */
  conditionId?: string;
  referrer?: Address;
}

export interface LimitOrderParams extends CommonOrderParams {
  price: string | number;
  /** Shares. */
  size: string | number;
  /** Unix seconds, for GTD (now + lifetime + 60); "0" otherwise. */
  expiration?: string | number;
}

export interface MarketOrderParams extends CommonOrderParams {
  /** Collateral to spend for BUY, shares to sell for SELL. */
  amount: string | number;
  /** Worst acceptable price (see calculateMarketPrice). */
  price: string | number;
}

/** A random salt below 2^53, like the public client's (JSON number safe). */
export function generateSalt(): number {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (words[0]! & 0x1fffff) * 2 ** 32 + words[1]!;
}

function intString(v: string | number | undefined, what: string, dflt: string): string {
  if (v === undefined) return dflt;
  const s = String(v);
  if (!/^\d+$/.test(s)) throw new OrderBuildError(`${what} must be a non-negative integer (got ${JSON.stringify(v)}).`);
  return s;
}

function base(p: CommonOrderParams, makerAmount: bigint, takerAmount: bigint, expiration: string): UnsignedOrder {
  const o: UnsignedOrder = {
    salt: p.salt ?? generateSalt(),
    maker: p.maker ?? p.signer,
    signer: p.signer,
    taker: p.taker ?? ZERO_ADDRESS,
    tokenId: intString(p.tokenId, 'tokenId', ''),
    makerAmount: makerAmount.toString(),
    takerAmount: takerAmount.toString(),
    expiration,
    nonce: intString(p.nonce, 'nonce', '0'),
    feeRateBps: intString(p.feeRateBps, 'feeRateBps', '0'),
    side: p.side,
    signatureType: p.signatureType ?? 0,
  };
  if (p.conditionId !== undefined) o.conditionId = p.conditionId;
  o.referrer = p.referrer ?? ZERO_ADDRESS;
  return o;
}

/** A limit order (GTC/GTD/FOK/FAK) at `price` for `size` shares, amounts rounded as the public clients do. */
export function buildOrder(p: LimitOrderParams): UnsignedOrder {
  const { makerAmount, takerAmount } = getOrderRawAmounts(p.side, p.size, p.price, toTickSize(p.tickSize));
  return base(p, makerAmount, takerAmount, intString(p.expiration, 'expiration', '0'));
}

/** A market order (posted as FOK or FAK): expiration is always "0". */
export function buildMarketOrder(p: MarketOrderParams): UnsignedOrder {
  const { makerAmount, takerAmount } = getMarketOrderRawAmounts(p.side, p.amount, p.price, toTickSize(p.tickSize));
  return base(p, makerAmount, takerAmount, '0');
}
