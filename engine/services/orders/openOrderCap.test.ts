import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';

const [alice, bob] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
const A = identityOf(alice);
const B = identityOf(bob);

describe('the per-account open-order cap', () => {
  let h: Harness;
  let m: TestMarket;

  before(async () => {
    h = await makeHarness({ config: { maxOpenOrders: 3 } });
    m = h.markets.add(makeMarket(1));
    for (const who of [A, B]) await h.orders.creditCollateral(who.address, units(1000), 'test');
  });
  after(() => h.cleanup());

  const bid = async (price: bigint, orderType: 'GTC' | 'FAK' = 'GTC') => h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price, size: units(5), orderType }));

  it('refuses an order that would rest past the cap with a 4xx code saying what to do, and takes it again once one is cancelled', async () => {
    const ids: string[] = [];
    for (const p of [100_000n, 110_000n, 120_000n]) {
      const r = await bid(p);
      assert.equal(r.status, 'live');
      ids.push(r.order_id!);
    }
    const refused = await bid(130_000n);
    assert.equal(refused.success, false);
    assert.equal(refused.error_code, 'INVALID_ORDER_TOO_MANY_OPEN_ORDERS');
    assert.match(refused.error_msg, /has 3 orders resting, the most one account may have \(3\)\. Cancel some/);
    assert.equal(refused.order_id, null);
    // Another account is not affected.
    const other = await h.orders.place(B, await signedBody(bob, { market: m, side: 'BUY', price: 100_000n, size: units(5) }));
    assert.equal(other.status, 'live');

    await h.orders.cancel(A, [ids[0]!]);
    assert.equal((await bid(140_000n)).status, 'live');
  });

  it('still takes, at the cap, an order that fills completely on arrival or cannot rest (FAK)', async () => {
    // Bob offers 5 YES at 0.5: a BUY of 5 at 0.5 fills whole and adds nothing to the book.
    const ask = await h.orders.place(B, await signedBody(bob, { market: m, side: 'BUY', outcome: 1, price: 500_000n, size: units(5) }));
    assert.equal(ask.status, 'live');
    const filled = await bid(500_000n);
    assert.equal(filled.success, true, filled.error_msg);
    assert.equal(filled.status, 'matched');
    const fak = await bid(600_000n, 'FAK');
    assert.equal(fak.success, true, fak.error_msg);
  });
});
