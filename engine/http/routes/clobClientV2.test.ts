import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient as ClobClientV1, OrderType as OrderTypeV1, Side as SideV1 } from '@polymarket/clob-client';
import { ClobClient, createL2Headers, OrderType, orderToJsonV2, Side, type ApiKeyCreds, type SignedOrder } from '@polymarket/clob-client-v2';
import type { Engine } from '../../engine.js';
import { POLYGON_EXCHANGE_V2_ADDRESS } from '../../protocol/contractAddresses.js';
import { orderV2Digest } from '../../services/crypto/orderDigestV2.js';
import type { Market } from '../../services/markets/marketService.js';
import { ORDER_V2_TYPES } from '../../testkit/orderKit.js';
import { UUID, ORDER_HASH, startListeningEngine } from '../../testkit/clobClientKit.js';

describe('the stock @polymarket/clob-client-v2, unmodified, against the polymarket profile', () => {
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;
  let market: Market;
  const carol = Wallet.createRandom();
  const dave = Wallet.createRandom();
  let carolClient: ClobClient;
  let carolCreds: ApiKeyCreds;
  let daveV1: ClobClientV1;

  before(async () => {
    ({ engine, host, close } = await startListeningEngine({ profile: 'polymarket' }));
    market = await engine.ctx.markets.create({ question: 'Will both clients share one book?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
  });
  after(() => close());

  it('createOrDeriveApiKey creates credentials (apiKey read as key), a repeated call and deriveApiKey return the same key', async () => {
    const l1 = new ClobClient({ host, chain: 137, signer: carol });
    const creds = await l1.createOrDeriveApiKey();
    assert.match(creds.key, UUID);
    assert.deepEqual(await l1.createOrDeriveApiKey(), creds);
    assert.deepEqual(await l1.deriveApiKey(), creds);
    carolCreds = creds;
    carolClient = new ClobClient({ host, chain: 137, signer: carol, creds });
    daveV1 = new ClobClientV1(host, 137, dave, await new ClobClientV1(host, 137, dave).createOrDeriveApiKey());
  });

  it('GET /version answers 2 in the polymarket profile, so clob-client-v2 signs V2 orders', async () => {
    assert.equal(await carolClient.getVersion(), 2);
    const signed = await carolClient.createOrder({ tokenID: market.tokenIds[0], price: 0.3, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false });
    assert.ok('timestamp' in signed && 'builder' in signed && 'metadata' in signed, JSON.stringify(signed));
    assert.ok(!('nonce' in signed) && !('feeRateBps' in signed));
  });

  it('a V2 GTC order from clob-client-v2 fills against a resting V1 order from clob-client on the same book; its orderID is its V2 digest and both see the trade', async () => {
    const [yes, no] = market.tokenIds;
    const resting = await daveV1.createAndPostOrder({ tokenID: yes, price: 0.55, side: SideV1.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderTypeV1.GTC);
    assert.equal(resting.success, true, JSON.stringify(resting));
    const signed = (await carolClient.createOrder({ tokenID: no, price: 0.45, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false })) as SignedOrder & { timestamp: string; metadata: string; builder: string };
    const taker = await carolClient.postOrder(signed, OrderType.GTC);
    assert.equal(taker.success, true, JSON.stringify(taker));
    assert.equal(taker.orderID, orderV2Digest(signed, 137, POLYGON_EXCHANGE_V2_ADDRESS));
    assert.equal(taker.status, 'matched');
    assert.equal(taker.takingAmount, '10');
    assert.equal(taker.makingAmount, '4.5');
    const order = await carolClient.getOrder(taker.orderID);
    assert.equal(order.status, 'MATCHED');
    assert.equal(order.outcome, 'No');
    assert.equal((await daveV1.getOrder(resting.orderID)).status, 'MATCHED');
    const carolTrades = await carolClient.getTrades({ market: market.conditionId });
    assert.deepEqual(
      carolTrades.map((t) => t.id),
      taker.tradeIDs,
    );
    const daveTrades = await daveV1.getTrades({ market: market.conditionId });
    assert.deepEqual(
      daveTrades.map((t) => t.id),
      taker.tradeIDs,
    );
    assert.equal(daveTrades[0]!.maker_orders[0]!.order_id, resting.orderID);
  });

  it('a V1 order from clob-client takes a resting V2 order from clob-client-v2, and both see the trade', async () => {
    const [yes, no] = market.tokenIds;
    const resting = await carolClient.createAndPostOrder({ tokenID: yes, price: 0.35, side: Side.BUY, size: 8 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(resting.status, 'live', JSON.stringify(resting));
    assert.match(resting.orderID, ORDER_HASH);
    const taker = await daveV1.createAndPostOrder({ tokenID: no, price: 0.65, side: SideV1.BUY, size: 8 }, { tickSize: '0.01', negRisk: false }, OrderTypeV1.GTC);
    assert.equal(taker.status, 'matched', JSON.stringify(taker));
    assert.equal(taker.tradeIDs.length, 1);
    const daveTrade = (await daveV1.getTrades({ id: taker.tradeIDs[0] }))[0]!;
    assert.equal(daveTrade.maker_orders[0]!.order_id, resting.orderID);
    const carolTrade = (await carolClient.getTrades({ id: taker.tradeIDs[0] }))[0]!;
    assert.equal(carolTrade.id, taker.tradeIDs[0]);
    assert.equal((await carolClient.getOrder(resting.orderID)).status, 'MATCHED');
  });

  it('a V2 FOK market order fills in full against V1 liquidity, and an unfillable one is killed', async () => {
    const [yes, no] = market.tokenIds;
    const resting = await daveV1.createAndPostOrder({ tokenID: yes, price: 0.6, side: SideV1.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderTypeV1.GTC);
    assert.equal(resting.status, 'live', JSON.stringify(resting));
    const fok = await carolClient.createAndPostMarketOrder({ tokenID: no, side: Side.BUY, amount: 4, price: 0.4 }, { tickSize: '0.01', negRisk: false }, OrderType.FOK);
    assert.equal(fok.success, true, JSON.stringify(fok));
    assert.equal(fok.status, 'matched');
    assert.equal(fok.takingAmount, '10');
    assert.equal((await daveV1.getOrder(resting.orderID)).status, 'MATCHED');
    const killed = await carolClient.createAndPostMarketOrder({ tokenID: no, side: Side.BUY, amount: 4, price: 0.4 }, { tickSize: '0.01', negRisk: false }, OrderType.FOK);
    assert.equal(killed.success, false, JSON.stringify(killed));
    assert.equal((killed as unknown as { error_code: string }).error_code, 'FOK_ORDER_NOT_FILLED_ERROR');
  });

  it('postOrders places a batch of V2 orders: one fills against a V1 order, one rests', async () => {
    const [yes, no] = market.tokenIds;
    const resting = await daveV1.createAndPostOrder({ tokenID: yes, price: 0.5, side: SideV1.BUY, size: 5 }, { tickSize: '0.01', negRisk: false }, OrderTypeV1.GTC);
    assert.equal(resting.status, 'live', JSON.stringify(resting));
    const crossing = await carolClient.createOrder({ tokenID: no, price: 0.5, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false });
    const passive = await carolClient.createOrder({ tokenID: no, price: 0.1, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false });
    const results: Array<{ status: string; orderID: string }> = await carolClient.postOrders([
      { order: crossing, orderType: OrderType.GTC },
      { order: passive, orderType: OrderType.GTC },
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['matched', 'live'],
      JSON.stringify(results),
    );
    assert.equal((await daveV1.getOrder(resting.orderID)).status, 'MATCHED');
    const open = await carolClient.getOpenOrders({ asset_id: no });
    assert.deepEqual(
      open.map((o) => o.id),
      [results[1]!.orderID],
    );
    assert.deepEqual(await carolClient.cancelOrder({ orderID: results[1]!.orderID }), { canceled: [results[1]!.orderID], not_canceled: {} });
  });

  it('a V2 GTD order takes its deadline from the unsigned expiration field', async () => {
    const expiration = Math.floor(Date.now() / 1000) + 3600;
    const placed = await carolClient.createAndPostOrder({ tokenID: market.tokenIds[0], price: 0.15, side: Side.BUY, size: 5, expiration }, { tickSize: '0.01', negRisk: false }, OrderType.GTD);
    assert.equal(placed.status, 'live', JSON.stringify(placed));
    assert.equal((await carolClient.getOrder(placed.orderID)).expiration, String(expiration));
    const tooSoon = await carolClient.createAndPostOrder(
      { tokenID: market.tokenIds[0], price: 0.15, side: Side.BUY, size: 5, expiration: Math.floor(Date.now() / 1000) + 30 },
      { tickSize: '0.01', negRisk: false },
      OrderType.GTD,
    );
    assert.equal((tooSoon as unknown as { error_code: string }).error_code, 'INVALID_ORDER_EXPIRATION', JSON.stringify(tooSoon));
    await carolClient.cancelOrder({ orderID: placed.orderID });
  });

  it('bad V2 orders are refused 400 naming what is wrong: wrong domain version, tampered or V1 signature, wrong field types', async () => {
    const [yes] = market.tokenIds;
    const fresh = async () =>
      (await carolClient.createOrder({ tokenID: yes, price: 0.2, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false })) as SignedOrder & Record<string, unknown>;
    const post = async (order: Record<string, unknown>) => (await carolClient.postOrder(order as never, OrderType.GTC)) as unknown as { status: number; error: string; errorMsg?: string; message: string; details?: { field: string } };

    // Signed under domain version "1" (the V2 struct, the V2 exchange): the answer says so.
    const v1Domain = await fresh();
    const message = {
      salt: v1Domain.salt,
      maker: v1Domain.maker,
      signer: v1Domain.signer,
      tokenId: v1Domain.tokenId,
      makerAmount: v1Domain.makerAmount,
      takerAmount: v1Domain.takerAmount,
      side: 0,
      signatureType: v1Domain.signatureType,
      timestamp: v1Domain.timestamp,
      metadata: v1Domain.metadata,
      builder: v1Domain.builder,
    };
    const types = { Order: [...ORDER_V2_TYPES.Order] };
    const wrongVersion = await carol._signTypedData({ name: 'Polymarket CTF Exchange', version: '1', chainId: 137, verifyingContract: POLYGON_EXCHANGE_V2_ADDRESS }, types, message);
    const r1 = await post({ ...v1Domain, signature: wrongVersion });
    assert.equal(r1.status, 400);
    assert.equal(r1.error, 'INVALID_ORDER_ERROR');
    assert.match(r1.message, /field 'signature'/);
    assert.match(r1.message, /version "2"/);
    assert.match(r1.message, /signed for domain version "1"/);

    // Signed for the neg-risk exchange V2 although the market is not neg-risk.
    const wrongExchange = await carolClient.createOrder({ tokenID: yes, price: 0.2, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: true });
    const rx = await post(wrongExchange as never);
    assert.equal(rx.error, 'INVALID_ORDER_ERROR');
    assert.match(rx.message, /verifyingContract 0xE111180000d2663C0091e4f400237545B87B996B/);
    assert.match(rx.message, /signed for the neg-risk exchange V2 0xe2222d279d744050d28e00520010520000310F59/);

    // One flipped byte of r: recovers someone else (or nobody).
    const tampered = await fresh();
    const sig = tampered.signature;
    const r2 = await post({ ...tampered, signature: sig.slice(0, 10) + (sig[10] === 'a' ? 'b' : 'a') + sig.slice(11) });
    assert.equal(r2.status, 400);
    assert.equal(r2.error, 'INVALID_ORDER_ERROR');
    assert.match(r2.message, /invalid signature/);

    // A V1 signature (clob-client, same wallet) under V2 fields.
    const carolV1 = new ClobClientV1(host, 137, carol);
    const v1Signed = await carolV1.createOrder({ tokenID: yes, price: 0.2, side: SideV1.BUY, size: 5 }, { tickSize: '0.01', negRisk: false });
    const r3 = await post({ ...(await fresh()), signature: v1Signed.signature });
    assert.equal(r3.error, 'INVALID_ORDER_ERROR');
    assert.match(r3.message, /invalid signature: field 'signature' of this V2 order/);

    // Types: no coercion, the 400 names the field.
    const good = await fresh();
    const r4 = await post({ ...good, timestamp: Number(good.timestamp) });
    assert.equal(r4.status, 400);
    assert.equal(r4.error, 'invalid_field');
    assert.equal(r4.details?.field, 'order.timestamp');
    const r5 = await post({ ...good, metadata: '0x1234' });
    assert.equal(r5.details?.field, 'order.metadata');
    // The client sends only the V2 fields, so a missing or an extra one goes raw.
    const postRaw = async (edit: (order: Record<string, unknown>) => void) => {
      const body = orderToJsonV2(good as never, carolCreds.key, OrderType.GTC);
      edit(body.order as unknown as Record<string, unknown>);
      const raw = JSON.stringify(body);
      const headers = await createL2Headers(carol, carolCreds, { method: 'POST', requestPath: '/order', body: raw });
      const res = await fetch(`${host}/order`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: raw });
      return { status: res.status, ...((await res.json()) as { error: string; message: string; details: { field: string } }) };
    };
    const r6 = await postRaw((o) => delete o.builder);
    assert.equal(r6.status, 400);
    assert.equal(r6.details.field, 'order.builder');
    assert.match(r6.message, /is required/);
    const r7 = await postRaw((o) => (o.nonce = '0'));
    assert.equal(r7.status, 400);
    assert.equal(r7.details.field, 'order.nonce');
    assert.match(r7.message, /not a known field/);
    assert.deepEqual(await carolClient.getOpenOrders({ asset_id: yes, market: market.conditionId }), []);
  });

  it('open orders, cancel by hash and balance-allowance work through clob-client-v2', async () => {
    const [yes] = market.tokenIds;
    const placed = await carolClient.createAndPostOrder({ tokenID: yes, price: 0.2, side: Side.BUY, size: 5 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(placed.status, 'live');
    const open = await carolClient.getOpenOrders({ market: market.conditionId });
    assert.deepEqual(
      open.map((o) => o.id),
      [placed.orderID],
    );
    assert.equal((await carolClient.cancelOrder({ orderID: placed.orderID })).canceled.length, 1);
    assert.deepEqual(await carolClient.getOpenOrders(), []);
    const bal = await carolClient.getBalanceAllowance({ asset_type: 'COLLATERAL' as never });
    assert.match(String(bal.balance), /^\d+$/);
  });

  it('deleteApiKey revokes the signing key: its next call is refused api_key_revoked', async () => {
    await carolClient.deleteApiKey();
    const after = await carolClient.getApiKeys().then(
      (r) => r as unknown,
      (e: unknown) => e,
    );
    assert.match(JSON.stringify(after, Object.getOwnPropertyNames(after ?? {})), /api_key_revoked/);
  });
});

describe('clob-client-v2 against the polymarket profile started with --order-version 1', () => {
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;
  let market: Market;
  const erin = Wallet.createRandom();
  const frank = Wallet.createRandom();

  before(async () => {
    ({ engine, host, close } = await startListeningEngine({ profile: 'polymarket', orderVersion: 1 }));
    market = await engine.ctx.markets.create({ question: 'Will V1 stay the default?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
  });
  after(() => close());

  it('GET /version answers 1, the client then signs V1 orders, and a V2 order it is asked for still fills against them', async () => {
    const erinClient = new ClobClient({ host, chain: 137, signer: erin, creds: await new ClobClient({ host, chain: 137, signer: erin }).createOrDeriveApiKey() });
    const frankClient = new ClobClient({ host, chain: 137, signer: frank, creds: await new ClobClient({ host, chain: 137, signer: frank }).createOrDeriveApiKey() });
    assert.equal(await erinClient.getVersion(), 1);
    const [yes, no] = market.tokenIds;
    const v1 = await erinClient.createOrder({ tokenID: yes, price: 0.55, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false });
    assert.ok('nonce' in v1 && !('timestamp' in v1));
    const resting = await erinClient.postOrder(v1, OrderType.GTC);
    assert.equal(resting.status, 'live', JSON.stringify(resting));
    const v2 = await frankClient.createOrder({ tokenID: no, price: 0.45, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false, version: 2 } as never);
    assert.ok('timestamp' in v2);
    const taker = await frankClient.postOrder(v2, OrderType.GTC);
    assert.equal(taker.status, 'matched', JSON.stringify(taker));
    assert.equal((await erinClient.getOrder(resting.orderID)).status, 'MATCHED');
  });
});
