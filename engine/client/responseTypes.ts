/**
 * Response shapes the client reads (interface §2, decisions §3–§7, reference data-api.md). Where the
 * protocol declares a record (its TypeBox schemas), the client's type is that declaration; the index
 * signatures keep fields a newer server adds reachable without casts.
 */
import type { Address } from 'viem';
import type { BookLevelText, BookSnapshot } from '../protocol/bookHash.js';
import type { Side } from '../protocol/eip712.js';
import type { ClobMarketInfoJson, SimplifiedMarketJson } from '../protocol/schemas/compat.js';
import type { ActivityJson, ClosedPositionJson, HolderGroupJson, PositionJson, TradeJson } from '../protocol/schemas/data.js';
import type { PublicMarketJson } from '../protocol/schemas/markets.js';
import type { BalanceAllowanceJson, CancelResultJson, OrderHistoryEntryJson, OrderRecordJson, QueueEntryJson, TradeRecordJson } from '../protocol/schemas/orders.js';

export interface Page<R> {
  limit: number;
  count: number;
  /** Base64 offset; "LTE=" after the last page. */
  next_cursor: string;
  data: R[];
}

export interface ExchangeConfig {
  chainId: number;
  rpcUrl: string | null;
  contracts: {
    exchange: Address | null;
    negRiskExchange: Address | null;
    /** verifyingContract of V2 orders (domain version "2"). */
    exchangeV2: Address | null;
    negRiskExchangeV2: Address | null;
    collateral: Address | null;
    conditionalTokens: Address | null;
    safeFactory: Address | null;
    safeSingleton: Address | null;
    multiSend: Address | null;
    proxyFactory: Address | null;
    relayHub: Address | null;
  };
}

export interface PlacementResult {
  success: boolean;
  error_msg: string;
  order_hashes: string[];
  error_code?: string | null;
  order_id?: string | null;
  status?: 'live' | 'matched' | 'delayed' | 'unmatched';
  [field: string]: unknown;
}

export interface OrderRecord extends OrderRecordJson {
  [field: string]: unknown;
}

/** GET /data/orders/history's entry: an order record and, for a cancelled order, why it ended. */
export interface OrderHistoryEntry extends OrderHistoryEntryJson {
  [field: string]: unknown;
}

export interface LookupEntry {
  order_id: string;
  status: number;
  order?: OrderRecord;
  error?: string;
}

export type CancelResult = CancelResultJson;

/** GET /data/orders/queue's entry: shares ahead of a resting order at its price, and the level's total. */
export type QueueEntry = QueueEntryJson;

export interface Trade extends TradeRecordJson {
  [field: string]: unknown;
}

/** 6-decimal integer strings. */
export interface BalanceAllowance extends BalanceAllowanceJson {
  [field: string]: unknown;
}

export interface RedeemResult {
  [field: string]: unknown;
}

export type BookLevel = BookLevelText;

export type OrderBook = BookSnapshot;

export interface Market extends PublicMarketJson {
  [field: string]: unknown;
}

/** GET /clob-markets/{condition_id}: the compact market info of clob-client-v2. */
export type ClobMarketInfo = ClobMarketInfoJson;

/** A row of /simplified-markets and /sampling-simplified-markets. */
export interface SimplifiedMarket extends SimplifiedMarketJson {
  [field: string]: unknown;
}

/** A notification of GET /notifications (the public shape; this exchange sends none). */
export interface Notification {
  type: number;
  owner: string;
  payload: unknown;
}

type SortDirection = 'ASC' | 'DESC';

export interface PositionsQuery {
  user: string;
  market?: string | string[];
  eventId?: string | string[];
  sizeThreshold?: number;
  redeemable?: boolean;
  mergeable?: boolean;
  limit?: number;
  offset?: number;
  sortBy?: string;
  sortDirection?: SortDirection;
  title?: string;
}

export interface Position extends PositionJson {
  [field: string]: unknown;
}

export interface ClosedPositionsQuery {
  user: string;
  market?: string | string[];
  eventId?: string | string[];
  title?: string;
  limit?: number;
  offset?: number;
  sortBy?: string;
  sortDirection?: SortDirection;
}

export interface ClosedPosition extends ClosedPositionJson {
  [field: string]: unknown;
}

export interface DataTradesQuery {
  user?: string;
  market?: string | string[];
  eventId?: string | string[];
  limit?: number;
  offset?: number;
  takerOnly?: boolean;
  filterType?: 'CASH' | 'TOKENS';
  filterAmount?: number;
  side?: Side;
  start?: number;
  end?: number;
}

export interface DataTrade extends TradeJson {
  side: Side;
  [field: string]: unknown;
}

export interface ActivityQuery {
  user: string;
  market?: string | string[];
  eventId?: string | string[];
  type?: string | string[];
  limit?: number;
  offset?: number;
  start?: number;
  end?: number;
  sortBy?: 'TIMESTAMP' | 'TOKENS' | 'CASH';
  sortDirection?: SortDirection;
  side?: Side;
}

export interface Activity extends ActivityJson {
  [field: string]: unknown;
}

export type HolderGroup = HolderGroupJson;
