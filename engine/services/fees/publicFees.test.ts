import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { parseFeeSchedule, type FeeSchedule } from '../../protocol/feeSchedule.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';
import { PUBLIC_MARKET_ACCOUNT } from '../orders/publicDepth.js';
import { FEE_COLLECTOR } from './takerFee.js';

const [alice] = accounts as [PrivateKeyAccount];
const A = identityOf(alice);

/**
 * Fees on a mirrored market's public layer (decisions §10) with the public schedule {rate 0.04,
 * rebateRate 0.25}: a local taker of public depth pays the fee and the public-market account earns no
 * rebate here; a local maker filled by a public print pays nothing and earns its rebate from the fee account.
 */
describe('fees against the public layer', () => {
  let h: Harness;
  let m: TestMarket;
  const schedule = parseFeeSchedule({ rate: '0.04', rebateRate: '0.25' }) as FeeSchedule;
  const bal = (address: string) => h.orders.balanceOf(address, COLLATERAL).balance;
  const place = async (side: 'BUY' | 'SELL', price: string, shares: number, orderType: 'GTC' | 'FAK' = 'GTC') =>
    h.orders.place(A, await signedBody(alice, { market: m, outcome: 0, side, price: units(price), size: units(shares), feeRateBps: '400', orderType }));

  before(async () => {
    h = await makeHarness();
    m = h.markets.add(makeMarket(1, { feeRateBps: 400, feeSchedule: schedule }));
    await h.orders.creditCollateral(A.address, units(1000), 'test');
  });
  after(() => h.cleanup());

  it('a local BUY taking public depth at 0.30 pays 100 × 0.04 × 0.21 = 0.84; the public market gets no rebate', async () => {
    await h.orders.applyPublic(m.conditionId, [{ kind: 'snapshot', bids: [], asks: [{ price: 300_000, size: 100_000_000 }] }]);
    const r = await place('BUY', '0.30', 100, 'FAK');
    assert.equal(r.status, 'matched', JSON.stringify(r));
    assert.equal(bal(A.address), units(1000) - units(30) - units('0.84'));
    assert.equal(bal(FEE_COLLECTOR), units('0.84'));
    assert.equal(bal(PUBLIC_MARKET_ACCOUNT), 0n);
  });

  it('a local BUY resting at 0.25 filled by a public print earns 50 × 0.04 × 0.1875 × 0.25 = 0.09375 and pays no fee', async () => {
    const before = bal(A.address);
    const r = await place('BUY', '0.25', 50);
    assert.equal(r.status, 'live', JSON.stringify(r));
    await h.orders.applyPublic(m.conditionId, [{ kind: 'print', aggressor: 'ask', price: 250_000, size: 50_000_000 }]);
    assert.equal(bal(A.address), before - units('12.5') + units('0.09375'));
    assert.equal(bal(FEE_COLLECTOR), units('0.84') - units('0.09375'));
    const made = h.orders.listTrades(A, {}).data.find((t) => t.trader_side === 'MAKER')!;
    assert.deepEqual([made.fee, made.rebate], ['0', '0.09375']);
  });
});
