import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';
import { NO_FEE, feeScheduleFromBps, parseFeeSchedule, type FeeSchedule } from '../../protocol/feeSchedule.js';
import { FEE_COLLECTOR, baseFeeBps, makerRebate, takerFee, takerFeeBound } from './takerFee.js';

const [alice, bob, carol, dave] = accounts as [(typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0]];
const A = identityOf(alice);
const B = identityOf(bob);
const C = identityOf(carol);
const D = identityOf(dave);

/** A schedule from decimal text, as the operator writes it. */
const sched = (rate: string, rebateRate = '0', exponent = 1): FeeSchedule => {
  const s = parseFeeSchedule({ rate, rebateRate, exponent, takerOnly: true });
  if ('problem' in s) throw new Error(s.problem);
  return s;
};

describe('taker fee arithmetic (decisions §10)', () => {
  // [rate, price, shares, fee] computed by hand: shares × rate × p(1 − p), half-up to 5 decimals.
  const table: Array<[string, string, string, string, string]> = [
    ['0.04', '0.30', '100', '0.84', '100 × 0.04 × 0.21'],
    ['0.04', '0.70', '100', '0.84', 'symmetric: 100 × 0.04 × 0.21'],
    ['0.072', '0.50', '10', '0.18', '10 × 0.072 × 0.25'],
    ['0.02', '0.40', '10', '0.048', '10 × 0.02 × 0.24'],
    ['0.072', '0.33', '7', '0.11143', '7 × 0.072 × 0.2211 = 0.1114344, down'],
    ['0.03', '0.45', '3.5', '0.02599', '3.5 × 0.03 × 0.2475 = 0.0259875, up'],
    ['0.04', '0.01', '1', '0.0004', '1 × 0.04 × 0.0099 = 0.000396, up'],
    ['0.02', '0.50', '0.005', '0.00003', '0.005 × 0.02 × 0.25 = 0.000025: a half rounds up (half-even would say 0.00002)'],
    ['0.04', '0.50', '0.0005', '0.00001', '0.0005 × 0.04 × 0.25 = 0.000005: the smallest fee'],
    ['0.04', '0.50', '0.000499', '0', '0.000499 × 0.01 = 0.00000499: below half a step, free'],
    ['0', '0.50', '1000', '0', 'no fee'],
  ];
  for (const [rate, p, shares, fee, why] of table) {
    it(`charges ${fee} for ${shares} shares at ${p} with rate ${rate} (${why})`, () => {
      assert.equal(takerFee(sched(rate), units(p), units(shares)), units(fee));
    });
  }

  it('raises p(1 − p) to the exponent (0 is a flat rate × shares)', () => {
    // 10 × 0.1 × 0.25² = 0.0625
    assert.equal(takerFee(sched('0.1', '0', 2), units('0.5'), units(10)), units('0.0625'));
    // 10 × 0.01 × 1, at any price
    assert.equal(takerFee(sched('0.01', '0', 0), units('0.9'), units(10)), units('0.1'));
  });

  it('a schedule built from n bps charges n/10000 as its rate and gives n back as the base fee', () => {
    assert.deepEqual(feeScheduleFromBps(200), sched('0.02'));
    assert.equal(baseFeeBps(feeScheduleFromBps(200)), 200);
    assert.equal(baseFeeBps(sched('0.072')), 720);
    assert.equal(baseFeeBps(sched('0.00005')), 1, 'half a bps rounds up');
    assert.equal(baseFeeBps(NO_FEE), 0);
  });

  // [rate, rebateRate, price, shares, rebate]
  const rebates: Array<[string, string, string, string, string]> = [
    ['0.04', '0.25', '0.30', '100', '0.21'],
    ['0.04', '0.2', '0.50', '1', '0.002'],
    ['0.072', '0.2', '0.33', '7', '0.02229'], // 0.2 × 0.1114344 = 0.02228688
    ['0.04', '0', '0.30', '100', '0'],
  ];
  for (const [rate, rebateRate, p, shares, rebate] of rebates) {
    it(`pays a maker ${rebate} on ${shares} shares at ${p} with rate ${rate} and rebate rate ${rebateRate}`, () => {
      assert.equal(makerRebate(sched(rate, rebateRate), units(p), units(shares)), units(rebate));
    });
  }

  it('bounds a BUY’s fees by its limit (p(1 − p) rises to ½) plus half a step per possible fill, never more than twice the exact bound', () => {
    const s = sched('0.02');
    // 10 × 0.02 × 0.25 = 0.05 above ½, 10 × 0.02 × 0.21 = 0.042 at 0.30
    assert.equal(takerFeeBound(s, units('0.7'), units(10), 0), units('0.05'));
    assert.equal(takerFeeBound(s, units('0.3'), units(10), 0), units('0.042'));
    assert.equal(takerFeeBound(s, units('0.7'), units(10), 3), units('0.050015'));
    assert.equal(takerFeeBound(s, units('0.7'), units(10)), units('0.1'));
    assert.equal(takerFeeBound(NO_FEE, units('0.7'), units(10), 3), 0n);
  });

  it('the bound is reached: ten fills each owing exactly half a step pay twice the exact fee', () => {
    const s = sched('0.02');
    // 0.001 shares × 0.02 × 0.25 = 0.000005 each, rounded up to 0.00001
    const fees = Array.from({ length: 10 }, () => takerFee(s, units('0.5'), units('0.001')));
    const paid = fees.reduce((a, b) => a + b, 0n);
    assert.equal(paid, units('0.0001'));
    assert.equal(takerFeeBound(s, units('0.5'), units('0.01'), 10), paid);
    assert.ok(takerFeeBound(s, units('0.5'), units('0.01'), 9) < paid, 'with one fill fewer the bound would be short');
  });

  it('covers every split of a BUY into fills at prices up to its limit (seeded random splits)', () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let trial = 0; trial < 500; trial++) {
      const s = sched(['0.02', '0.04', '0.072', '1'][rnd(4)]!, '0', 1 + rnd(2));
      const limit = BigInt(1 + rnd(99)) * 10_000n;
      const fills = 1 + rnd(8);
      let total = 0n;
      let paid = 0n;
      for (let i = 0; i < fills; i++) {
        const size = BigInt(1 + rnd(20_000));
        const price = BigInt(1 + rnd(Number(limit)));
        total += size;
        paid += takerFee(s, price, size);
      }
      assert.ok(paid <= takerFeeBound(s, limit, total, fills), `trial ${trial}: ${paid} > bound`);
    }
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
    // taker bob buys No at 0.40: fee = 10 × 0.02 × (0.40 × 0.60) = 0.048
    assert.equal(bal(B).balance, units('995.952'));
    assert.equal(bal(B).reserved, 0n);
    assert.equal(bal(A).balance, units(994));
    assert.equal(bal({ address: FEE_COLLECTOR }).balance, units('0.048'));
    const [trade] = h.orders.listTrades(B, {}).data;
    assert.equal(trade!.fee, '0.048');
    assert.equal(trade!.type, 'MINT');
    assert.equal(h.orders.listTrades(A, {}).data[0]!.trader_side, 'MAKER');
  });

  it('charges a BUY taker on one token at the maker’s price and a SELL taker out of its proceeds (normal and merge)', async () => {
    await h.orders.place(A, await order(alice, 0, 'BUY', 600_000n, 10));
    await h.orders.place(B, await order(bob, 1, 'BUY', 400_000n, 10)); // alice 10 Yes, bob 10 No
    await h.orders.place(A, await order(alice, 0, 'SELL', 700_000n, 10));
    await h.orders.place(C, await order(carol, 0, 'BUY', 750_000n, 10));
    // carol buys Yes at 0.70: cost 7, fee 10 × 0.02 × 0.21 = 0.042
    assert.equal(bal(C).balance, units('992.958'));
    assert.equal(bal(C).reserved, 0n);
    assert.equal(bal(A).balance, units(1001));

    await h.orders.place(B, await order(bob, 1, 'SELL', 450_000n, 10));
    await h.orders.place(C, await order(carol, 0, 'SELL', 550_000n, 10));
    // merge: carol sells Yes at 0.55, receives 5.50 − 10 × 0.02 × 0.2475 = 5.4505
    assert.equal(bal(C).balance, units('998.4085'));
    assert.equal(bal(B).balance, units('995.952') + units('4.5'));

    const fees = units('0.048') + units('0.042') + units('0.0495');
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
    // alice sells Yes at 0.20: receives 2 − 10 × 0.02 × 0.16 = 1.968
    assert.equal(bal(A).balance, units('995.968'));
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
    // the market's schedule, not the signed cap: 10 × 0.02 × 0.25 = 0.05
    assert.equal(bal(B).balance, units(1000) - units(5) - units('0.05'));
  });

  it('reserves the most a taker BUY can pay in fees next to its cost', async () => {
    await h.orders.creditCollateral(D.address, units('7.05'), 'welcome');
    await h.orders.place(A, await order(alice, 0, 'BUY', 300_000n, 10));
    await h.orders.place(B, await order(bob, 1, 'BUY', 700_000n, 10)); // bob (taker) holds 10 No
    await h.orders.place(B, await order(bob, 1, 'SELL', 700_000n, 10));
    // bound = 10 × 0.02 × 0.25 (p(1 − p) at ½, above the 0.70 limit's) + 0.000005 for the one resting
    // order it can meet = 0.050005, so 7.05 is short of 7.050005
    const short = await h.orders.place(D, await order(dave, 1, 'BUY', 700_000n, 10));
    assert.equal(short.error_code, 'INVALID_ORDER_NOT_ENOUGH_BALANCE');
    assert.match(short.error_msg, /needs 7\.050005 collateral/);
    await h.orders.creditCollateral(D.address, units('0.000005'), 'top-up');
    const ok = await h.orders.place(D, await order(dave, 1, 'BUY', 700_000n, 10));
    assert.equal(ok.status, 'matched');
    // the fee actually charged: 10 × 0.02 × 0.21 = 0.042
    assert.equal(bal(D).balance, units('0.008005'));
    assert.equal(bal(D).reserved, 0n);
  });

  it('pays the maker its rebate out of the fee account on every fill, keeping collateral conserved', async () => {
    const r = h.markets.add(makeMarket(2, { feeRateBps: 400, feeSchedule: sched('0.04', '0.25') }));
    const on = (acct: typeof alice, outcome: 0 | 1, side: 'BUY' | 'SELL', price: bigint, size: number) =>
      signedBody(acct, { market: r, outcome, side, price, size: units(size), feeRateBps: '400' });
    await h.orders.place(A, await on(alice, 0, 'BUY', 700_000n, 100)); // maker
    await h.orders.place(B, await on(bob, 1, 'BUY', 300_000n, 60)); // taker of a mint at 0.30
    await h.orders.place(C, await on(carol, 1, 'BUY', 300_000n, 40)); // second taker
    // bob: 60 × 0.04 × 0.21 = 0.504, rebate 0.126; carol: 40 × 0.04 × 0.21 = 0.336, rebate 0.084
    assert.equal(bal(B).balance, units(1000) - units(18) - units('0.504'));
    assert.equal(bal(C).balance, units(1000) - units(12) - units('0.336'));
    assert.equal(bal(A).balance, units(1000) - units(70) + units('0.126') + units('0.084'));
    assert.equal(bal({ address: FEE_COLLECTOR }).balance, units('0.84') - units('0.21'));
    const [made] = h.orders.listTrades(A, {}).data;
    assert.equal(made!.trader_side, 'MAKER');
    assert.equal(made!.rebate, '0.084');
    const total = [A, B, C].reduce((sum, w) => sum + bal(w).balance, 0n) + bal({ address: FEE_COLLECTOR }).balance;
    assert.equal(total + units(100), units(3000), 'users and the fee account hold what was credited less the 100 collateral locked in 100 complete sets');
  });
});
