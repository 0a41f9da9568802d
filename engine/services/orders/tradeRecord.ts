import { formatUnits } from '../../protocol/amounts.js';
import type { TradeRow } from '../../store/tradeRepo.js';

export interface MakerOrderRecord {
  order_id: string;
  owner: string;
  maker_address: string;
  matched_amount: string;
  price: string;
  fee_rate_bps: string;
  asset_id: string;
  outcome: string;
  outcome_index: number;
  side: TradeRow['makerSide'];
}

/**
 * The public trade record (trading-api.md §11): taker-centric (`side`, `size`, `price`, `asset_id` are
 * the taker order's; the maker's fill is in `maker_orders`), `trader_side` says which side the reader was on.
 * One record per maker fill, so `maker_orders` has one element. Settlement is immediate: status CONFIRMED.
 */
export interface TradeRecord {
  id: string;
  taker_order_id: string;
  market: string;
  asset_id: string;
  side: TradeRow['takerSide'];
  size: string;
  fee_rate_bps: string;
  /** Fee of this fill paid by the reader, collateral: the taker fee on the taker's row, 0 on the maker's (decisions §9). */
  fee: string;
  price: string;
  status: 'CONFIRMED';
  match_time: string;
  last_update: string;
  outcome: string;
  outcome_index: number;
  bucket_index: number;
  owner: string;
  maker_address: string;
  transaction_hash: string;
  trader_side: 'TAKER' | 'MAKER';
  type: TradeRow['kind'];
  maker_orders: MakerOrderRecord[];
}

export function toTradeRecord(t: TradeRow, outcomes: readonly [string, string] | undefined, viewer: string | undefined): TradeRecord {
  const label = (i: 0 | 1): string => outcomes?.[i] ?? String(i);
  const seconds = String(Math.floor(t.matchTime / 1000));
  const asMaker = viewer !== undefined && viewer === t.makerOwner && viewer !== t.takerOwner;
  return {
    id: t.id,
    taker_order_id: t.takerOrderId,
    market: t.conditionId,
    asset_id: t.takerAssetId,
    side: t.takerSide,
    size: formatUnits(t.size),
    // The reader's own fee: a maker's row shows the maker's rate and pays no fee (only takers pay, decisions §9).
    fee_rate_bps: asMaker ? t.makerFeeRateBps : t.takerFeeRateBps,
    fee: asMaker ? '0' : formatUnits(t.fee),
    price: formatUnits(t.price),
    status: 'CONFIRMED',
    match_time: seconds,
    last_update: seconds,
    outcome: label(t.takerOutcomeIndex),
    outcome_index: t.takerOutcomeIndex,
    bucket_index: 0,
    owner: t.takerOwner,
    maker_address: t.takerAddress,
    transaction_hash: t.transactionHash,
    trader_side: asMaker ? 'MAKER' : 'TAKER',
    type: t.kind,
    maker_orders: [
      {
        order_id: t.makerOrderId,
        owner: t.makerOwner,
        maker_address: t.makerAddress,
        matched_amount: formatUnits(t.size),
        price: formatUnits(t.makerPrice),
        fee_rate_bps: t.makerFeeRateBps,
        asset_id: t.makerAssetId,
        outcome: label(t.makerOutcomeIndex),
        outcome_index: t.makerOutcomeIndex,
        side: t.makerSide,
      },
    ],
  };
}
