import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient, createL2Headers, OrderType, Side, SignatureType, type ApiKeyCreds } from '@polymarket/clob-client';
import { orderToJson } from '@polymarket/clob-client/dist/utilities.js';
import { deriveSafe } from '@polymarket/builder-relayer-client/dist/builder/derive.js';
import type { Address } from 'viem';
import { POLYGON_WALLET_CONTRACTS } from '../../protocol/contractAddresses.js';
import type { Engine } from '../../engine.js';
import type { Market } from '../../services/markets/marketService.js';
import { units } from '../../testkit/orderKit.js';
import { Wire } from '../wireClient.js';
import { UUID, ORDER_HASH, startListeningEngine } from '../../testkit/clobClientKit.js';

describe('the stock @polymarket/clob-client (V1), unmodified, against the polymarket profile', () => {
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;
  let market: Market;
  const alice = Wallet.createRandom();
  const bob = Wallet.createRandom();
  let aliceCreds: ApiKeyCreds;
  let aliceClient: ClobClient;
  let bobClient: ClobClient;

  before(async () => {
    ({ engine, host, close } = await startListeningEngine({ profile: 'polymarket' }));
    market = await engine.ctx.markets.create({ question: 'Will the stock client trade here?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
  });
  after(() => close());

  it('createOrDeriveApiKey creates credentials, and a second call and deriveApiKey in the same second return the same key', async () => {
    const l1 = new ClobClient(host, 137, alice);
    aliceCreds = await l1.createOrDeriveApiKey();
    assert.match(aliceCreds.key, UUID);
    assert.equal(typeof aliceCreds.secret, 'string');
    assert.deepEqual(await l1.createOrDeriveApiKey(), aliceCreds);
    assert.deepEqual(await l1.deriveApiKey(), aliceCreds);
    const seven = await l1.createApiKey(7);
    assert.notEqual(seven.key, aliceCreds.key);
    assert.deepEqual(await l1.deriveApiKey(7), seven);
    aliceClient = new ClobClient(host, 137, alice, aliceCreds);
    const bobCreds = await new ClobClient(host, 137, bob).createOrDeriveApiKey();
    bobClient = new ClobClient(host, 137, bob, bobCreds);
    // The public answer lists key ids (the .d.ts says ApiKeyCreds[], trading-api.md notes the mismatch).
    const keys = (await aliceClient.getApiKeys()) as unknown as { apiKeys: string[] };
    assert.deepEqual(keys.apiKeys.sort(), [aliceCreds.key, seven.key].sort());
  });

  it('a GTC order placed with createAndPostOrder answers orderID = the order hash, and getOrder reads it in the public shape', async () => {
    const [yes] = market.tokenIds;
    const placed = await aliceClient.createAndPostOrder({ tokenID: yes, price: 0.4, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(placed.success, true, JSON.stringify(placed));
    assert.match(placed.orderID, ORDER_HASH);
    assert.equal(placed.errorMsg, '');
    assert.equal(placed.status, 'live');
    assert.deepEqual([placed.makingAmount, placed.takingAmount, placed.transactionsHashes, placed.tradeIDs], ['', '', [], []]);

    const order = await aliceClient.getOrder(placed.orderID);
    assert.equal(order.id, placed.orderID);
    assert.equal(order.status, 'LIVE');
    assert.equal(order.outcome, 'Yes');
    assert.equal(order.asset_id, yes);
    assert.equal(order.maker_address.toLowerCase(), alice.address.toLowerCase());
    assert.equal(order.original_size, '10');
    assert.equal(order.size_matched, '0');
    assert.equal(order.price, '0.4');
    assert.equal(order.order_type, 'GTC');
    assert.ok(Math.abs(Number(order.created_at) - Date.now() / 1000) < 30, `created_at ${order.created_at} is unix seconds`);

    const open = await aliceClient.getOpenOrders({ market: market.conditionId });
    assert.deepEqual(
      open.map((o) => o.id),
      [placed.orderID],
    );
  });

  it('a crossing BUY of the other outcome fills against it (mint): the answer carries making/taking amounts, trade ids and a transaction hash; trades list it', async () => {
    const [yes] = market.tokenIds;
    await engine.ctx.orders.creditCollateral(bob.address, units(100), 'test');
    // One book per market: BUY NO at 0.6 crosses the resting BUY YES at 0.4 (a mint).
    const [, no] = market.tokenIds;
    const taken = await bobClient.createAndPostOrder({ tokenID: no, price: 0.6, side: Side.BUY, size: 6 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(taken.success, true, JSON.stringify(taken));
    assert.equal(taken.status, 'matched');
    assert.equal(taken.makingAmount, '3.6');
    assert.equal(taken.takingAmount, '6');
    assert.equal(taken.tradeIDs.length, 1);
    assert.equal(taken.transactionsHashes.length, 1);
    assert.match(taken.transactionsHashes[0], ORDER_HASH);
    const trades = await bobClient.getTrades({ market: market.conditionId });
    assert.equal(trades.length, 1);
    assert.equal(trades[0]!.id, taken.tradeIDs[0]);
    assert.equal(trades[0]!.taker_order_id, taken.orderID);
    assert.equal(trades[0]!.maker_orders[0]!.order_id, (await aliceClient.getOpenOrders({ asset_id: market.tokenIds[0] }))[0]!.id);
    const mine = (await aliceClient.getOpenOrders({ asset_id: yes }))[0]!;
    assert.equal(mine.size_matched, '6');
    assert.equal(mine.status, 'LIVE');
    assert.equal((await bobClient.getOrder(taken.orderID)).status, 'MATCHED');
  });

  it('an accepted POST /order answers 200 (the stock Python clients raise on anything else), through fastify and over the lean HTTP path', async () => {
    const [yes] = market.tokenIds;
    const post = async (via: 'fastify' | 'lean') => {
      const order = await aliceClient.createOrder({ tokenID: yes, price: 0.05, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false });
      const body = JSON.stringify(orderToJson(order, aliceCreds.key, OrderType.GTC));
      const headers = { 'content-type': 'application/json', ...(await createL2Headers(alice, aliceCreds, { method: 'POST', requestPath: '/order', body })) } as Record<string, string>;
      if (via === 'fastify') {
        const res = await engine.app.inject({ method: 'POST', url: '/order', headers, payload: body });
        return { status: res.statusCode, json: res.json() as { success: boolean; orderID: string } };
      }
      // A fresh connection: the lean front answers POST /order before fastify sees it.
      const w = await Wire.open(Number(new URL(host).port));
      try {
        let head = `POST /order HTTP/1.1\r\nhost: 127.0.0.1\r\n`;
        for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
        w.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        const [r] = await w.responses(1);
        return { status: r!.status, json: JSON.parse(Buffer.from(r!.body, 'latin1').toString('utf8')) as { success: boolean; orderID: string } };
      } finally {
        w.close();
      }
    };
    for (const via of ['fastify', 'lean'] as const) {
      const res = await post(via);
      assert.equal(res.status, 200, `${via}: ${JSON.stringify(res.json)}`);
      assert.equal(res.json.success, true);
      await aliceClient.cancelOrder({ orderID: res.json.orderID });
    }
  });

  it('cancels by order hash: cancelOrder, cancelOrders, cancelMarketOrders and cancelAll', async () => {
    const [yes] = market.tokenIds;
    const place = async (price: number) =>
      (await aliceClient.createAndPostOrder({ tokenID: yes, price, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC)).orderID as string;
    const a = await place(0.1);
    assert.deepEqual(await aliceClient.isOrderScoring({ order_id: a }), { scoring: false });
    const one = await aliceClient.cancelOrder({ orderID: a });
    assert.deepEqual(one, { canceled: [a], not_canceled: {} });
    assert.equal((await aliceClient.getOrder(a)).status, 'CANCELED');
    const b = await place(0.11);
    const c = await place(0.12);
    const two = await aliceClient.cancelOrders([b, c]);
    assert.deepEqual(two.canceled.sort(), [b, c].sort());
    await place(0.13);
    const byMarket = await aliceClient.cancelMarketOrders({ market: market.conditionId });
    assert.ok(byMarket.canceled.length >= 1);
    await place(0.14);
    const all = await aliceClient.cancelAll();
    assert.equal(all.canceled.length, 1);
    assert.deepEqual(await aliceClient.getOpenOrders(), []);
  });

  it('DELETE /cancel-market-orders reads an empty market or asset_id as absent, as py-clob-client sends the unused one', async () => {
    const [yes] = market.tokenIds;
    const send = async (body: object) => {
      const payload = JSON.stringify(body);
      const headers = { 'content-type': 'application/json', ...(await createL2Headers(alice, aliceCreds, { method: 'DELETE', requestPath: '/cancel-market-orders', body: payload })) } as Record<string, string>;
      return engine.app.inject({ method: 'DELETE', url: '/cancel-market-orders', headers, payload });
    };
    const place = async () => (await aliceClient.createAndPostOrder({ tokenID: yes, price: 0.1, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC)).orderID as string;
    const byMarket = await place();
    const a = await send({ market: market.conditionId, asset_id: '' });
    assert.equal(a.statusCode, 200, a.body);
    assert.deepEqual(a.json().canceled, [byMarket]);
    const byAsset = await place();
    const b = await send({ market: '', asset_id: yes });
    assert.equal(b.statusCode, 200, b.body);
    assert.deepEqual(b.json().canceled, [byAsset]);
    const neither = await send({ market: '', asset_id: '' });
    assert.equal(neither.statusCode, 400, neither.body);
    assert.match(neither.json().message, /market.*asset_id/);
  });

  it('an order signed for another chain (Amoy, its exchange) is refused INVALID_ORDER_ERROR naming the signature', async () => {
    const amoy = new ClobClient(host, 80002, alice, aliceCreds);
    const [yes] = market.tokenIds;
    const refused = await amoy.createAndPostOrder({ tokenID: yes, price: 0.3, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(refused.success, false, JSON.stringify(refused));
    assert.equal(refused.error_code, 'INVALID_ORDER_ERROR');
    assert.match(refused.errorMsg, /signature/i);
    assert.equal(refused.orderID, '');
  });

  it('getClosedOnlyMode answers that the account is not restricted', async () => {
    assert.deepEqual(await aliceClient.getClosedOnlyMode(), { closed_only: false });
  });

  it('getBalanceAllowance answers the 6-decimal integer strings', async () => {
    const bal = await aliceClient.getBalanceAllowance({ asset_type: 'COLLATERAL' as never });
    assert.match(String(bal.balance), /^\d+$/);
  });
  it('a Safe-funded client (signatureType 2, funder = the Safe the public relayer client derives) trades from that Safe; another funder is refused naming the Safe', async () => {
    const carol = Wallet.createRandom();
    const creds = await new ClobClient(host, 137, carol).createOrDeriveApiKey();
    const safe = deriveSafe(carol.address as Address, POLYGON_WALLET_CONTRACTS.safeFactory);
    await engine.ctx.orders.creditCollateral(safe.toLowerCase(), 100_000_000n, 'test');
    const client = new ClobClient(host, 137, carol, creds, SignatureType.POLY_GNOSIS_SAFE, safe);
    const bal = await client.getBalanceAllowance({ asset_type: 'COLLATERAL' as never });
    assert.equal(bal.balance, '100000000');
    const [yes] = market.tokenIds;
    const placed = await client.createAndPostOrder({ tokenID: yes, price: 0.2, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(placed.success, true, JSON.stringify(placed));
    assert.equal((await client.getOrder(placed.orderID)).maker_address.toLowerCase(), safe.toLowerCase());
    await client.cancelOrder({ orderID: placed.orderID });
    const other = new ClobClient(host, 137, carol, creds, SignatureType.POLY_GNOSIS_SAFE, Wallet.createRandom().address);
    const refused = await other.createAndPostOrder({ tokenID: yes, price: 0.2, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(refused.error_code, 'INVALID_ORDER_ERROR');
    assert.match(refused.errorMsg, new RegExp(`signer's Safe ${safe.toLowerCase()}`));
  });
});
