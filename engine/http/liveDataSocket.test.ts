import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConnectionStatus, RealTimeDataClient, type Message, type SubscriptionMessage } from '@polymarket/real-time-data-client';
import type { PrivateKeyAccount } from 'viem/accounts';
import WebSocket from 'ws';
import { createL1Headers } from '../client/createL1Headers.js';
import { createL2Headers } from '../client/createL2Headers.js';
import { accounts, units } from '../testkit/orderKit.js';
import { StreamTestEngine, type HeaderBuilders } from '../testkit/streamKit.js';

const HEADERS: HeaderBuilders = { l1: async (a, c, n, ts) => ({ ...(await createL1Headers(a, c, n, ts)) }), l2: (cr, addr, req) => ({ ...createL2Headers(cr, addr as `0x${string}`, req) }) };
const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];

/** The stock client, unmodified, with only its host changed; it logs its lifecycle, so the test hushes it. */
class StockClient {
  readonly messages: Message[] = [];
  readonly statuses: ConnectionStatus[] = [];
  client!: RealTimeDataClient;

  static async connect(port: number): Promise<StockClient> {
    const s = new StockClient();
    await new Promise<void>((resolve) => {
      s.client = new RealTimeDataClient({
        host: `ws://127.0.0.1:${port}/ws/live-data`,
        onMessage: (_c, m) => s.messages.push(m),
        onConnect: () => resolve(),
        onStatusChange: (st) => s.statuses.push(st),
      }).connect();
    });
    return s;
  }

  subscribe(msg: SubscriptionMessage): void {
    this.client.subscribe(msg);
  }

  async until(pred: (ms: Message[]) => boolean, ms = 5000): Promise<Message[]> {
    const deadline = Date.now() + ms;
    while (!pred(this.messages)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.messages;
  }

  /** Messages of a topic/type so far. */
  of(topic: string, type: string): Message[] {
    return this.messages.filter((m) => m.topic === topic && m.type === type);
  }

  close(): void {
    this.client.disconnect();
  }
}

const hushed = { log: console.log, error: console.error, warn: console.warn };

describe('the real-time data socket /ws/live-data with the stock @polymarket/real-time-data-client', () => {
  const t = new StreamTestEngine(HEADERS);
  let yes: string;
  let no: string;

  before(async () => {
    console.log = console.error = console.warn = () => undefined;
    await t.start([alice, bob]);
    [yes, no] = t.market.tokenIds;
  });
  after(async () => {
    await t.close();
    Object.assign(console, hushed);
  });

  it('activity trades and orders_matched carry the public fields; a slug filter keeps only its market', async () => {
    const mine = await StockClient.connect(t.port);
    const other = await StockClient.connect(t.port);
    mine.subscribe({ subscriptions: [{ topic: 'activity', type: 'trades', filters: JSON.stringify({ market_slug: t.market.slug }) }, { topic: 'activity', type: 'orders_matched' }] });
    other.subscribe({ subscriptions: [{ topic: 'activity', type: '*', filters: JSON.stringify({ event_slug: 'no-such-event' }) }] });
    await new Promise((r) => setTimeout(r, 50));
    await t.place(alice, { side: 'BUY', price: 400_000n, size: units(5) });
    await t.place(bob, { side: 'BUY', outcome: 1, price: 600_000n, size: units(5) });
    await mine.until(() => mine.of('activity', 'trades').length === 1 && mine.of('activity', 'orders_matched').length === 1);
    const [trade] = mine.of('activity', 'trades');
    assert.equal(typeof trade!.timestamp, 'number');
    assert.equal(typeof trade!.connection_id, 'string');
    const p = trade!.payload as Record<string, unknown>;
    assert.deepEqual(Object.keys(p).sort(), ['asset', 'bio', 'conditionId', 'eventSlug', 'icon', 'name', 'outcome', 'outcomeIndex', 'price', 'profileImage', 'proxyWallet', 'pseudonym', 'side', 'size', 'slug', 'timestamp', 'title', 'transactionHash'].sort());
    assert.deepEqual([p.asset, p.side, p.price, p.size, p.outcome, p.slug, p.conditionId], [no, 'BUY', 0.6, 5, 'No', t.market.slug, t.market.conditionId]);
    assert.equal(String(p.proxyWallet).toLowerCase(), bob.address.toLowerCase());
    const matched = mine.of('activity', 'orders_matched')[0]!.payload as Record<string, unknown>;
    assert.deepEqual([matched.asset, matched.side, matched.price], [yes, 'BUY', 0.4]);
    assert.deepEqual(other.messages, []);
    mine.close();
    other.close();
  });

  it('clob_market: agg_orderbook on subscribe, then price_change, last_trade_price and tick_size_change of the filtered token only', async () => {
    for (const who of [alice, bob]) await t.l2(who, 'DELETE', '/cancel-all');
    const c = await StockClient.connect(t.port);
    c.subscribe({ subscriptions: [{ topic: 'clob_market', type: '*', filters: JSON.stringify([yes]) }] });
    const [dump] = await c.until((ms) => ms.length >= 1);
    assert.equal(dump!.type, 'agg_orderbook');
    const book = dump!.payload as Record<string, unknown>;
    assert.equal(book.asset_id, yes);
    assert.equal(book.hash, (await t.book(yes)).hash);
    await t.place(alice, { side: 'BUY', price: 300_000n, size: units(2) });
    const [change] = (await c.until(() => c.of('clob_market', 'price_change').length === 1)).filter((m) => m.type === 'price_change');
    assert.equal((change!.payload as { price_changes: Array<{ asset_id: string }> }).price_changes[0]!.asset_id, yes);
    assert.equal((change!.payload as { hash: string }).hash, (await t.book(yes)).hash);
    await t.place(bob, { side: 'BUY', outcome: 1, price: 700_000n, size: units(2) });
    await c.until(() => c.of('clob_market', 'last_trade_price').length === 1);
    assert.ok(c.messages.every((m) => (m.payload as { asset_id?: string }).asset_id === yes), 'only the filtered token');
    const auth = { authorization: `Bearer ${t.engine.ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
    const put = (tickSize: string) => t.engine.app.inject({ method: 'PUT', url: `/admin/markets/${t.market.conditionId}/tick-size`, headers: auth, payload: JSON.stringify({ tickSize }) });
    assert.equal((await put('0.001')).statusCode, 200);
    const [tick] = (await c.until(() => c.of('clob_market', 'tick_size_change').length === 1)).filter((m) => m.type === 'tick_size_change');
    assert.deepEqual([(tick!.payload as Record<string, unknown>).old_tick_size, (tick!.payload as Record<string, unknown>).new_tick_size], ['0.01', '0.001']);
    assert.equal((await put('0.01')).statusCode, 200);
    c.close();
  });

  it('clob_market market_created and market_resolved reach an unfiltered subscriber', async () => {
    const c = await StockClient.connect(t.port);
    c.subscribe({ subscriptions: [{ topic: 'clob_market', type: 'market_created' }, { topic: 'clob_market', type: 'market_resolved' }] });
    await new Promise((r) => setTimeout(r, 50));
    const m = await t.engine.ctx.markets.create({ question: 'Will live data tell of new markets?', tickSize: 10_000n, minOrderSize: 1_000_000n }, { waitForChain: false });
    const [created] = await c.until((ms) => ms.length >= 1);
    assert.equal(created!.type, 'market_created');
    assert.deepEqual(created!.payload, { market: m.conditionId, asset_ids: [...m.tokenIds], min_order_size: '1', tick_size: '0.01', neg_risk: false });
    await t.engine.ctx.markets.resolve(m.conditionId, 1);
    const [, resolved] = await c.until((ms) => ms.length >= 2);
    assert.equal(resolved!.type, 'market_resolved');
    assert.equal((resolved!.payload as Record<string, unknown>).winning_asset_id, m.tokenIds[1]);
    c.close();
  });

  it("clob_user with L2 credentials: the key owner's order and trade events; bad credentials answer an error", async () => {
    for (const who of [alice, bob]) await t.l2(who, 'DELETE', '/cancel-all');
    const c = await StockClient.connect(t.port);
    const { key, secret, passphrase } = t.creds.get(bob.address)!;
    c.subscribe({ subscriptions: [{ topic: 'clob_user', type: '*', clob_auth: { key, secret, passphrase } }] });
    await new Promise((r) => setTimeout(r, 50));
    const placed = await t.place(bob, { side: 'BUY', price: 450_000n, size: units(3) });
    await t.place(alice, { side: 'BUY', outcome: 1, price: 550_000n, size: units(1) });
    await c.until(() => c.of('clob_user', 'trade').length >= 1 && c.of('clob_user', 'order').length >= 2);
    const orders = c.of('clob_user', 'order').map((m) => m.payload as Record<string, unknown>);
    assert.deepEqual(orders.map((o) => [o.type, o.id, o.status, o.order_type]), [['PLACEMENT', placed.order_id, 'LIVE', 'GTC'], ['UPDATE', placed.order_id, 'LIVE', 'GTC']]);
    assert.equal(String(orders[0]!.maker_address).toLowerCase(), bob.address.toLowerCase());
    assert.match(String(orders[0]!.created_at), /^\d{10}$/);
    const trade = c.of('clob_user', 'trade')[0]!.payload as Record<string, unknown>;
    assert.equal(trade.trader_side, 'MAKER');
    assert.equal(trade.owner, key);
    assert.equal(typeof trade.match_time, 'string');

    const bad = await StockClient.connect(t.port);
    bad.subscribe({ subscriptions: [{ topic: 'clob_user', type: '*', clob_auth: { key, secret: 'wrong', passphrase } }] });
    const [err] = await bad.until((ms) => ms.length >= 1);
    assert.equal(err!.type, 'error');
    assert.match(String((err!.payload as { message: string }).message), /clob_auth refused/);
    c.close();
    bad.close();
    await t.l2(bob, 'DELETE', '/cancel-all');
  });

  it('comments and crypto_prices answer an error message saying they are not served here', async () => {
    const c = await StockClient.connect(t.port);
    c.subscribe({ subscriptions: [{ topic: 'comments', type: '*', filters: '{"parentEntityID":100,"parentEntityType":"Event"}' }, { topic: 'crypto_prices', type: 'update', filters: '{"symbol":"btcusdt"}' }] });
    const got = await c.until((ms) => ms.length >= 2);
    assert.deepEqual(got.map((m) => [m.topic, m.type]), [['comments', 'error'], ['crypto_prices', 'error']]);
    assert.match(String((got[0]!.payload as { message: string }).message), /not served here: comments are/);
    assert.match(String((got[1]!.payload as { message: string }).message), /not served here: crypto_prices/);
    c.close();
  });

  it('keeps an idle stock client connected across many keepalive intervals: its text pings count, its missing pongs never matter', async () => {
    Object.assign(t.engine.liveData.limits, { keepaliveMs: 500, idleMs: 6_000 });
    try {
      const c = await StockClient.connect(t.port);
      // The client pings on open, then 5 s after each ping frame: past the idle limit only if its pings count.
      await new Promise((r) => setTimeout(r, 8_000));
      assert.deepEqual(c.statuses, [ConnectionStatus.CONNECTING, ConnectionStatus.CONNECTED], 'never disconnected');
      assert.equal(t.engine.liveData.connections, 1);
      c.close();

      // A socket that says nothing and answers no ping is closed once idle, naming why.
      Object.assign(t.engine.liveData.limits, { keepaliveMs: 100, idleMs: 300 });
      const silent = new WebSocket(`ws://127.0.0.1:${t.port}/ws/live-data`, { autoPong: false });
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => silent.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      assert.equal(closed.code, 4010);
      assert.match(closed.reason, /idle/);
    } finally {
      Object.assign(t.engine.liveData.limits, { keepaliveMs: 10_000, idleMs: 60_000 });
    }
  });
});
