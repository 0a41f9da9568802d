/**
 * Response shapes the client reads (interface §2, decisions §3–§7, reference data-api.md). Records
 * carry more fields than listed; the index signatures keep them reachable without casts.
 */
import type { Address } from 'viem';
import type { Side } from '../protocol/eip712.js';

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

export interface OrderRecord {
  id: string;
  status: 'open' | 'partially_filled' | 'filled' | 'cancelled';
  market: string;
  outcome: string;
  assetId: string;
  makerAddress: string;
  owner: string;
  price: string;
  side: Side;
  originalSize: string;
  sizeMatched: string;
  expiration: string;
  type: 'GTC' | 'GTD' | 'FOK' | 'FAK';
  associateTrades: string[];
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export interface LookupEntry {
  order_id: string;
  status: number;
  order?: OrderRecord;
  error?: string;
}

export interface CancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

export interface Trade {
  id: string;
  market: string;
  asset_id: string;
  side: Side;
  size: string;
  price: string;
  status: string;
  [field: string]: unknown;
}

export interface BalanceAllowance {
  /** 6-decimal integer strings. */
  balance: string;
  allowance: string;
  reserved: string;
  [field: string]: unknown;
}

export interface RedeemResult {
  [field: string]: unknown;
}

export interface BookLevel {
  price: string;
  size: string;
}

export interface OrderBook {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  /** Ascending: best bid last. */
  bids: BookLevel[];
  /** Descending: best ask last. */
  asks: BookLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price?: string;
}

export interface Market {
  condition_id: string;
  question: string;
  tokens: Array<{ token_id: string; outcome: string; price: number; winner: boolean }>;
  minimum_order_size: number;
  minimum_tick_size: number;
  neg_risk: boolean;
  [field: string]: unknown;
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

export interface Position {
  proxyWallet: string;
  asset: string;
  conditionId: string;
  size: number;
  avgPrice: number;
  initialValue: number;
  currentValue: number;
  cashPnl: number;
  percentPnl: number;
  realizedPnl: number;
  curPrice: number;
  redeemable: boolean;
  mergeable: boolean;
  outcome: string;
  outcomeIndex: number;
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

export interface ClosedPosition {
  proxyWallet: string;
  asset: string;
  conditionId: string;
  avgPrice: number;
  totalBought: number;
  realizedPnl: number;
  curPrice: number;
  timestamp: number;
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

export interface DataTrade {
  proxyWallet: string;
  side: Side;
  asset: string;
  conditionId: string;
  size: number;
  price: number;
  timestamp: number;
  transactionHash: string;
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

export interface Activity {
  proxyWallet: string;
  timestamp: number;
  conditionId: string;
  type: string;
  size: number;
  usdcSize: number;
  price: number;
  [field: string]: unknown;
}

export interface HolderGroup {
  token: string;
  holders: Array<{ proxyWallet: string; asset: string; amount: number; outcomeIndex: number; [field: string]: unknown }>;
}
