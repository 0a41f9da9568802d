import type { BookSide } from '../../book/types.js';
import type { LiveOrder, TradableMarket } from './liveOrder.js';
import { PUBLIC_MARKET_ACCOUNT, PUBLIC_MARKET_NAME } from './publicDepth.js';

/**
 * The public-market side of one fill on a mirrored market, as settlement takes a party: the public depth
 * (a maker) or a public print (a taker), in the book's outcome-0 terms (a bid buys outcome 0, an ask sells
 * it). Never stored, reserved or counted: settlement skips its balances, ledger and order updates.
 */
export function publicOrder(market: Pick<TradableMarket, 'conditionId' | 'tokenIds'>, side: BookSide, price: number, now: number): LiveOrder {
  return {
    id: PUBLIC_MARKET_NAME,
    digest: '',
    maker: PUBLIC_MARKET_ACCOUNT,
    signer: PUBLIC_MARKET_ACCOUNT,
    owner: PUBLIC_MARKET_ACCOUNT,
    conditionId: market.conditionId,
    tokenId: market.tokenIds[0],
    outcomeIndex: 0,
    side: side === 'bid' ? 'BUY' : 'SELL',
    price: BigInt(price),
    originalSize: 0n,
    sizeMatched: 0n,
    makerAmount: 0n,
    takerAmount: 0n,
    salt: '',
    nonce: '0',
    feeRateBps: '0',
    signatureType: 0,
    signature: '',
    orderType: 'GTC',
    expiration: 0,
    status: 'open',
    reserved: 0n,
    cancelReason: null,
    createdAt: now,
    updatedAt: now,
    handle: -1,
  };
}
