import { formatUnits, MAX_BOOK_UNITS, ONE } from '../../protocol/amounts.js';
import type { ExchangeAddresses } from '../../protocol/contractAddresses.js';
import { isOrderV2, ORDER_V2_DOMAIN_VERSION, orderVerifyingContract, ZERO_ADDRESS, type Address, type PostOrderBody, type SignedOrder, type SignedOrderV2 } from '../../protocol/eip712.js';
import { orderDigest, bytesToHex, OrderEncodingError } from '../crypto/orderDigest.js';
import { orderV2DigestBytes } from '../crypto/orderDigestV2.js';
import { recoverAddress } from '../crypto/recoverSigner.js';
import type { OrderSide, OrderType } from '../../store/orderRepo.js';
import type { OrderIdentity, TradableMarket } from './liveOrder.js';
import { rejection, type Rejection } from './placementResult.js';

/** GTD safety buffer (interface §4.2): an order lives until expiration − 60 s. */
export const GTD_BUFFER_SECONDS = 60;

/** An order that passed every stateless check: ready for the duplicate and balance checks and matching. */
export interface ValidOrder {
  market: TradableMarket;
  outcomeIndex: 0 | 1;
  tokenId: string;
  side: OrderSide;
  orderType: OrderType;
  /** Limit price on the order's token, on the tick (market orders: rounded to the tick in the order's favour-safe direction). */
  price: bigint;
  /** Shares: takerAmount for a BUY, makerAmount for a SELL. */
  size: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  digest: string;
  /** 1 or 2: which order protocol signed it (both rest on the same book). */
  orderVersion: 1 | 2;
  maker: string;
  signer: string;
  salt: string;
  /** V1 as signed; "0" for a V2 order (V2 signs no nonce). */
  nonce: string;
  /** V1 as signed; a V2 order signs none and pays the market's rate, stored here. */
  feeRateBps: string;
  signatureType: number;
  signature: string;
  /** Unix seconds as signed; only GTD orders act on it. */
  expiration: number;
}

export interface ValidationDeps {
  nowMs: number;
  chainId: number;
  /** The V1 and V2 verifyingContracts (GET /config `contracts`). */
  contracts: ExchangeAddresses;
  /** Finds the market of a token (markets service). */
  byToken(tokenId: string): { market: TradableMarket; outcomeIndex: 0 | 1 } | undefined;
  /** The proxy (1) or Safe (2) wallet of a signer; undefined when it cannot be derived here. */
  walletOf(signatureType: 1 | 2, signer: string): string | undefined;
  /** Compatibility profile: conditionId may be omitted (decisions §6). */
  conditionIdOptional: boolean;
  /**
   * The order digest and the address its signature recovers, computed ahead (signingDigestOf, then a
   * batched recovery off the main thread). Without it both are computed here.
   */
  signatureCheck?: { digest: Uint8Array; recovered: Address | null };
}

const SIG_NAMES = ['EOA', 'POLY_PROXY', 'POLY_GNOSIS_SAFE'] as const;

/** Shows a maker/taker ratio as a price for messages, e.g. 0.523333 (6 decimals, truncated). */
function ratioText(num: bigint, den: bigint): string {
  return formatUnits((num * ONE) / den) + ((num * ONE) % den === 0n ? '' : '…');
}

function canonicalUint(text: string | number): string | undefined {
  const s = String(text);
  if (!/^\d{1,78}$/.test(s)) return undefined;
  return BigInt(s).toString();
}

function domainTextOf(negRisk: boolean, verifyingContract: Address, chainId: number, v2 = false): string {
  if (v2) return `V2 domain {name "Polymarket CTF Exchange", version "${ORDER_V2_DOMAIN_VERSION}", chainId ${chainId}, verifyingContract ${verifyingContract} (the ${negRisk ? 'neg-risk exchange V2' : 'exchange V2'})}`;
  return `${negRisk ? 'neg-risk exchange' : 'exchange'} ${verifyingContract} on chain ${chainId}`;
}

/** The V2 exchange of a market: the neg-risk one for neg-risk markets, as clob-client-v2 picks it. */
function v2VerifyingContract(contracts: ExchangeAddresses, negRisk: boolean): Address {
  return negRisk ? contracts.negRiskExchangeV2 : contracts.exchangeV2;
}

/** The digest an order's signature must sign (V1 or V2 by its fields), or why it cannot be encoded. */
function signingTarget(
  o: SignedOrder | SignedOrderV2,
  tokenId: string,
  negRisk: boolean,
  deps: Pick<ValidationDeps, 'chainId' | 'contracts'>,
): { digest: Uint8Array } | { problem: string } {
  try {
    if (isOrderV2(o)) return { digest: orderV2DigestBytes({ ...o, tokenId }, deps.chainId, v2VerifyingContract(deps.contracts, negRisk)) };
    return { digest: orderDigest({ ...o, tokenId, salt: String(o.salt) }, { chainId: deps.chainId, verifyingContract: orderVerifyingContract(deps.contracts, negRisk) }) };
  } catch (e) {
    if (e instanceof OrderEncodingError || e instanceof RangeError) return { problem: e.message };
    throw e;
  }
}

/**
 * Why a V2 signature recovers someone else: it is re-checked under the domains a client most often
 * signs by mistake (another domain version, the other V2 exchange, the V1 exchange), so the answer
 * names the domain the signature was made for. Runs only for a refused order.
 */
function v2SignatureProblem(o: SignedOrderV2, tokenId: string, negRisk: boolean, deps: Pick<ValidationDeps, 'chainId' | 'contracts'>, recovered: Address, signer: string): string {
  const expected = v2VerifyingContract(deps.contracts, negRisk);
  const candidates: Array<{ version: string; contract: Address; what: string }> = [
    { version: '1', contract: expected, what: 'domain version "1" (a V2 struct signed under the V1 domain version)' },
    { version: '3', contract: expected, what: 'domain version "3" (ExchangeV3)' },
    { version: ORDER_V2_DOMAIN_VERSION, contract: v2VerifyingContract(deps.contracts, !negRisk), what: `the ${negRisk ? 'plain' : 'neg-risk'} exchange V2 ${v2VerifyingContract(deps.contracts, !negRisk)}` },
    { version: ORDER_V2_DOMAIN_VERSION, contract: orderVerifyingContract(deps.contracts, negRisk), what: `the V1 exchange ${orderVerifyingContract(deps.contracts, negRisk)} as verifyingContract` },
  ];
  let madeFor = '';
  for (const c of candidates) {
    const got = recoverAddress(orderV2DigestBytes({ ...o, tokenId }, deps.chainId, c.contract, c.version), o.signature);
    if (got !== null && got.toLowerCase() === signer) {
      madeFor = ` It was signed for ${c.what}.`;
      break;
    }
  }
  return (
    `invalid signature: field 'signature' of this V2 order, under the ${domainTextOf(negRisk, expected, deps.chainId, true)} (market neg_risk=${negRisk}), recovers ${recovered.toLowerCase()}, not the signer ${signer}.${madeFor} ` +
    `Sign the V2 struct (salt, maker, signer, tokenId, makerAmount, takerAmount, side, signatureType, timestamp, metadata, builder) with that domain, and check signatureType and maker.`
  );
}

/**
 * Every stateless placement rule of decisions §3, in the documented order: token and market, amounts,
 * tick and price window, minimum size, GTD expiration, taker, signer/maker, signature. The result is the
 * normalised order or the first rule it breaks (as a placement error code and a message saying how to fix it).
 */
export function validateOrder(identity: OrderIdentity, body: PostOrderBody, deps: ValidationDeps): ValidOrder | Rejection {
  const o = body.order;
  const tokenId = canonicalUint(o.tokenId);
  const found = tokenId === undefined ? undefined : deps.byToken(tokenId);
  if (!found || tokenId === undefined) {
    return rejection('INVALID_ORDER_ERROR', `order is invalid. Unknown tokenId ${String(o.tokenId).slice(0, 80)}: no market trades it. List markets with GET /markets.`);
  }
  const { market, outcomeIndex } = found;
  if (o.conditionId !== undefined && o.conditionId !== null && o.conditionId.toLowerCase() !== market.conditionId.toLowerCase()) {
    return rejection(
      'INVALID_ORDER_ERROR',
      `order is invalid. conditionId ${o.conditionId} does not match token ${tokenId}, which belongs to market ${market.conditionId}.`,
    );
  }
  if ((o.conditionId === undefined || o.conditionId === null) && !deps.conditionIdOptional) {
    return rejection('INVALID_ORDER_ERROR', `order is invalid. conditionId is required: send ${market.conditionId}, the market of token ${tokenId}.`);
  }
  if (market.winner !== null) {
    return rejection('INVALID_ORDER_ERROR', `order is invalid. Market ${market.conditionId} is resolved (outcome ${market.winner} won) and no longer trades; redeem with POST /redeem.`);
  }
  if (market.closed === true) {
    // A mirrored market whose public market closed, or whose mirror the operator stopped (decisions §10).
    return rejection('INVALID_ORDER_ERROR', `order is invalid. Market ${market.conditionId} is closed and takes no new orders; it pays out once it resolves (POST /redeem then).`);
  }

  const makerText = canonicalUint(o.makerAmount);
  const takerText = canonicalUint(o.takerAmount);
  if (makerText === undefined || takerText === undefined) {
    return rejection('INVALID_ORDER_MIN_SIZE', 'order is invalid. makerAmount and takerAmount must be decimal integer strings of 6-decimal units.');
  }
  const makerAmount = BigInt(makerText);
  const takerAmount = BigInt(takerText);
  if (makerAmount <= 0n || takerAmount <= 0n) {
    return rejection('INVALID_ORDER_MIN_SIZE', `order is invalid. makerAmount (${makerText}) and takerAmount (${takerText}) must both be positive.`);
  }
  if (makerAmount > MAX_BOOK_UNITS || takerAmount > MAX_BOOK_UNITS) {
    return rejection('INVALID_ORDER_ERROR', `order is invalid. Amounts above ${MAX_BOOK_UNITS} units (${formatUnits(MAX_BOOK_UNITS)} in 6-decimal terms) are not supported.`);
  }

  const side: OrderSide = o.side;
  const orderType = body.orderType;
  // Price = collateral per share: maker/taker for a BUY, taker/maker for a SELL (decisions §3).
  const num = side === 'BUY' ? makerAmount : takerAmount;
  const den = side === 'BUY' ? takerAmount : makerAmount;
  const size = side === 'BUY' ? takerAmount : makerAmount;
  const tick = market.tickSize;
  const tickText = formatUnits(tick);
  const scaled = num * ONE;
  let price: bigint;
  if (orderType === 'GTC' || orderType === 'GTD') {
    if (scaled % den !== 0n || (scaled / den) % tick !== 0n) {
      return rejection('INVALID_ORDER_MIN_TICK_SIZE', `order is invalid. Price (${ratioText(num, den)}) breaks minimum tick size rule: ${tickText}. Use a price that is a multiple of ${tickText}.`);
    }
    price = scaled / den;
  } else {
    // A market order's implied price is a worst-price limit (trading-api.md §8): round it to the tick on
    // the side that never lets it trade worse than signed (down for a BUY, up for a SELL).
    const exact = scaled / den;
    const exactIsWhole = scaled % den === 0n;
    price = side === 'BUY' ? (exact / tick) * tick : ((exactIsWhole ? exact : exact + 1n) + tick - 1n) / tick * tick;
  }
  if (price < tick || price > ONE - tick) {
    return rejection(
      'INVALID_ORDER_MIN_TICK_SIZE',
      `order is invalid. Price (${ratioText(num, den)}) breaks minimum tick size rule: ${tickText}. Prices must lie within [${tickText}, ${formatUnits(ONE - tick)}].`,
    );
  }
  if (size < market.minOrderSize) {
    return rejection('INVALID_ORDER_MIN_SIZE', `order is invalid. Size (${formatUnits(size)}) lower than the minimum: ${formatUnits(market.minOrderSize)}.`);
  }

  const expirationText = canonicalUint(o.expiration ?? '0');
  if (expirationText === undefined) return rejection('INVALID_ORDER_EXPIRATION', 'invalid expiration: expiration must be a decimal string of unix seconds.');
  const expirationBig = BigInt(expirationText);
  if (orderType === 'GTD') {
    const earliest = Math.floor(deps.nowMs / 1000) + GTD_BUFFER_SECONDS;
    if (expirationBig <= BigInt(earliest)) {
      return rejection(
        'INVALID_ORDER_EXPIRATION',
        `invalid expiration: a GTD order needs expiration > now + ${GTD_BUFFER_SECONDS} s (> ${earliest}); got ${expirationText}. To live N seconds set now + N + ${GTD_BUFFER_SECONDS}.`,
      );
    }
  }
  // Expirations beyond a JS safe integer never fire anyway; keep them representable.
  const expiration = expirationBig > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(expirationBig);

  const v2 = isOrderV2(o);
  // V2 signs no taker (clob-client-v2 sends none); one that is sent must still say "anyone".
  const taker = (o.taker ?? ZERO_ADDRESS).toLowerCase();
  if (taker !== ZERO_ADDRESS) {
    return rejection('INVALID_ORDER_ERROR', `order is invalid. taker must be the zero address (${ZERO_ADDRESS})${v2 ? ' or absent (V2 orders sign no taker)' : ''}: this exchange only matches public orders.`);
  }
  const signer = o.signer.toLowerCase();
  const maker = o.maker.toLowerCase();
  if (signer !== identity.address.toLowerCase()) {
    return rejection(
      'INVALID_ORDER_ERROR',
      `the order signer address has to be the address of the API KEY: signer is ${signer} but SERVICE_ADDRESS is ${identity.address.toLowerCase()}.`,
    );
  }
  const signatureType = o.signatureType;
  if (signatureType === 0) {
    if (maker !== signer) {
      return rejection('INVALID_ORDER_ERROR', `order is invalid. An EOA order (signatureType 0) needs maker == signer; maker is ${maker}, signer ${signer}. Use signatureType 1 or 2 for a proxy or Safe maker.`);
    }
  } else if (signatureType === 1 || signatureType === 2) {
    const wallet = deps.walletOf(signatureType, signer);
    if (wallet === undefined) {
      return rejection('INVALID_ORDER_ERROR', `order is invalid. The ${SIG_NAMES[signatureType]} wallet of ${signer} cannot be derived on this exchange (its factory is not deployed).`);
    }
    if (maker !== wallet.toLowerCase()) {
      return rejection(
        'INVALID_ORDER_ERROR',
        `order is invalid. With signatureType ${signatureType} (${SIG_NAMES[signatureType]}) the maker must be the signer's ${signatureType === 1 ? 'proxy wallet' : 'Safe'} ${wallet.toLowerCase()}; got ${maker}.`,
      );
    }
  } else {
    return rejection('INVALID_ORDER_ERROR', `order is invalid. signatureType must be 0 (EOA), 1 (POLY_PROXY) or 2 (POLY_GNOSIS_SAFE); got ${String(signatureType)}.`);
  }

  const verifyingContract = v2 ? v2VerifyingContract(deps.contracts, market.negRisk) : orderVerifyingContract(deps.contracts, market.negRisk);
  let digestBytes: Uint8Array;
  let recovered: Address | null;
  if (deps.signatureCheck) {
    // Batch-verified off thread: the digest was computed there (signingDigestOf), not again here.
    digestBytes = deps.signatureCheck.digest;
    recovered = deps.signatureCheck.recovered;
  } else {
    const target = signingTarget(o, tokenId, market.negRisk, deps);
    if ('problem' in target) return rejection('INVALID_ORDER_ERROR', `order is invalid. ${target.problem}`);
    digestBytes = target.digest;
    recovered = recoverAddress(digestBytes, o.signature);
  }
  const digest = bytesToHex(digestBytes);
  const domainText = domainTextOf(market.negRisk, verifyingContract, deps.chainId, v2);
  if (recovered === null) {
    return rejection('INVALID_ORDER_ERROR', `invalid signature: it is not a 65-byte r‖s‖v ECDSA signature (low-s) of the order digest ${digest} under the ${domainText}.`);
  }
  if (recovered.toLowerCase() !== signer) {
    if (v2) return rejection('INVALID_ORDER_ERROR', v2SignatureProblem(o, tokenId, market.negRisk, deps, recovered, signer));
    const other = orderVerifyingContract(deps.contracts, !market.negRisk);
    return rejection(
      'INVALID_ORDER_ERROR',
      `invalid signature: under the ${domainText} (market neg_risk=${market.negRisk}) it recovers ${recovered.toLowerCase()}, not the signer ${signer}. ` +
        `Sign with verifyingContract ${verifyingContract} (not ${other}) and chainId ${deps.chainId}, and check signatureType and maker.`,
    );
  }

  return {
    market,
    outcomeIndex,
    tokenId,
    side,
    orderType,
    price,
    size,
    makerAmount,
    takerAmount,
    digest,
    orderVersion: v2 ? 2 : 1,
    maker,
    signer,
    salt: canonicalUint(o.salt) ?? String(o.salt),
    nonce: v2 ? '0' : (canonicalUint(o.nonce) ?? String(o.nonce)),
    feeRateBps: v2 ? String(market.feeRateBps ?? 0) : (canonicalUint(o.feeRateBps) ?? String(o.feeRateBps)),
    signatureType,
    signature: o.signature,
    expiration,
  };
}

/**
 * The digest validateOrder checks the signature against (same fields, same domain), or undefined when
 * the order cannot get that far (unknown token, unencodable field): validateOrder then says why.
 */
export function signingDigestOf(body: PostOrderBody, deps: Pick<ValidationDeps, 'chainId' | 'contracts' | 'byToken'>): Uint8Array | undefined {
  const o = body.order;
  const tokenId = canonicalUint(o.tokenId);
  const found = tokenId === undefined ? undefined : deps.byToken(tokenId);
  if (!found || tokenId === undefined) return undefined;
  const target = signingTarget(o, tokenId, found.market.negRisk, deps);
  return 'problem' in target ? undefined : target.digest;
}

export function isRejection(v: ValidOrder | Rejection): v is Rejection {
  return (v as Rejection).code !== undefined && (v as ValidOrder).digest === undefined;
}
