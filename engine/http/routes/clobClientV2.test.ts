import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient as ClobClientV1, OrderType as OrderTypeV1, Side as SideV1 } from '@polymarket/clob-client';
import { ClobClient, OrderType, Side } from '@polymarket/clob-client-v2';
import type { Engine } from '../../engine.js';
import type { Market } from '../../services/markets/marketService.js';
import { UUID, ORDER_HASH, nextSecond, startListeningEngine } from './clobClientTestKit.js';

describe('the stock @polymarket/clob-client-v2, unmodified, against the polymarket profile', () => {
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;
  let market: Market;
  const carol = Wallet.createRandom();
  const dave = Wallet.createRandom();
  let carolClient: ClobClient;
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
    await nextSecond();
    assert.deepEqual(await l1.createOrDeriveApiKey(), creds);
    await nextSecond();
    assert.deepEqual(await l1.deriveApiKey(), creds);
    carolClient = new ClobClient({ host, chain: 137, signer: carol, creds });
    daveV1 = new ClobClientV1(host, 137, dave, await new ClobClientV1(host, 137, dave).createOrDeriveApiKey());
  });

  it('an order from clob-client-v2 (signed V1, as GET /version answers 1) fills against a resting order from clob-client (V1) on the same book', async () => {
    const [yes, no] = market.tokenIds;
    const resting = await daveV1.createAndPostOrder({ tokenID: yes, price: 0.55, side: SideV1.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderTypeV1.GTC);
    assert.equal(resting.success, true, JSON.stringify(resting));
    const taker = await carolClient.createAndPostOrder({ tokenID: no, price: 0.45, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }, OrderType.GTC);
    assert.equal(taker.success, true, JSON.stringify(taker));
    assert.match(taker.orderID, ORDER_HASH);
    assert.equal(taker.status, 'matched');
    assert.equal(taker.takingAmount, '10');
    assert.equal(taker.makingAmount, '4.5');
    const order = await carolClient.getOrder(taker.orderID);
    assert.equal(order.status, 'MATCHED');
    assert.equal(order.outcome, 'No');
    assert.equal((await daveV1.getOrder(resting.orderID)).status, 'MATCHED');
    const trades = await carolClient.getTrades({ market: market.conditionId });
    assert.deepEqual(
      trades.map((t) => t.id),
      taker.tradeIDs,
    );
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
