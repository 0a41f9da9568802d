import { formatUnits } from '../../protocol/amounts.js';
import type { MakerFillWireFields, TradeWireFields } from '../../protocol/streamEvents.js';
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
  /** Fee of this fill paid by the reader, collateral: the taker fee on the taker's row, 0 on the maker's (decisions §10). */
  fee: string;
  /** The maker's rebate on this fill (decisions §10), on the maker's row when the market pays one. */
  rebate?: string;
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

/** An outcome's label on the trade's market (its index as text when the market is unknown). */
export type OutcomeLabel = (index: 0 | 1) => string;

/** The trade fields REST and the user channel share, written once for both. */
export function tradeWireFields(t: TradeRow, label: OutcomeLabel): TradeWireFields {
  return {
    id: t.id,
    taker_order_id: t.takerOrderId,
    market: t.conditionId,
    asset_id: t.takerAssetId,
    side: t.takerSide,
    size: formatUnits(t.size),
    price: formatUnits(t.price),
    outcome: label(t.takerOutcomeIndex),
    transaction_hash: t.transactionHash,
  };
}

/** The maker fill fields REST and the user channel share. */
export function makerFillWireFields(t: TradeRow, label: OutcomeLabel): MakerFillWireFields {
  return {
    order_id: t.makerOrderId,
    maker_address: t.makerAddress,
    asset_id: t.makerAssetId,
    matched_amount: formatUnits(t.size),
    price: formatUnits(t.makerPrice),
    outcome: label(t.makerOutcomeIndex),
    side: t.makerSide,
  };
}

export function toTradeRecord(t: TradeRow, outcomes: readonly [string, string] | undefined, viewer: string | undefined): TradeRecord {
  const label: OutcomeLabel = (i) => outcomes?.[i] ?? String(i);
  const seconds = String(Math.floor(t.matchTime / 1000));
  const asMaker = viewer !== undefined && viewer === t.makerOwner && viewer !== t.takerOwner;
  return {
    ...tradeWireFields(t, label),
    // The reader's own fee: a maker's row shows the maker's rate and pays no fee (only takers pay, decisions §10),
    // but may earn a rebate.
    fee_rate_bps: asMaker ? t.makerFeeRateBps : t.takerFeeRateBps,
    fee: asMaker ? '0' : formatUnits(t.fee),
    ...(asMaker && t.makerRebate > 0n ? { rebate: formatUnits(t.makerRebate) } : {}),
    status: 'CONFIRMED',
    match_time: seconds,
    last_update: seconds,
    outcome_index: t.takerOutcomeIndex,
    bucket_index: 0,
    owner: t.takerOwner,
    maker_address: t.takerAddress,
    trader_side: asMaker ? 'MAKER' : 'TAKER',
    type: t.kind,
    maker_orders: [{ ...makerFillWireFields(t, label), owner: t.makerOwner, fee_rate_bps: t.makerFeeRateBps, outcome_index: t.makerOutcomeIndex }],
  };
}
