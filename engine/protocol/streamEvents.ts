import type { FeeScheduleWire } from './feeSchedule.js';
/**
 * Wire types of the stream endpoints (docs/api-streams.md): the public market and user channel events
 * plus this exchange's `seq` (and `hash` on every book change). Amounts are decimal strings; market
 * timestamps are unix milliseconds, user timestamps unix seconds, both as strings.
 */
export interface WireLevel {
  price: string;
  size: string;
}

export interface BookEvent {
  event_type: 'book';
  asset_id: string;
  market: string;
  bids: WireLevel[];
  asks: WireLevel[];
  timestamp: string;
  hash: string;
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
  /** The seq of the last change this snapshot includes; the next event has seq + 1. */
  seq: number;
}

export interface PriceChange {
  asset_id: string;
  price: string;
  size: string;
  side: 'BUY' | 'SELL';
  hash: string;
  best_bid: string;
  best_ask: string;
}

export interface PriceChangeEvent {
  event_type: 'price_change';
  /** Also at the top level: a change that only traded has no level changes to name the asset in (this exchange always sends it; the public service may not). */
  asset_id?: string;
  market: string;
  timestamp: string;
  price_changes: PriceChange[];
  hash: string;
  seq: number;
}

export interface LastTradePriceEvent {
  event_type: 'last_trade_price';
  asset_id: string;
  market: string;
  price: string;
  size: string;
  side: 'BUY' | 'SELL';
  fee_rate_bps: string;
  timestamp: string;
  transaction_hash: string;
  seq: number;
}

export interface TickSizeChangeEvent {
  event_type: 'tick_size_change';
  asset_id: string;
  market: string;
  old_tick_size: string;
  new_tick_size: string;
  timestamp: string;
  /** The book hash on the new tick (the tick is part of the hashed snapshot). */
  hash: string;
  seq: number;
}

export interface BestBidAskEvent {
  event_type: 'best_bid_ask';
  market: string;
  asset_id: string;
  best_bid: string;
  best_ask: string;
  spread: string;
  timestamp: string;
  seq: number;
}

export interface MarketLifecycleEvent {
  event_type: 'new_market' | 'market_resolved';
  /** The subscribed asset this copy went to (its seq is that asset's). */
  asset_id?: string;
  id: string;
  question: string;
  market: string;
  slug: string;
  description: string;
  assets_ids: string[];
  outcomes: string[];
  winning_asset_id?: string;
  winning_outcome?: string;
  /** new_market: the base fee in bps, whether fills pay a fee, and the schedule (decisions §10). */
  taker_base_fee?: number;
  fees_enabled?: boolean;
  fee_schedule?: FeeScheduleWire;
  timestamp: string;
  seq?: number;
}

export interface StreamErrorEvent {
  event_type: 'error';
  message: string;
}

export type MarketEvent = BookEvent | PriceChangeEvent | LastTradePriceEvent | TickSizeChangeEvent | BestBidAskEvent | MarketLifecycleEvent | StreamErrorEvent;

export interface OrderEvent {
  event_type: 'order';
  type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION';
  id: string;
  owner: string;
  order_owner: string;
  market: string;
  asset_id: string;
  side: 'BUY' | 'SELL';
  outcome: string;
  price: string;
  original_size: string;
  size_matched: string;
  associate_trades: string[];
  timestamp: string;
  seq: number;
}

/**
 * The fields a trade carries alike on REST (GET /data/trades) and on the user channel, taker-centric:
 * `side`, `size`, `price`, `asset_id` and `outcome` are the taker order's.
 */
export interface TradeWireFields {
  id: string;
  taker_order_id: string;
  market: string;
  asset_id: string;
  side: 'BUY' | 'SELL';
  size: string;
  price: string;
  outcome: string;
  transaction_hash: string;
}

/** The maker's fill of a trade, as both REST and the user channel tell it (REST adds fee and outcome index). */
export interface MakerFillWireFields {
  order_id: string;
  maker_address: string;
  asset_id: string;
  matched_amount: string;
  /** On the maker's token. */
  price: string;
  outcome: string;
  side: 'BUY' | 'SELL';
}

export interface TradeEvent extends TradeWireFields {
  event_type: 'trade';
  type: 'TRADE';
  status: 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';
  owner: string;
  trade_owner: string;
  trader_side: 'TAKER' | 'MAKER';
  matchtime: string;
  last_update: string;
  timestamp: string;
  maker_orders: Array<MakerFillWireFields & { owner: string }>;
  seq: number;
}

export type UserEvent = OrderEvent | TradeEvent | StreamErrorEvent;

/** An event as its channel builds it, before the connection's (or asset's) `seq` is stamped on. */
export type Unsequenced<E> = E extends unknown ? Omit<E, 'seq'> : never;

/** The compact JSON GET /book would answer for this state (its key order), with "hash":"" — what the hash covers. */
export function bookHashText(s: Omit<BookEvent, 'event_type' | 'seq' | 'hash'>): string {
  return JSON.stringify({
    market: s.market,
    asset_id: s.asset_id,
    timestamp: s.timestamp,
    hash: '',
    bids: s.bids,
    asks: s.asks,
    min_order_size: s.min_order_size,
    tick_size: s.tick_size,
    neg_risk: s.neg_risk,
    last_trade_price: s.last_trade_price,
  });
}

/** A frame of the real-time data socket (`/ws/live-data`), as @polymarket/real-time-data-client reads it. */
export interface LiveDataFrame {
  topic: string;
  type: string;
  /** Unix ms. */
  timestamp: number;
  payload: object;
  connection_id: string;
}
