/**
 * Wire shapes the terminal reads, in the terminal's words. Each is the client library's (or the
 * protocol's) declaration, so the terminal and the engine cannot drift apart.
 */
import type { TxResult } from '../../../engine/client/relayerClient.js';

export type {
  ApiCredentials as ApiKeyCreds,
  BalanceAllowance,
  BookLevel,
  CancelResult,
  ExchangeConfig,
  HolderGroup,
  Market,
  OrderBook as BookSnapshot,
  OrderRecord,
  OrderHistoryEntry,
  Page,
  PlacementResult,
  Position,
  QueueEntry,
  Trade as TradeRecord,
} from '../../../engine/client/index.js';
export type { DeployedResponse as DeployedStatus, TransactionRecord as RelayerTransaction } from '../../../engine/protocol/schemas/relayer.js';

/** POST /wallet/safe (or /wallet/proxy): the transaction and the wallet it created. */
export type WalletDeployResult = TxResult & { safe?: string; proxyWallet?: string };
