/**
 * One client for the whole local exchange: trading routes (public, L1, L2), operator routes (bearer
 * token) and the data service. Isomorphic: global fetch, no node: modules. Routes and shapes follow
 * interface.md and decisions.md §2–§7; every non-2xx answer throws ClientHttpError with the server's
 * `{error, message}`.
 */
import type { Address } from 'viem';
import type { OrderType, PostOrderBody, Side, SignedOrder } from '../protocol/eip712.js';
import { buildMarketOrder, buildOrder, type LimitOrderParams, type MarketOrderParams } from './buildOrder.js';
import { ClientHttpError } from './clientHttpError.js';
import { createL1Headers } from './createL1Headers.js';
import { createL2Headers, type ApiCredentials } from './createL2Headers.js';
import { calculateMarketPrice, type TickSize } from './orderAmounts.js';
import { signerAddress, type TypedDataSigner } from './signer.js';
import { signOrder } from './signOrder.js';
import type * as T from './responseTypes.js';
import type { Static } from '@sinclair/typebox';
import type { AdvanceClockResponse, ClockStatusResponse } from '../protocol/schemas/clock.js';

export interface ExchangeClientOptions {
  /** Trading service base URL, e.g. http://127.0.0.1:PORT (a trailing "/" is dropped). */
  baseUrl: string;
  /** Data service base URL; default `${baseUrl}/data-api`. */
  dataUrl?: string;
  /** Chain id of the signing domains; default: read from GET /config on first need. */
  chainId?: number;
  /** Signs L1 headers and orders: a viem account or a wallet client with an account. */
  signer?: TypedDataSigner;
  /** L2 credentials (createApiKey stores the ones it creates). */
  creds?: ApiCredentials;
  /** Funder of the orders for signature types 1/2 (proxy or Safe); default the signer. */
  funder?: Address;
  signatureType?: 0 | 1 | 2;
  /** Bearer token of the operator routes (printed in the ready line). */
  operatorToken?: string;
  /** Use GET /time for auth timestamps (when this clock may drift from the exchange's). */
  useServerTime?: boolean;
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | undefined | null>;

interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path relative to `base`, without the query string. */
  path: string;
  query?: Query;
  body?: unknown;
  auth?: 'L2' | 'operator';
  base?: 'trading' | 'data';
}

export const INITIAL_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

function queryString(q: Query | undefined): string {
  if (!q) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? '?' + parts.join('&') : '';
}

const csv = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(',') : v);

export class ExchangeClient {
  readonly baseUrl: string;
  readonly dataUrl: string;
  creds: ApiCredentials | undefined;
  private chainId: number | undefined;
  private readonly signer: TypedDataSigner | undefined;
  private readonly funder: Address | undefined;
  private readonly signatureType: 0 | 1 | 2;
  private readonly operatorToken: string | undefined;
  private readonly useServerTime: boolean;
  private readonly fetchImpl: typeof fetch;
  private configCache: Promise<T.ExchangeConfig> | undefined;
  private readonly tickCache = new Map<string, TickSize>();
  private readonly negRiskCache = new Map<string, boolean>();

  constructor(opts: ExchangeClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.dataUrl = (opts.dataUrl ?? `${this.baseUrl}/data-api`).replace(/\/+$/, '');
    this.chainId = opts.chainId;
    this.signer = opts.signer;
    this.creds = opts.creds;
    this.funder = opts.funder;
    this.signatureType = opts.signatureType ?? 0;
    this.operatorToken = opts.operatorToken;
    this.useServerTime = opts.useServerTime ?? false;
    this.fetchImpl = opts.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  }

  // -------------------------------------------------------------------------------------------
  // plumbing
  // -------------------------------------------------------------------------------------------

  /** The signer's address (SERVICE_ADDRESS and order `owner`). */
  get address(): Address {
    if (!this.signer) throw new Error('This call needs a signer: pass { signer } (a viem account or wallet client) to the client.');
    return signerAddress(this.signer);
  }

  private async timestamp(): Promise<number> {
    return this.useServerTime ? this.getTime() : Math.floor(Date.now() / 1000);
  }

  private requireCreds(): ApiCredentials {
    if (!this.creds) throw new Error('This call needs L2 credentials: call createApiKey() or pass { creds } to the client.');
    return this.creds;
  }

  private async request<R>(spec: RequestSpec, extraHeaders: Record<string, string> = {}): Promise<R> {
    const base = spec.base === 'data' ? this.dataUrl : this.baseUrl;
    const url = base + spec.path + queryString(spec.query);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (spec.auth === 'L2') {
      Object.assign(headers, createL2Headers(this.requireCreds(), this.address, { method: spec.method, path: spec.path, body, timestamp: await this.timestamp() }));
    } else if (spec.auth === 'operator') {
      if (!this.operatorToken) throw new Error('Operator calls need { operatorToken } (printed in the ready line as operatorToken).');
      headers.authorization = `Bearer ${this.operatorToken}`;
    }
    const res = await this.fetchImpl(url, { method: spec.method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
    }
    if (!res.ok) throw new ClientHttpError({ status: res.status, body: parsed, method: spec.method, url });
    return parsed as R;
  }

  private async pages<R>(path: string, query: Query): Promise<R[]> {
    const out: R[] = [];
    let cursor = INITIAL_CURSOR;
    for (let i = 0; i < 100_000 && cursor !== END_CURSOR; i++) {
      const page = await this.request<T.Page<R>>({ method: 'GET', path, query: { ...query, next_cursor: cursor }, auth: 'L2' });
      out.push(...page.data);
      if (!page.next_cursor || page.next_cursor === cursor) break;
      cursor = page.next_cursor;
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // credentials
  // -------------------------------------------------------------------------------------------

  /** POST /auth/api-key (L1). Stores the credentials in the client for the L2 calls that follow. */
  async createApiKey(nonce: number | bigint = 0): Promise<ApiCredentials> {
    if (!this.signer) throw new Error('createApiKey needs a signer.');
    const chainId = await this.resolveChainId();
    const headers = await createL1Headers(this.signer, chainId, nonce, await this.timestamp());
    const creds = await this.request<ApiCredentials>({ method: 'POST', path: '/auth/api-key' }, headers);
    this.creds = creds;
    return creds;
  }

  getApiKeys(): Promise<{ apiKeys: string[] }> {
    return this.request({ method: 'GET', path: '/auth/api-keys', auth: 'L2' });
  }

  deleteApiKey(): Promise<{ revoked: string }> {
    return this.request({ method: 'DELETE', path: '/auth/api-key', auth: 'L2' });
  }

  // -------------------------------------------------------------------------------------------
  // orders
  // -------------------------------------------------------------------------------------------

  private async resolveChainId(): Promise<number> {
    if (this.chainId === undefined) this.chainId = (await this.getConfig()).chainId;
    return this.chainId;
  }

  /** Tick size of a token (cached for the client's lifetime). */
  async tickSizeOf(tokenId: string): Promise<TickSize> {
    let t = this.tickCache.get(tokenId);
    if (!t) {
      t = String((await this.getTickSize(tokenId)).minimum_tick_size) as TickSize;
      this.tickCache.set(tokenId, t);
    }
    return t;
  }

  async negRiskOf(tokenId: string): Promise<boolean> {
    let n = this.negRiskCache.get(tokenId);
    if (n === undefined) {
      n = (await this.getNegRisk(tokenId)).neg_risk;
      this.negRiskCache.set(tokenId, n);
    }
    return n;
  }

  private async signWithExchange(order: ReturnType<typeof buildOrder>, negRisk: boolean): Promise<SignedOrder> {
    if (!this.signer) throw new Error('Signing orders needs a signer.');
    const config = await this.getConfig();
    const { exchange, negRiskExchange } = config.contracts;
    if (!exchange || !negRiskExchange) throw new Error('GET /config did not name the exchange contracts.');
    return signOrder(this.signer, order, { chainId: await this.resolveChainId(), exchange, negRiskExchange, negRisk });
  }

  /** Builds and signs a limit order; tick size, neg-risk flag and contracts come from the exchange unless given. */
  async createOrder(
    p: Omit<LimitOrderParams, 'signer' | 'tickSize'> & { tickSize?: LimitOrderParams['tickSize']; negRisk?: boolean },
  ): Promise<SignedOrder> {
    const tickSize = p.tickSize ?? (await this.tickSizeOf(p.tokenId));
    const order = buildOrder({ maker: this.funder, signatureType: this.signatureType, ...p, tickSize, signer: this.address });
    return this.signWithExchange(order, p.negRisk ?? (await this.negRiskOf(p.tokenId)));
  }

  /** Builds and signs a market order; without `price`, walks the current book for the worst price needed. */
  async createMarketOrder(
    p: Omit<MarketOrderParams, 'signer' | 'tickSize' | 'price'> & {
      price?: string | number;
      tickSize?: MarketOrderParams['tickSize'];
      negRisk?: boolean;
      orderType?: 'FOK' | 'FAK';
    },
  ): Promise<SignedOrder> {
    const tickSize = p.tickSize ?? (await this.tickSizeOf(p.tokenId));
    let price = p.price;
    if (price === undefined) {
      const book = await this.getBook(p.tokenId);
      price = calculateMarketPrice(p.side === 'BUY' ? book.asks : book.bids, p.side, p.amount, p.orderType ?? 'FOK');
    }
    const order = buildMarketOrder({ maker: this.funder, signatureType: this.signatureType, ...p, price, tickSize, signer: this.address });
    return this.signWithExchange(order, p.negRisk ?? (await this.negRiskOf(p.tokenId)));
  }

  /** POST /order. A rejected order throws ClientHttpError whose `body` is the placement result. */
  postOrder(order: SignedOrder, orderType: OrderType = 'GTC', opts: { postOnly?: boolean } = {}): Promise<T.PlacementResult> {
    const body: PostOrderBody = { order, owner: this.address, orderType };
    if (opts.postOnly !== undefined) body.postOnly = opts.postOnly;
    return this.request({ method: 'POST', path: '/order', body, auth: 'L2' });
  }

  /** POST /orders: 1–15 entries; one placement result per entry, in order. */
  postOrders(entries: Array<{ order: SignedOrder; orderType?: OrderType; postOnly?: boolean }>): Promise<T.PlacementResult[]> {
    const owner = this.address;
    const body = entries.map((e) => {
      const b: PostOrderBody = { order: e.order, owner, orderType: e.orderType ?? 'GTC' };
      if (e.postOnly !== undefined) b.postOnly = e.postOnly;
      return b;
    });
    return this.request({ method: 'POST', path: '/orders', body, auth: 'L2' });
  }

  getOrder(orderId: string): Promise<T.OrderRecord> {
    return this.request({ method: 'GET', path: `/data/order/${encodeURIComponent(orderId)}` });
  }

  /** Batch lookup (HTTP 207): one entry per id, in order. */
  lookupOrders(orderIds: string[]): Promise<T.LookupEntry[]> {
    return this.request({ method: 'POST', path: '/data/orders/lookup', body: orderIds.map((orderId) => ({ orderId })) });
  }

  cancelOrder(orderId: string): Promise<T.CancelResult> {
    return this.request({ method: 'DELETE', path: '/order', body: { orderID: orderId }, auth: 'L2' });
  }

  cancelOrders(orderIds: string[]): Promise<T.CancelResult> {
    return this.request({ method: 'DELETE', path: '/orders', body: orderIds, auth: 'L2' });
  }

  cancelAll(): Promise<T.CancelResult> {
    return this.request({ method: 'DELETE', path: '/cancel-all', auth: 'L2' });
  }

  cancelMarketOrders(p: { market?: string; asset_id?: string }): Promise<T.CancelResult> {
    return this.request({ method: 'DELETE', path: '/cancel-market-orders', body: p, auth: 'L2' });
  }

  /** GET /data/orders, every page (follows next_cursor until "LTE="). */
  getOpenOrders(p: { id?: string; market?: string; asset_id?: string } = {}): Promise<T.OrderRecord[]> {
    return this.pages('/data/orders', p);
  }

  /** GET /data/orders/history: every order of the caller (open, filled, cancelled, expired), newest first, with the cancel reason. */
  getOrderHistory(): Promise<T.OrderHistoryEntry[]> {
    return this.pages('/data/orders/history', {});
  }

  /** GET /data/orders/queue: where each of the caller's resting orders stands at its price (shares ahead, level total). */
  getQueuePositions(p: { market?: string; asset_id?: string } = {}): Promise<T.QueueEntry[]> {
    return this.request({ method: 'GET', path: '/data/orders/queue', query: p, auth: 'L2' });
  }

  /** GET /data/order/{id}/queue: one resting order's place in its level's queue. */
  getQueuePosition(orderId: string): Promise<T.QueueEntry> {
    return this.request({ method: 'GET', path: `/data/order/${encodeURIComponent(orderId)}/queue`, auth: 'L2' });
  }

  /** GET /data/trades, every page. */
  getTrades(p: { id?: string; maker_address?: string; market?: string; asset_id?: string; before?: number; after?: number } = {}): Promise<T.Trade[]> {
    return this.pages('/data/trades', p);
  }

  getBalanceAllowance(p: { asset_type: 'COLLATERAL' | 'CONDITIONAL'; token_id?: string; signature_type?: number }): Promise<T.BalanceAllowance> {
    return this.request({ method: 'GET', path: '/balance-allowance', query: p, auth: 'L2' });
  }

  /** POST /redeem: pays out the caller's positions of a resolved market. */
  redeem(conditionId: string): Promise<T.RedeemResult> {
    return this.request({ method: 'POST', path: '/redeem', body: { conditionId }, auth: 'L2' });
  }

  /**
   * POST /v1/heartbeats: arms (null) or feeds the dead man's switch of this API key. Send the returned
   * id with the next heartbeat within 10 s, or every resting order of the key's owner is cancelled.
   */
  postHeartbeat(heartbeatId: string | null = null): Promise<{ heartbeat_id: string }> {
    return this.request({ method: 'POST', path: '/v1/heartbeats', body: { heartbeat_id: heartbeatId }, auth: 'L2' });
  }

  /** GET /notifications: always [] on this exchange (public-client compatibility). */
  getNotifications(): Promise<T.Notification[]> {
    return this.request({ method: 'GET', path: '/notifications', query: { signature_type: this.signatureType }, auth: 'L2' });
  }

  /** DELETE /notifications?ids=a,b (1 to 100 ids). */
  dropNotifications(ids: string[]): Promise<T.Notification[]> {
    return this.request({ method: 'DELETE', path: '/notifications', query: { ids: ids.join(',') }, auth: 'L2' });
  }

  /** GET /order-scoring: always {"scoring":false} (no rewards program); 404 for an unknown order. */
  isOrderScoring(orderId: string): Promise<{ scoring: boolean }> {
    return this.request({ method: 'GET', path: '/order-scoring', query: { order_id: orderId }, auth: 'L2' });
  }

  /** POST /orders-scoring: {"<id>": false} per id (1 to 500 ids). */
  areOrdersScoring(orderIds: string[]): Promise<Record<string, boolean>> {
    return this.request({ method: 'POST', path: '/orders-scoring', body: orderIds, auth: 'L2' });
  }

  // -------------------------------------------------------------------------------------------
  // market data (public)
  // -------------------------------------------------------------------------------------------

  health(): Promise<string> {
    return this.request({ method: 'GET', path: '/' });
  }

  /** Server time, unix seconds. */
  getTime(): Promise<number> {
    return this.request({ method: 'GET', path: '/time' });
  }

  /** GET /config (cached): chain id, RPC URL and contract addresses. */
  getConfig(): Promise<T.ExchangeConfig> {
    if (!this.configCache) {
      this.configCache = this.request<T.ExchangeConfig>({ method: 'GET', path: '/config' });
      this.configCache.catch(() => (this.configCache = undefined));
    }
    return this.configCache;
  }

  getBook(tokenId: string): Promise<T.OrderBook> {
    return this.request({ method: 'GET', path: '/book', query: { token_id: tokenId } });
  }

  getBooks(params: Array<{ token_id: string; side?: Side }>): Promise<T.OrderBook[]> {
    return this.request({ method: 'POST', path: '/books', body: params });
  }

  /** BUY → best bid, SELL → best ask. */
  getPrice(tokenId: string, side: Side): Promise<{ price: string }> {
    return this.request({ method: 'GET', path: '/price', query: { token_id: tokenId, side } });
  }

  getPrices(params: Array<{ token_id: string; side: Side }>): Promise<Record<string, Partial<Record<Side, string>>>> {
    return this.request({ method: 'POST', path: '/prices', body: params });
  }

  getMidpoint(tokenId: string): Promise<{ mid: string }> {
    return this.request({ method: 'GET', path: '/midpoint', query: { token_id: tokenId } });
  }

  getSpread(tokenId: string): Promise<{ spread: string }> {
    return this.request({ method: 'GET', path: '/spread', query: { token_id: tokenId } });
  }

  getLastTradePrice(tokenId: string): Promise<{ price: string; side: Side | '' }> {
    return this.request({ method: 'GET', path: '/last-trade-price', query: { token_id: tokenId } });
  }

  /** `p` is each bucket's last trade price; this exchange adds OHLC `o h l c`, volume `v` and the closing mid `m`. */
  getPricesHistory(p: { market: string; interval?: string; startTs?: number; endTs?: number; fidelity?: number }): Promise<{ history: Array<{ t: number; p: number; o?: number; h?: number; l?: number; c?: number; v?: number; m?: number }> }> {
    return this.request({ method: 'GET', path: '/prices-history', query: p });
  }

  /** GET /trades: the public tape. */
  getMarketTrades(p: Query = {}): Promise<unknown> {
    return this.request({ method: 'GET', path: '/trades', query: p });
  }

  getMarkets(nextCursor: string = INITIAL_CURSOR): Promise<T.Page<T.Market>> {
    return this.request({ method: 'GET', path: '/markets', query: { next_cursor: nextCursor } });
  }

  getMarket(conditionId: string): Promise<T.Market> {
    return this.request({ method: 'GET', path: `/markets/${encodeURIComponent(conditionId)}` });
  }

  getTickSize(tokenId: string): Promise<{ minimum_tick_size: number }> {
    return this.request({ method: 'GET', path: '/tick-size', query: { token_id: tokenId } });
  }

  getNegRisk(tokenId: string): Promise<{ neg_risk: boolean }> {
    return this.request({ method: 'GET', path: '/neg-risk', query: { token_id: tokenId } });
  }

  /** GET /ok: the v2 clients' health check, "OK". */
  ok(): Promise<string> {
    return this.request({ method: 'GET', path: '/ok' });
  }

  /** GET /version: the order protocol version ({"version":1}: V1 orders). */
  getVersion(): Promise<{ version: number }> {
    return this.request({ method: 'GET', path: '/version' });
  }

  /** GET /markets-by-token/{token_id}: the condition id of the token's market. */
  getMarketByToken(tokenId: string): Promise<{ condition_id: string }> {
    return this.request({ method: 'GET', path: `/markets-by-token/${encodeURIComponent(tokenId)}` });
  }

  /** GET /clob-markets/{condition_id}: compact market info (tokens, tick, minimum size, neg risk, fees). */
  getClobMarketInfo(conditionId: string): Promise<T.ClobMarketInfo> {
    return this.request({ method: 'GET', path: `/clob-markets/${encodeURIComponent(conditionId)}` });
  }

  getSimplifiedMarkets(nextCursor: string = INITIAL_CURSOR): Promise<T.Page<T.SimplifiedMarket>> {
    return this.request({ method: 'GET', path: '/simplified-markets', query: { next_cursor: nextCursor } });
  }

  /** GET /sampling-markets: the markets that accept orders now. */
  getSamplingMarkets(nextCursor: string = INITIAL_CURSOR): Promise<T.Page<T.Market>> {
    return this.request({ method: 'GET', path: '/sampling-markets', query: { next_cursor: nextCursor } });
  }

  getSamplingSimplifiedMarkets(nextCursor: string = INITIAL_CURSOR): Promise<T.Page<T.SimplifiedMarket>> {
    return this.request({ method: 'GET', path: '/sampling-simplified-markets', query: { next_cursor: nextCursor } });
  }

  // -------------------------------------------------------------------------------------------
  // operator (Authorization: Bearer <operatorToken>)
  // -------------------------------------------------------------------------------------------

  createMarket(p: {
    question: string;
    outcomes?: string[];
    tickSize: string;
    minOrderSize: string;
    negRisk?: boolean;
    endDate?: string;
    eventId?: number;
  }): Promise<T.Market> {
    return this.request({ method: 'POST', path: '/admin/markets', body: p, auth: 'operator' });
  }

  /** Global circuit breaker without a condition id, else the market's. */
  pause(conditionId?: string): Promise<unknown> {
    return this.request({ method: 'POST', path: '/admin/pause', body: conditionId ? { conditionId } : {}, auth: 'operator' });
  }

  resume(conditionId?: string): Promise<unknown> {
    return this.request({ method: 'POST', path: '/admin/resume', body: conditionId ? { conditionId } : {}, auth: 'operator' });
  }

  resolve(conditionId: string, winningOutcomeIndex: number): Promise<unknown> {
    return this.request({ method: 'POST', path: `/admin/markets/${encodeURIComponent(conditionId)}/resolve`, body: { winningOutcomeIndex }, auth: 'operator' });
  }

  /** Credits paper collateral; `amount` is a decimal string in collateral units ("250.5"). */
  faucet(address: string, amount: string): Promise<unknown> {
    return this.request({ method: 'POST', path: '/admin/faucet', body: { address, amount }, auth: 'operator' });
  }

  /** The exchange clock (decisions §11): `{mode, now, startedAt, runDir?}`, unix ms. */
  getClock(): Promise<Static<typeof ClockStatusResponse>> {
    return this.request({ method: 'GET', path: '/admin/clock', auth: 'operator' });
  }

  /**
   * Stepped mode: runs participants, scenario events and GTD expiries `{seconds}` ahead or `{until}` a unix
   * ms time, and resolves once they are committed. Writes sent meanwhile get 409 clock_advancing.
   */
  advanceClock(to: { seconds: number } | { until: number }): Promise<Static<typeof AdvanceClockResponse>> {
    return this.request({ method: 'POST', path: '/admin/clock/advance', body: to, auth: 'operator' });
  }

  // -------------------------------------------------------------------------------------------
  // data service
  // -------------------------------------------------------------------------------------------

  private data<R>(path: string, q: Query): Promise<R> {
    return this.request({ method: 'GET', path, query: q, base: 'data' });
  }

  positions(p: T.PositionsQuery): Promise<T.Position[]> {
    return this.data('/positions', { ...p, market: csv(p.market), eventId: csv(p.eventId) });
  }

  closedPositions(p: T.ClosedPositionsQuery): Promise<T.ClosedPosition[]> {
    return this.data('/closed-positions', { ...p, market: csv(p.market), eventId: csv(p.eventId) });
  }

  value(p: { user: string; market?: string | string[] }): Promise<Array<{ user: string; value: number }>> {
    return this.data('/value', { user: p.user, market: csv(p.market) });
  }

  traded(p: { user: string }): Promise<{ user: string; traded: number }> {
    return this.data('/traded', p);
  }

  oi(p: { market?: string | string[] } = {}): Promise<Array<{ market: string; value: number }>> {
    return this.data('/oi', { market: csv(p.market) });
  }

  liveVolume(p: { id: number }): Promise<Array<{ total: number; markets: Array<{ market: string; value: number }> }>> {
    return this.data('/live-volume', p);
  }

  /** Data-service GET /trades (user or platform fills). */
  dataTrades(p: T.DataTradesQuery = {}): Promise<T.DataTrade[]> {
    return this.data('/trades', { ...p, market: csv(p.market), eventId: csv(p.eventId) });
  }

  activity(p: T.ActivityQuery): Promise<T.Activity[]> {
    return this.data('/activity', { ...p, market: csv(p.market), eventId: csv(p.eventId), type: csv(p.type) });
  }

  holders(p: { market: string | string[]; limit?: number; minBalance?: number }): Promise<T.HolderGroup[]> {
    return this.data('/holders', { ...p, market: csv(p.market) });
  }
}

/** viem-style factory. */
export function createExchangeClient(opts: ExchangeClientOptions): ExchangeClient {
  return new ExchangeClient(opts);
}
