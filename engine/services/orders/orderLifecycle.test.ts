import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { END_CURSOR, FIRST_CURSOR } from './pageCursor.js';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';

const [alice, bob, carol] = accounts as [(typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0]];
const A = identityOf(alice);
const B = identityOf(bob);
const C = identityOf(carol);

describe('order lifecycle', () => {
  let h: Harness;
  let m: TestMarket;

  beforeEach(async () => {
    h = await makeHarness();
    m = h.markets.add(makeMarket(1));
    for (const who of [A, B, C]) await h.orders.creditCollateral(who.address, units(1000), 'welcome');
  });
  afterEach(() => h.cleanup());

  const buy = (acct: typeof alice, price: bigint, size: number, extra: Partial<Parameters<typeof signedBody>[1]> = {}) =>
    signedBody(acct, { market: m, side: 'BUY', price, size: units(size), ...extra });

  describe('cancels', () => {
    it('cancels the owner’s order, releases its reservation and reports unknown ids with a reason', async () => {
      const r = await h.orders.place(A, await buy(alice, 500_000n, 10));
      assert.equal(h.orders.balanceOf(A.address, COLLATERAL).reserved, units(5));
      const res = await h.orders.cancel(A, [r.order_id!.toLowerCase(), '01ARZ3NDEKTSV4RRFFQ69G5FAV']);
      assert.deepEqual(res.canceled, [r.order_id]);
      assert.deepEqual(res.not_canceled, { '01ARZ3NDEKTSV4RRFFQ69G5FAV': 'Order not found or already canceled' });
      assert.equal(h.orders.balanceOf(A.address, COLLATERAL).reserved, 0n);
      assert.equal(h.orders.get(r.order_id!).status, 'cancelled');
      assert.equal(h.orders.book(m.conditionId)!.orderCount, 0);
      const again = await h.orders.cancel(A, [r.order_id!]);
      assert.deepEqual(again.not_canceled, { [r.order_id!]: 'the order is already canceled' });
    });

    it('never cancels another owner’s order', async () => {
      const r = await h.orders.place(A, await buy(alice, 500_000n, 10));
      const res = await h.orders.cancel(B, [r.order_id!]);
      assert.deepEqual(res.canceled, []);
      assert.equal(res.not_canceled[r.order_id!], 'Order not found or already canceled');
      assert.equal(h.orders.get(r.order_id!).status, 'open');
    });

    it('says a filled order is already matched', async () => {
      const r = await h.orders.place(A, await buy(alice, 500_000n, 10));
      await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(10) }));
      assert.deepEqual((await h.orders.cancel(A, [r.order_id!])).not_canceled, { [r.order_id!]: 'Order already matched' });
    });

    it('cancels everything with cancelAll and one market or token with cancelMarket', async () => {
      const m2 = h.markets.add(makeMarket(2));
      const a = await h.orders.place(A, await buy(alice, 500_000n, 10));
      const b = await h.orders.place(A, await signedBody(alice, { market: m2, side: 'BUY', price: 500_000n, size: units(10) }));
      const c = await h.orders.place(A, await signedBody(alice, { market: m2, outcome: 1, side: 'BUY', price: 400_000n, size: units(10) }));
      await h.orders.place(B, await buy(bob, 400_000n, 10));
      const byToken = await h.orders.cancelMarket(A, { asset_id: m2.tokenIds[1] });
      assert.deepEqual(byToken.canceled, [c.order_id]);
      const byMarket = await h.orders.cancelMarket(A, { market: m2.conditionId });
      assert.deepEqual(byMarket.canceled, [b.order_id]);
      await assert.rejects(h.orders.cancelMarket(A, {}), (e: ApiError) => e.code === 'invalid_field');
      const all = await h.orders.cancelAll(A);
      assert.deepEqual(all.canceled, [a.order_id]);
      assert.equal(h.orders.listOpen(B, {}).count, 1, 'other owners keep their orders');
    });

    it('cancels a market’s orders on resolution', async () => {
      await h.orders.place(A, await buy(alice, 500_000n, 10));
      await h.orders.place(B, await buy(bob, 400_000n, 10));
      const ids = await h.orders.cancelMarketOrders(m.conditionId, 'market resolved');
      assert.equal(ids.length, 2);
      assert.equal(h.orders.balanceOf(A.address, COLLATERAL).reserved, 0n);
    });
  });

  describe('GTD expiry', () => {
    it('keeps a GTD for N seconds when expiration = now + N + 60, then cancels it and releases the reservation', async () => {
      const now = Math.floor(h.clock.nowMs() / 1000);
      const r = await h.orders.place(A, await buy(alice, 500_000n, 10, { orderType: 'GTD', expiration: BigInt(now + 30 + 60) }));
      h.clock.advance(29_000);
      assert.deepEqual(await h.orders.expireDue(), []);
      assert.equal(h.orders.get(r.order_id!).status, 'open');
      h.clock.advance(1_000);
      assert.deepEqual(await h.orders.expireDue(), [r.order_id]);
      assert.equal(h.orders.get(r.order_id!).status, 'cancelled');
      assert.equal(h.orders.balanceOf(A.address, COLLATERAL).reserved, 0n);
      assert.equal(h.orders.book(m.conditionId)!.orderCount, 0);
    });

    it('never fills an expired GTD, even before the timer ran', async () => {
      const now = Math.floor(h.clock.nowMs() / 1000);
      const r = await h.orders.place(A, await buy(alice, 500_000n, 10, { orderType: 'GTD', expiration: BigInt(now + 61) }));
      h.clock.advance(5_000);
      const take = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(10), orderType: 'FAK' }));
      assert.equal(take.status, 'unmatched');
      assert.equal(h.orders.get(r.order_id!).status, 'cancelled');
    });

    it('cancels GTD orders whose expiry passed while the engine was down', async () => {
      const now = Math.floor(h.clock.nowMs() / 1000);
      const gone = await h.orders.place(A, await buy(alice, 500_000n, 10, { orderType: 'GTD', expiration: BigInt(now + 120) }));
      const stays = await h.orders.place(A, await buy(alice, 400_000n, 10, { orderType: 'GTD', expiration: BigInt(now + 3600) }));
      h.clock.advance(61_000);
      h = await h.reopen();
      assert.equal(h.orders.get(gone.order_id!).status, 'cancelled');
      assert.equal(h.orders.get(stays.order_id!).status, 'open');
      assert.equal(h.orders.balanceOf(A.address, COLLATERAL).reserved, units(4));
      assert.equal(h.orders.book(m.conditionId)!.orderCount, 1);
    });
  });

  describe('restart', () => {
    it('still refuses, after a restart, the duplicate of an order placed before it (the index is rebuilt from the table)', async () => {
      const body = await buy(alice, 500_000n, 10);
      const first = await h.orders.place(A, body);
      assert.equal(first.success, true);
      h = await h.reopen();
      const again = await h.orders.place(A, body);
      assert.equal(again.error_code, 'INVALID_ORDER_DUPLICATED');
      assert.match(again.error_msg ?? '', new RegExp(first.order_id!));
    });

    it('rebuilds books, balances and reservations from the database in time order', async () => {
      const first = await h.orders.place(A, await buy(alice, 500_000n, 10));
      const second = await h.orders.place(B, await buy(bob, 500_000n, 10));
      const partial = await h.orders.place(C, await signedBody(carol, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(6) }));
      assert.equal(partial.status, 'matched');
      const before = { a: h.orders.balanceOf(A.address, COLLATERAL), b: h.orders.balanceOf(B.address, COLLATERAL) };
      h = await h.reopen();
      assert.deepEqual(h.orders.balanceOf(A.address, COLLATERAL), before.a);
      assert.deepEqual(h.orders.balanceOf(B.address, COLLATERAL), before.b);
      assert.equal(h.orders.get(first.order_id!).status, 'partially_filled');
      // Price-time priority survives: Alice (first, 4 left) fills before Bob.
      const r = await h.orders.place(C, await signedBody(carol, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(6) }));
      assert.equal(r.status, 'matched');
      assert.equal(h.orders.get(first.order_id!).status, 'filled');
      assert.equal(h.orders.get(second.order_id!).sizeMatched, '2');
      assert.equal(h.orders.lastTrade(m.tokenIds[0])!.price, 500_000n);
    });

    it('cancels and fills orders restored at startup through the book handles they got then', async () => {
      const kept = await h.orders.place(A, await buy(alice, 500_000n, 10));
      const dropped = await h.orders.place(B, await buy(bob, 500_000n, 5));
      h = await h.reopen();
      const book = h.orders.book(m.conditionId)!;
      assert.equal(book.orderCount, 2);
      assert.deepEqual((await h.orders.cancel(B, [dropped.order_id!])).canceled, [dropped.order_id]);
      assert.deepEqual(book.levels('bid'), [{ price: 500_000, size: 10_000_000 }], 'only the cancelled order left the book');
      assert.equal(h.orders.balanceOf(B.address, COLLATERAL).reserved, 0n);
      const take = await h.orders.place(C, await signedBody(carol, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(15), orderType: 'FAK' }));
      assert.equal(take.status, 'matched');
      assert.equal(h.orders.get(kept.order_id!).status, 'filled');
      assert.equal(h.orders.get(kept.order_id!).sizeMatched, '10');
      assert.equal(h.orders.get(dropped.order_id!).sizeMatched, '0');
      assert.equal(book.orderCount, 0);
    });
  });

  it('conserves collateral and shares across a mix of mints, trades and merges', async () => {
    const people = [A, B, C];
    const total = () => {
      let coll = 0n;
      let sets = 0n;
      for (const p of people) {
        coll += h.orders.balanceOf(p.address, COLLATERAL).balance;
        sets += h.orders.balanceOf(p.address, m.tokenIds[0]).balance;
      }
      return { coll, sets };
    };
    const t0 = total();
    await h.orders.place(A, await buy(alice, 530_000n, 37.37));
    await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 490_000n, size: units(20.01) }));
    await h.orders.place(C, await signedBody(carol, { market: m, outcome: 1, side: 'BUY', price: 470_000n, size: units(30) }));
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'SELL', price: 600_000n, size: units(15.5) }));
    await h.orders.place(C, await signedBody(carol, { market: m, outcome: 1, side: 'SELL', price: 410_000n, size: units(12.25) }));
    await h.orders.place(B, await buy(bob, 610_000n, 5.5));
    const t1 = total();
    let yes = 0n;
    let no = 0n;
    for (const p of people) {
      yes += h.orders.balanceOf(p.address, m.tokenIds[0]).balance;
      no += h.orders.balanceOf(p.address, m.tokenIds[1]).balance;
      assert.ok(h.orders.balanceOf(p.address, COLLATERAL).available >= 0n);
    }
    assert.ok(yes > 0n, 'trades happened');
    assert.equal(yes, no, 'every share of Yes has its No twin (complete sets)');
    // Collateral only turns into complete sets and back: collateral + sets is invariant.
    assert.equal(t1.coll + yes, t0.coll + t0.sets);
    const ledgerSum = h.db.prepare("SELECT SUM(delta) FROM balance_ledger WHERE asset = 'COLLATERAL'").safeIntegers(true).pluck().get() as bigint;
    assert.equal(ledgerSum, t1.coll, 'the ledger sums to the balances');
  });

  describe('reads', () => {
    it('looks up a batch with one 207 entry per request entry', async () => {
      const r = await h.orders.place(A, await buy(alice, 500_000n, 10));
      const out = h.orders.lookup([{ orderId: r.order_id!.toLowerCase() }, { orderId: '' }, { orderId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, {}]);
      assert.equal(out[0]!.status, 200);
      assert.equal(out[0]!.order!.id, r.order_id);
      assert.equal(out[0]!.order_id, r.order_id!.toLowerCase());
      assert.deepEqual(out[1], { order_id: '', status: 400, error: 'order_id_cannot_be_empty' });
      assert.deepEqual(out[2], { order_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', status: 404, error: 'order_not_found' });
      assert.equal(out[3]!.status, 400);
      assert.throws(() => h.orders.lookup([]), (e: ApiError) => e.code === 'invalid_field');
      assert.throws(() => h.orders.lookup(Array(501).fill({ orderId: 'x' })), (e: ApiError) => e.code === 'invalid_field');
    });

    it('answers order_not_found for an unknown id', () => {
      assert.throws(() => h.orders.get('nope'), (e: ApiError) => e.code === 'order_not_found' && e.status === 404);
    });

    it('pages open orders with MA== first and LTE= after the last page', async () => {
      for (let i = 0; i < 3; i++) await h.orders.place(A, await buy(alice, 100_000n + BigInt(i) * 10_000n, 10));
      const page = h.orders.listOpen(A, { next_cursor: FIRST_CURSOR });
      assert.equal(page.count, 3);
      assert.equal(page.next_cursor, END_CURSOR);
      assert.deepEqual(page.data.map((o) => o.price), ['0.1', '0.11', '0.12']);
      assert.equal(h.orders.listOpen(A, { market: makeMarket(7).conditionId }).count, 0);
      assert.equal(h.orders.listOpen(B, {}).count, 0);
      assert.throws(() => h.orders.listOpen(A, { next_cursor: 'garbage!' }), (e: ApiError) => e.code === 'invalid_query');
    });

    it('reports balance, allowance and reservation as 6-dp integer strings', async () => {
      await h.orders.place(A, await buy(alice, 500_000n, 10));
      const ba = h.orders.balanceAllowance(A, 'COLLATERAL');
      assert.equal(ba.balance, '1000000000');
      assert.equal(ba.allowance, '1000000000');
      assert.equal(ba.reserved, '5000000');
      assert.equal(h.orders.balanceAllowance(A, 'CONDITIONAL', m.tokenIds[0]).balance, '0');
      assert.throws(() => h.orders.balanceAllowance(A, 'CONDITIONAL'), (e: ApiError) => e.code === 'invalid_query');
      assert.throws(() => h.orders.balanceAllowance(A, 'CONDITIONAL', '123'), (e: ApiError) => e.code === 'token_not_found');
    });
  });

  describe('redeem', () => {
    it('pays 1 per winning share, zeroes both positions and refuses a second redemption', async () => {
      await h.orders.place(A, await buy(alice, 600_000n, 10));
      await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 400_000n, size: units(10) }));
      await assert.rejects(h.orders.redeem(A, m.conditionId), (e: ApiError) => e.code === 'market_not_resolved');
      m.winner = 0;
      const a0 = h.orders.balanceOf(A.address, COLLATERAL).balance;
      const res = await h.orders.redeem(A, m.conditionId);
      assert.equal(res.payout, '10');
      assert.equal(h.orders.balanceOf(A.address, COLLATERAL).balance - a0, units(10));
      assert.equal(h.orders.balanceOf(A.address, m.tokenIds[0]).balance, 0n);
      const lose = await h.orders.redeem(B, m.conditionId);
      assert.equal(lose.payout, '0');
      assert.equal(h.orders.balanceOf(B.address, m.tokenIds[1]).balance, 0n);
      await assert.rejects(h.orders.redeem(A, m.conditionId), (e: ApiError) => e.code === 'nothing_to_redeem');
      await assert.rejects(h.orders.redeem(A, makeMarket(99).conditionId), (e: ApiError) => e.code === 'market_not_found');
    });
  });
});
