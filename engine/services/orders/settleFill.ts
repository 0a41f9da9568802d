import { ONE } from '../../protocol/amounts.js';
import type { TradeKind } from '../../store/tradeRepo.js';
import type { OrderSide } from '../../store/orderRepo.js';

/** The side of a fill one party is on. */
export interface FillParty {
  readonly address: string;
  readonly tokenId: string;
  readonly side: OrderSide;
}

/** One balance movement of a settled fill; `price` is that party's execution price on its token. */
export interface BalanceMove {
  readonly address: string;
  /** 'COLLATERAL' or a token id. */
  readonly asset: string;
  readonly delta: bigint;
  readonly role: 'taker' | 'maker';
}

export interface Settlement {
  readonly kind: TradeKind;
  /** Collateral the taker pays (BUY) or receives (SELL). */
  readonly takerCollateral: bigint;
  /** Collateral the maker pays (BUY) or receives (SELL). */
  readonly makerCollateral: bigint;
  readonly moves: BalanceMove[];
}

/**
 * Settles one fill of `size` shares in bigint micro-units (decisions §3):
 *   NORMAL: same token, the buyer pays the seller size × price.
 *   MINT:   two BUYs of complementary tokens; together they pay exactly `size` collateral (one complete
 *           set per share) and each receives `size` shares of its own token.
 *   MERGE:  two SELLs; each gives up `size` shares and together they receive exactly `size` collateral.
 * The maker's side is rounded down and the taker's side is the complement, so collateral and shares
 * are conserved exactly whatever the rounding.
 */
export function settleFill(taker: FillParty, maker: FillParty, makerPrice: bigint, size: bigint, collateral: string): Settlement {
  const makerValue = (makerPrice * size) / ONE;
  if (taker.tokenId === maker.tokenId) {
    if (taker.side === maker.side) throw new Error('a fill on one token needs a buyer and a seller');
    const buyer = taker.side === 'BUY' ? taker : maker;
    const seller = taker.side === 'BUY' ? maker : taker;
    const role = (p: FillParty): 'taker' | 'maker' => (p === taker ? 'taker' : 'maker');
    return {
      kind: 'NORMAL',
      takerCollateral: makerValue,
      makerCollateral: makerValue,
      moves: [
        { address: buyer.address, asset: collateral, delta: -makerValue, role: role(buyer) },
        { address: buyer.address, asset: buyer.tokenId, delta: size, role: role(buyer) },
        { address: seller.address, asset: seller.tokenId, delta: -size, role: role(seller) },
        { address: seller.address, asset: collateral, delta: makerValue, role: role(seller) },
      ],
    };
  }
  if (taker.side !== maker.side) throw new Error('a fill across the two tokens needs two BUYs (mint) or two SELLs (merge)');
  const takerValue = size - makerValue;
  if (taker.side === 'BUY') {
    return {
      kind: 'MINT',
      takerCollateral: takerValue,
      makerCollateral: makerValue,
      moves: [
        { address: maker.address, asset: collateral, delta: -makerValue, role: 'maker' },
        { address: maker.address, asset: maker.tokenId, delta: size, role: 'maker' },
        { address: taker.address, asset: collateral, delta: -takerValue, role: 'taker' },
        { address: taker.address, asset: taker.tokenId, delta: size, role: 'taker' },
      ],
    };
  }
  return {
    kind: 'MERGE',
    takerCollateral: takerValue,
    makerCollateral: makerValue,
    moves: [
      { address: maker.address, asset: maker.tokenId, delta: -size, role: 'maker' },
      { address: maker.address, asset: collateral, delta: makerValue, role: 'maker' },
      { address: taker.address, asset: taker.tokenId, delta: -size, role: 'taker' },
      { address: taker.address, asset: collateral, delta: takerValue, role: 'taker' },
    ],
  };
}
