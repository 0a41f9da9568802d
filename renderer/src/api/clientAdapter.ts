/**
 * The terminal's API (terminalApi.ts) over the engine's isomorphic client library: ExchangeClient
 * (engineer B) for the trading, data and operator routes, RelayerClient and the relayer signers
 * (engineer F) for the relayer. Panels only see terminalApi.ts, so this is the one place that knows
 * the client library.
 */
import type { LocalAccount } from 'viem';
import { encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { ClientHttpError, END_CURSOR, ExchangeClient, INITIAL_CURSOR, getOrderRawAmounts, toTickSize } from '../../../engine/client/index.js';
import { RelayerClient } from '../../../engine/client/relayerClient.js';
import { buildSafeSubmit, buildWalletSafeBody, type RelayerSigner } from '../../../engine/client/relayerSigners.js';
import type { Address, Side } from '../../../engine/protocol/eip712.js';
import { SERVICES, type ServiceUrls } from '../env.js';
import { rateLimitFetch } from './rateLimitUse.js';
import type { AdminApi, PublicApi, TraderApi, TraderContext } from './terminalApi.js';
import type { Market, Page, PlacementResult, TradeRecord } from './types.js';

/** The client library's HTTP error: status, stable code, and the server body. */
export { ClientHttpError as HttpError };

function asArray<T>(v: unknown): T[] {
  if (!v) return [];
  return Array.isArray(v) ? (v as T[]) : (((v as Page<T>).data ?? []) as T[]);
}

function exchangeClient(urls: ServiceUrls, extra: ConstructorParameters<typeof ExchangeClient>[0] extends infer O ? Partial<O> : never = {}) {
  // Every answer's rate-limit headers feed the status bar's usage meter.
  return new ExchangeClient({ baseUrl: urls.trading, dataUrl: urls.data, fetch: rateLimitFetch, ...extra });
}

export function createPublicApi(urls: ServiceUrls = SERVICES): PublicApi {
  const client = exchangeClient(urls);
  return {
    config: async () => client.getConfig(),
    async markets() {
      const out: Market[] = [];
      let cursor = INITIAL_CURSOR;
      // Follow next_cursor to the end marker; the cap guards against a server that never ends.
      for (let i = 0; i < 50 && cursor !== END_CURSOR; i++) {
        const page = await client.getMarkets(cursor);
        out.push(...page.data);
        if (!page.next_cursor || page.next_cursor === cursor) break;
        cursor = page.next_cursor;
      }
      return out;
    },
    book: async (tokenId) => client.getBook(tokenId),
    tape: async (tokenId) => asArray<TradeRecord>(await client.getMarketTrades({ asset_id: tokenId })),
    positions: async (user) => client.positions({ user, sizeThreshold: 0 }),
    holders: async (conditionId) => client.holders({ market: conditionId, minBalance: 0 }),
    health: async () => client.ok(),
    safeDeployed: (owner) => new RelayerClient({ baseUrl: urls.relayer }).getDeployed(owner, 'SAFE'),
  };
}

export const publicApi = createPublicApi();

/**
 * Limit-order amounts with the client library's rounding (trading-api.md §8), as 6-dp base-unit
 * strings, so the ticket shows exactly what will be signed.
 */
export function limitOrderAmounts(t: { side: Side; price: string; size: string; tickSize: string }): { makerAmount: string; takerAmount: string } {
  const r = getOrderRawAmounts(t.side, t.size, t.price, toTickSize(t.tickSize));
  return { makerAmount: r.makerAmount.toString(), takerAmount: r.takerAmount.toString() };
}

export function createTraderApi(ctx: TraderContext, urls: ServiceUrls = SERVICES): TraderApi {
  const { account, config } = ctx;
  const address = account.address;
  // A burner is a LocalAccount; the injected wallet is a viem custom account with the same signing methods.
  const signer = account as LocalAccount;
  const client = exchangeClient(urls, { chainId: config.chainId, signer, ...(ctx.creds ? { creds: ctx.creds } : {}) });

  // The relayer's client signs its L2 requests itself.
  const relayer = () => {
    if (!ctx.creds) throw new Error('This wallet has no API key yet: create one in the API keys panel.');
    return new RelayerClient({ baseUrl: urls.relayer, credentials: { address, ...ctx.creds } });
  };

  return {
    address,
    hasCredentials: !!ctx.creds,
    // The L1 nonce only has to grow per address; milliseconds keep two keys made in one second distinct.
    createApiKey: () => client.createApiKey(BigInt(Date.now())),
    apiKeys: async () => (await client.getApiKeys()).apiKeys ?? [],
    async revokeApiKey(creds) {
      // DELETE /auth/api-key revokes the key that signs the request.
      await exchangeClient(urls, { chainId: config.chainId, signer, creds }).deleteApiKey();
    },
    balance: async () => client.getBalanceAllowance({ asset_type: 'COLLATERAL', signature_type: 0 }),
    async placeOrder(t) {
      const order = await client.createOrder({
        tokenId: t.tokenId,
        side: t.side,
        price: t.price,
        size: t.size,
        tickSize: String(t.market.minimum_tick_size),
        negRisk: t.market.neg_risk,
        conditionId: t.market.condition_id,
        // A fee-charging market (a mirrored public one, or a local one with a fee schedule) refuses an order
        // signed below its base fee, as the public exchange does; the market record carries it.
        feeRateBps: t.market.taker_base_fee ?? 0,
        ...(t.orderType === 'GTD' && t.expiration ? { expiration: t.expiration } : {}),
      });
      try {
        return await client.postOrder(order, t.orderType, t.postOnly ? { postOnly: true } : {});
      } catch (e) {
        // A rejected order is a placement result with success=false, sent with HTTP 400 (decisions §3).
        if (e instanceof ClientHttpError && e.body && typeof (e.body as PlacementResult).success === 'boolean') return e.body as PlacementResult;
        throw e;
      }
    },
    openOrders: async () => client.getOpenOrders(),
    orderHistory: async () => client.getOrderHistory(),
    queuePositions: async () => client.getQueuePositions(),
    order: async (orderId) => client.getOrder(orderId),
    redeem: async (conditionId) => client.redeem(conditionId),
    trades: async () => client.getTrades(),
    cancel: async (orderId) => client.cancelOrder(orderId),
    cancelAll: async () => client.cancelAll(),
    relayerTransactions: async () => relayer().getTransactions(),
    async deploySafe() {
      const factory = config.contracts.safeFactory;
      if (!factory) throw new Error('GET /config names no Safe factory: the engine runs without a chain.');
      const body = await buildWalletSafeBody(account as RelayerSigner, { chainId: config.chainId, safeFactory: factory });
      return relayer().walletSafe(body);
    },
    async approveTrading() {
      const { collateral, conditionalTokens, exchange, negRiskExchange, multiSend } = config.contracts;
      if (!collateral || !conditionalTokens || !exchange || !multiSend) throw new Error('GET /config names no collateral, exchange or MultiSend contract: the engine runs without a chain.');
      const client = relayer();
      const safe = await client.getDeployed(address, 'SAFE');
      if (!safe.deployed) throw new Error('Deploy the Safe first: approvals are executed by the Safe.');
      const { nonce } = await client.getNonce(address, 'SAFE');
      // One MultiSend batch, as the public client does: collateral allowance and CTF operator approval for each exchange.
      const spenders = [exchange, ...(negRiskExchange ? [negRiskExchange] : [])];
      const calls = spenders.flatMap((spender) => [
        { to: collateral, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }) },
        { to: conditionalTokens, data: encodeFunctionData({ abi: SET_APPROVAL_FOR_ALL_ABI, functionName: 'setApprovalForAll', args: [spender, true] }) },
      ]);
      const body = await buildSafeSubmit(account as RelayerSigner, {
        chainId: config.chainId,
        safe: safe.address as Address,
        multiSend,
        nonce,
        calls,
        metadata: 'approve collateral and outcome tokens for trading',
      });
      return client.submit(body);
    },
  };
}

export function createAdminApi(operatorToken: string, urls: ServiceUrls = SERVICES): AdminApi {
  const client = exchangeClient(urls, { operatorToken });
  return {
    faucet: (address, amount) => client.faucet(address, amount),
    createMarket: async (body) => client.createMarket(body),
    pause: (conditionId) => client.pause(conditionId),
    resume: (conditionId) => client.resume(conditionId),
    resolve: (conditionId, winningOutcomeIndex) => client.resolve(conditionId, winningOutcomeIndex),
  };
}

const SET_APPROVAL_FOR_ALL_ABI = [
  {
    type: 'function',
    name: 'setApprovalForAll',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'operator', type: 'address' },
      { name: 'approved', type: 'bool' },
    ],
    outputs: [],
  },
] as const;

