/**
 * What the terminal asks of the exchange, in the terminal's own words. Implemented over the engine's
 * isomorphic client library (engine/client) in clientAdapter.ts; panels only see this interface.
 */
import type { Account } from 'viem';
import type { OrderType, Side } from '../../../engine/protocol/eip712.js';
import type {
  ApiKeyCreds,
  BalanceAllowance,
  BookSnapshot,
  CancelResult,
  DeployedStatus,
  ExchangeConfig,
  HolderGroup,
  Market,
  OrderRecord,
  OrderHistoryEntry,
  PlacementResult,
  Position,
  QueueEntry,
  RelayerTransaction,
  TradeRecord,
  WalletDeployResult,
} from './types.js';

export interface PublicApi {
  config(): Promise<ExchangeConfig>;
  markets(): Promise<Market[]>;
  book(tokenId: string): Promise<BookSnapshot>;
  /** The public trade tape of one token, newest first. */
  tape(tokenId: string): Promise<TradeRecord[]>;
  positions(user: string): Promise<Position[]>;
  holders(conditionId: string): Promise<HolderGroup[]>;
  safeDeployed(owner: string): Promise<DeployedStatus>;
  /** GET /ok: rejects when the engine does not answer. */
  health(): Promise<string>;
}

export interface OrderTicket {
  market: Market;
  tokenId: string;
  side: Side;
  /** Decimal text, on the market's tick. */
  price: string;
  /** Shares, decimal text. */
  size: string;
  orderType: OrderType;
  /** Unix seconds, GTD only (already including the one-minute buffer). */
  expiration?: number;
  /** Rejected instead of matching when it would take liquidity (GTC/GTD only). */
  postOnly?: boolean;
}

/** Calls that need the wallet (L1) or its API credentials (L2). */
export interface TraderApi {
  readonly address: string;
  readonly hasCredentials: boolean;
  createApiKey(): Promise<ApiKeyCreds>;
  apiKeys(): Promise<string[]>;
  /** Revokes the key these credentials belong to (DELETE /auth/api-key revokes the signing key). */
  revokeApiKey(creds: ApiKeyCreds): Promise<void>;
  balance(): Promise<BalanceAllowance>;
  placeOrder(ticket: OrderTicket): Promise<PlacementResult>;
  openOrders(): Promise<OrderRecord[]>;
  /** Every order of the wallet, newest first, with why each cancelled one ended (GET /data/orders/history). */
  orderHistory(): Promise<OrderHistoryEntry[]>;
  /** Shares ahead of each resting order at its price, and the level's total (GET /data/orders/queue). */
  queuePositions(): Promise<QueueEntry[]>;
  /** One order by id, whatever its status (follows a placement: filled, partly filled, cancelled). */
  order(orderId: string): Promise<OrderRecord>;
  redeem(conditionId: string): Promise<unknown>;
  trades(): Promise<TradeRecord[]>;
  cancel(orderId: string): Promise<CancelResult>;
  cancelAll(): Promise<CancelResult>;
  relayerTransactions(): Promise<RelayerTransaction[]>;
  deploySafe(): Promise<WalletDeployResult>;
  /** A SAFE transaction from the wallet's Safe approving collateral and outcome tokens to the exchanges. */
  approveTrading(): Promise<{ transactionID: string; state: string }>;
}

export interface AdminApi {
  faucet(address: string, amount: string): Promise<unknown>;
  createMarket(body: { question: string; outcomes?: string[]; tickSize: string; minOrderSize: string; negRisk?: boolean }): Promise<Market>;
  pause(conditionId?: string): Promise<unknown>;
  resume(conditionId?: string): Promise<unknown>;
  resolve(conditionId: string, winningOutcomeIndex: number): Promise<unknown>;
}

export interface TraderContext {
  account: Account;
  creds: ApiKeyCreds | undefined;
  config: ExchangeConfig;
}

/** A server error as the terminal shows it: HTTP status, stable code, sentence. */
export interface ShownError {
  status?: number;
  code: string;
  message: string;
}
