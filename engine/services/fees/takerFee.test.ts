import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';
import { FEE_COLLECTOR, takerFee, takerFeeBound } from './takerFee.js';

const [alice, bob, carol, dave] = accounts as [(typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0]];
const A = identityOf(alice);
const B = identityOf(bob);
const C = identityOf(carol);
const D = identityOf(dave);

describe('taker fee arithmetic', () => {
  it('charges rate × min(price, 1 − price) × shares, symmetric around one half', () => {
    assert.equal(takerFee(200, 300_000n, units(10)), 60_000n);
    assert.equal(takerFee(200, 700_000n, units(10)), 60_000n);
    assert.equal(takerFee(200, 500_000n, units(10)), 100_000n);
    assert.equal(takerFee(0, 500_000n, units(10)), 0n);
  });

  it('rounds down to the micro-unit, per fill', () => {
    // 3 bps × 0.33 × 1.000001 = 0.0000990000990 → 99 micro-units
    assert.equal(takerFee(3, 330_000n, 1_000_001n), 99n);
    // 1 bps × 0.01 × 0.000099 owes less than one micro-unit
    assert.equal(takerFee(1, 10_000n, 99n), 0n);
  });

  it('bounds a BUY’s fee by its limit price, capped at one half', () => {
    assert.equal(takerFeeBound(200, 700_000n, units(10)), 100_000n);
    assert.equal(takerFeeBound(200, 300_000n, units(10)), 60_000n);
    for (const p of [10_000n, 290_000n, 300_000n]) assert.ok(takerFee(200, p, units(10)) <= takerFeeBound(200, 300_000n, units(10)));
  });
});

describe('taker fees on placement', () => {
  let h: Harness;
  let m: TestMarket;
  const bal = (who: { address: string }) => h.orders.balanceOf(who.address, COLLATERAL);

  beforeEach(async () => {
    h = await makeHarness();
    m = h.markets.add(makeMarket(1, { feeRateBps: 200 }));
    for (const who of [A, B, C]) await h.orders.creditCollateral(who.address, units(1000), 'welcome');
  });
  afterEach(() => h.cleanup());

  const order = (acct: typeof alice, outcome: 0 | 1, side: 'BUY' | 'SELL', price: bigint, size: number, extra: Partial<Parameters<typeof signedBody>[1]> = {}) =>
    signedBody(acct, { market: m, outcome, side, price, size: units(size), feeRateBps: '200', ...extra });

  it('charges the taker of a mint, not the maker, and credits the fee collector', async () => {
    const made = await h.orders.place(A, await order(alice, 0, 'BUY', 600_000n, 10));
    assert.equal(bal(A).reserved, units(6), 'a resting BUY holds its limit cost only');
    const took = await h.orders.place(B, await order(bob, 1, 'BUY', 400_000n, 10));
    assert.equal(made.success && took.status, 'matched');
    // taker bob buys No at 0.40: fee = 0.02 × 0.40 × 10 = 0.08
    assert.equal(bal(B).balance, units('995.92'));
    assert.equal(bal(B).reserved, 0n);
    assert.equal(bal(A).balance, units(994));
    assert.equal(bal({ address: FEE_COLLECTOR }).balance, units('0.08'));
    const [trade] = h.orders.listTrades(B, {}).data;
    assert.equal(trade!.fee, '0.08');
    assert.equal(trade!.type, 'MINT');
    assert.equal(h.orders.listTrades(A, {}).data[0]!.trader_side, 'MAKER');
  });

  it('charges a BUY taker on one token at the maker’s price and a SELL taker out of its proceeds (normal and merge)', async () => {
    await h.orders.place(A, await order(alice, 0, 'BUY', 600_000n, 10));
    await h.orders.place(B, await order(bob, 1, 'BUY', 400_000n, 10)); // alice 10 Yes, bob 10 No
    await h.orders.place(A, await order(alice, 0, 'SELL', 700_000n, 10));
    await h.orders.place(C, await order(carol, 0, 'BUY', 750_000n, 10));
    // carol buys Yes at 0.70: cost 7, fee 0.02 × 0.30 × 10 = 0.06
    assert.equal(bal(C).balance, units('992.94'));
    assert.equal(bal(C).reserved, 0n);
    assert.equal(bal(A).balance, units(1001));

    await h.orders.place(B, await order(bob, 1, 'SELL', 450_000n, 10));
    await h.orders.place(C, await order(carol, 0, 'SELL', 550_000n, 10));
    // merge: carol sells Yes at 0.55, receives 5.50 − 0.02 × 0.45 × 10 = 5.41
    assert.equal(bal(C).balance, units('998.35'));
    assert.equal(bal(B).balance, units('995.92') + units('4.5'));

    const fees = units('0.08') + units('0.06') + units('0.09');
    assert.equal(bal({ address: FEE_COLLECTOR }).balance, fees);
    const total = [A, B, C].reduce((s, w) => s + bal(w).balance, 0n) + bal({ address: FEE_COLLECTOR }).balance;
    assert.equal(total, units(3000), 'collateral is conserved: no shares remain outstanding after the merge');
  });

  it('charges a SELL taker on one token out of its proceeds', async () => {
    await h.orders.place(A, await order(alice, 0, 'BUY', 600_000n, 10));
    await h.orders.place(B, await order(bob, 1, 'BUY', 400_000n, 10)); // alice holds 10 Yes
    await h.orders.place(C, await order(carol, 0, 'BUY', 200_000n, 10));
    const r = await h.orders.place(A, await order(alice, 0, 'SELL', 200_000n, 10, { orderType: 'FOK' }));
    assert.equal(r.status, 'matched');
    // alice sells Yes at 0.20: receives 2 − 0.02 × 0.20 × 10 = 1.96
    assert.equal(bal(A).balance, units('995.96'));
    assert.equal(bal(C).balance, units(998));
  });

  it('refuses an order signed with a fee rate below the market’s, accepts the rate or more and charges the market’s rate', async () => {
    const low = await h.orders.place(A, await order(alice, 0, 'BUY', 500_000n, 10, { feeRateBps: '0' }));
    assert.equal(low.success, false);
    assert.equal(low.error_code, 'INVALID_ORDER_ERROR');
    assert.match(low.error_msg, /invalid fee rate \(0\).*200/);
    await h.orders.place(A, await order(alice, 0, 'BUY', 500_000n, 10));
    const high = await h.orders.place(B, await order(bob, 1, 'BUY', 500_000n, 10, { feeRateBps: '1000' }));
    assert.equal(high.status, 'matched');
    assert.equal(bal(B).balance, units(1000) - units(5) - units('0.1'));
  });

  it('reserves the most a taker BUY can pay in fees next to its cost', async () => {
    await h.orders.creditCollateral(D.address, units('7.09'), 'welcome');
    await h.orders.place(A, await order(alice, 0, 'BUY', 300_000n, 10));
    await h.orders.place(B, await order(bob, 1, 'BUY', 700_000n, 10)); // bob (taker) holds 10 No
    await h.orders.place(B, await order(bob, 1, 'SELL', 700_000n, 10));
    // bound = 0.02 × min(0.70, 0.5) × 10 = 0.10, so 7.09 is short of 7.10
    const short = await h.orders.place(D, await order(dave, 1, 'BUY', 700_000n, 10));
    assert.equal(short.error_code, 'INVALID_ORDER_NOT_ENOUGH_BALANCE');
    await h.orders.creditCollateral(D.address, units('0.01'), 'top-up');
    const ok = await h.orders.place(D, await order(dave, 1, 'BUY', 700_000n, 10));
    assert.equal(ok.status, 'matched');
    // the fee actually charged: 0.02 × 0.30 × 10 = 0.06
    assert.equal(bal(D).balance, units('0.04'));
    assert.equal(bal(D).reserved, 0n);
  });
});
