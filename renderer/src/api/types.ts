/**
 * Wire shapes the terminal reads, as the contract and decisions define them. Only the fields the
 * terminal shows are typed; everything else passes through untouched.
 */
import type { Address, OrderType, Side } from '../../../engine/protocol/eip712.js';

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

export interface MarketToken {
  token_id: string;
  outcome: string;
  price: number;
  winner: boolean;
}

export interface Market {
  condition_id: string;
  question: string;
  market_slug?: string;
  tokens: MarketToken[];
  minimum_order_size: number | string;
  minimum_tick_size: number | string;
  neg_risk: boolean;
  active?: boolean;
  closed?: boolean;
  accepting_orders?: boolean;
  paused?: boolean;
  end_date_iso?: string | null;
  event_id?: number;
}

export interface Page<T> {
  limit: number;
  count: number;
  next_cursor: string;
  data: T[];
}

export interface BookLevel {
  price: string;
  size: string;
}

export interface BookSnapshot {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  /** Ascending: the best bid is the LAST element (the public clients' wire order). */
  bids: BookLevel[];
  /** Descending: the best ask is the LAST element. */
  asks: BookLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price?: string;
}

export interface TradeRecord {
  id: string;
  market: string;
  asset_id: string;
  side: Side;
  size: string;
  price: string;
  status: string;
  match_time: string;
  outcome: string;
  outcome_index?: number;
  trader_side?: 'TAKER' | 'MAKER';
  maker_orders?: { order_id: string; matched_amount: string; price: string; side: Side; outcome: string; asset_id: string }[];
}

export interface OrderRecord {
  id: string;
  status: string;
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
  type: OrderType;
  createdAt: string;
  updatedAt: string;
}

export interface PlacementResult {
  success: boolean;
  error_msg: string;
  order_hashes: string[];
  error_code?: string | null;
  order_id?: string | null;
  status?: string;
}

export interface CancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

export interface BalanceAllowance {
  balance: string;
  allowance: string;
  reserved?: string;
}

export interface ApiKeyCreds {
  key: string;
  secret: string;
  passphrase: string;
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
  title: string;
  outcome: string;
  outcomeIndex: number;
}

export interface HolderGroup {
  token: string;
  holders: { proxyWallet: string; asset: string; amount: number; outcomeIndex: number; pseudonym?: string; name?: string }[];
}

export interface RelayerTransaction {
  transactionID: string;
  transactionHash?: string;
  txHash?: string;
  state: string;
  type?: string;
  from?: string;
  to?: string;
  proxyAddress?: string;
  nonce?: string;
  metadata?: string | null;
  errorMsg?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface DeployedStatus {
  deployed: boolean;
  address: string;
}

export interface WalletDeployResult {
  txHash: string;
  confirmations: number;
  safe?: string;
  proxyWallet?: string;
  transactionID?: string;
}
