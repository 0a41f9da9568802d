import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient as ClobClientV1, OrderType as OrderTypeV1, Side as SideV1 } from '@polymarket/clob-client';
import { ClobClient, OrderType, Side } from '@polymarket/clob-client-v2';
import type { Engine } from '../../engine.js';
import { FEE_COLLECTOR } from '../../services/fees/takerFee.js';
import type { Market } from '../../services/markets/marketService.js';
import { units } from '../../testkit/orderKit.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';

/**
 * The stock clients, unmodified, on a market with the public-style schedule {rate 0.04, rebateRate 0.25}
 * (decisions §10): clob-client signs GET /fee-rate's base fee (400) as its V1 feeRateBps cap,
 * clob-client-v2 reads the schedule's rate and exponent from /clob-markets, and both pay the schedule.
 */
describe('the stock clients on a fee-charging market', () => {
  let engine: Engine;
  let host: string;
  let close: () => Promise<void>;
  let market: Market;
  const maker = Wallet.createRandom();
  const taker = Wallet.createRandom();
  let makerV1: ClobClientV1;
  let takerV2: ClobClient;
  const balance = (address: string) => engine.ctx.orders.balanceOf(address.toLowerCase(), 'COLLATERAL').balance;

  before(async () => {
    ({ engine, host, close } = await startListeningEngine({ profile: 'polymarket' }));
    market = await engine.ctx.markets.create(
      { question: 'Do the stock clients pay the schedule?', tickSize: 10_000n, minOrderSize: 5_000_000n, feeSchedule: { rate: '0.04', rebateRate: '0.25' } },
      { waitForChain: false },
    );
    makerV1 = new ClobClientV1(host, 137, maker, await new ClobClientV1(host, 137, maker).createOrDeriveApiKey());
    takerV2 = new ClobClient({ host, chain: 137, signer: taker, creds: await new ClobClient({ host, chain: 137, signer: taker }).createOrDeriveApiKey() });
    for (const w of [maker, taker]) await engine.ctx.orders.creditCollateral(w.address.toLowerCase(), units(100), 'fee test');
  });
  after(() => close());

  it('clob-client reads the base fee and signs it; clob-client-v2 reads rate 0.04 and exponent 1', async () => {
    assert.equal(await makerV1.getFeeRateBps(market.tokenIds[0]), 400);
    assert.equal(await takerV2.getFeeExponent(market.tokenIds[0]), 1);
    const info = await takerV2.getClobMarketInfo(market.conditionId);
    assert.deepEqual(info.fd, { r: 0.04, e: 1 });
  });

  it('a V2 taker pays 100 × 0.04 × 0.21 = 0.84 against a V1 maker, who earns 0.21 from the fee account', async () => {
    const m0 = balance(maker.address);
    const t0 = balance(taker.address);
    const resting = await makerV1.createAndPostOrder({ tokenID: market.tokenIds[0], price: 0.7, side: SideV1.BUY, size: 100 }, { tickSize: '0.01', negRisk: false }, OrderTypeV1.GTC);
    assert.equal(resting.success, true, JSON.stringify(resting));
    const signed = await takerV2.createOrder({ tokenID: market.tokenIds[1], price: 0.3, side: Side.BUY, size: 100 }, { tickSize: '0.01', negRisk: false });
    const took = await takerV2.postOrder(signed, OrderType.GTC);
    assert.equal(took.status, 'matched', JSON.stringify(took));
    assert.equal(balance(taker.address), t0 - units(30) - units('0.84'));
    assert.equal(balance(maker.address), m0 - units(70) + units('0.21'));
    assert.equal(balance(FEE_COLLECTOR), units('0.63'));
    const [trade] = await takerV2.getTrades({ market: market.conditionId });
    assert.equal((trade as unknown as { fee: string }).fee, '0.84');
  });

  it('clob-client signs the base fee as its V1 cap by itself (and refuses another non-zero one before sending)', async () => {
    const signed = await makerV1.createOrder({ tokenID: market.tokenIds[0], price: 0.5, side: SideV1.BUY, size: 5 }, { tickSize: '0.01', negRisk: false });
    assert.equal(signed.feeRateBps, '400');
    await assert.rejects(makerV1.createOrder({ tokenID: market.tokenIds[0], price: 0.5, side: SideV1.BUY, size: 5, feeRateBps: 1000 }, { tickSize: '0.01', negRisk: false }), /fee rate for the market must be 400/);
  });
});
