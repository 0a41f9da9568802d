import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { BookSide } from '../../book/types.js';
import { ApiError } from '../../protocol/errors.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, T0, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';
import { ManualClock, SteppedClock } from '../clock.js';
import type { MirrorStatus, PublicBookEvent } from '../mirror/mirrorTypes.js';
import { UlidFactory } from '../../protocol/ulid.js';
import { PUBLIC_MARKET_ACCOUNT, PUBLIC_MARKET_NAME } from './publicDepth.js';
import { printHash } from './publicFeed.js';

const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];
const A = identityOf(alice);
const B = identityOf(bob);

/** Book micro-units from cents and shares. */
const c = (cents: number): number => Math.round(cents * 10_000);
const sh = (shares: number): number => Math.round(shares * 1_000_000);
const snap = (bids: Array<[number, number]>, asks: Array<[number, number]>): PublicBookEvent => ({
  kind: 'snapshot',
  bids: bids.map(([p, s]) => ({ price: c(p), size: sh(s) })),
  asks: asks.map(([p, s]) => ({ price: c(p), size: sh(s) })),
});
const lvl = (side: BookSide, cents: number, shares: number): PublicBookEvent => ({ kind: 'level', side, price: c(cents), size: sh(shares) });
const print = (aggressor: BookSide, cents: number, shares: number): PublicBookEvent => ({ kind: 'print', aggressor, price: c(cents), size: sh(shares) });

/** A book side as [cents, shares] pairs, best first. */
function levelsOf(h: Harness, m: TestMarket, side: BookSide): Array<[number, number]> {
  return (h.orders.book(m.conditionId)?.levels(side) ?? []).map((l) => [l.price / 10_000, l.size / 1_000_000]);
}

interface OrderSpec {
  who?: PrivateKeyAccount;
  outcome?: 0 | 1;
  side?: 'BUY' | 'SELL';
  cents: number;
  shares: number;
  type?: 'GTC' | 'FAK' | 'FOK';
}

async function place(h: Harness, m: TestMarket, o: OrderSpec) {
  const who = o.who ?? alice;
  return h.orders.place(identityOf(who), await signedBody(who, { market: m, outcome: o.outcome ?? 0, side: o.side ?? 'BUY', price: BigInt(c(o.cents)), size: units(o.shares), orderType: o.type ?? 'GTC' }));
}

/** Shares an order has filled. */
function filledShares(h: Harness, id: string): number {
  return Number(h.orders.get(id).sizeMatched);
}

function aheadOf(h: Harness, who: { address: string }, id: string): number | null {
  try {
    return Number(h.orders.queuePosition(who, id).ahead); // shares
  } catch {
    return null;
  }
}

function rowCounts(h: Harness): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of ['orders', 'trades', 'balances', 'balance_ledger']) out[t] = (h.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
  return out;
}

describe('the public layer of a mirrored market', () => {
  let h: Harness;
  let m: TestMarket;
  let n = 0;

  before(async () => {
    h = await makeHarness();
  });
  after(() => h.cleanup());

  beforeEach(async () => {
    m = h.markets.add(makeMarket(++n));
    for (const who of [A, B]) {
      await h.orders.cancelAll(who);
      await h.orders.creditCollateral(who.address, units(1000), 'test');
    }
  });

  describe('taking: a marketable order walks the public depth', () => {
    const cases: Array<{ name: string; book: PublicBookEvent; order: OrderSpec; filled: number; paid: number; asks: Array<[number, number]>; bids: Array<[number, number]> }> = [
      {
        name: 'a BUY walks the public asks level by level and stops where the depth ends (no invented liquidity)',
        book: snap([[40, 10]], [[50, 10], [51, 5]]),
        order: { cents: 55, shares: 20, type: 'FAK' },
        filled: 15,
        paid: 10 * 0.5 + 5 * 0.51,
        asks: [],
        bids: [[40, 10]],
      },
      {
        name: 'a FOK larger than the public depth is killed and the depth stays',
        book: snap([], [[50, 10], [51, 5]]),
        order: { cents: 55, shares: 16, type: 'FOK' },
        filled: 0,
        paid: 0,
        asks: [[50, 10], [51, 5]],
        bids: [],
      },
      {
        name: 'a FOK the public depth covers fills whole at the public prices',
        book: snap([], [[50, 10], [51, 5]]),
        order: { cents: 55, shares: 12, type: 'FOK' },
        filled: 12,
        paid: 10 * 0.5 + 2 * 0.51,
        asks: [[51, 3]],
        bids: [],
      },
      {
        name: 'a BUY of outcome 1 walks the public bids (a mint with the public market at the complement price)',
        book: snap([[55, 10], [54, 10]], [[60, 10]]),
        order: { outcome: 1, cents: 45, shares: 15, type: 'FAK' },
        filled: 10,
        paid: 10 * 0.45,
        asks: [[60, 10]],
        bids: [[54, 10]],
      },
      {
        name: 'an order priced short of the public depth takes nothing and rests beside it',
        book: snap([[40, 10]], [[50, 10]]),
        order: { cents: 45, shares: 5 },
        filled: 0,
        paid: 0,
        asks: [[50, 10]],
        bids: [[45, 5], [40, 10]],
      },
    ];
    for (const k of cases) {
      it(k.name, async () => {
        await h.orders.applyPublic(m.conditionId, [k.book]);
        const before = h.orders.balanceOf(A.address, COLLATERAL).balance;
        const r = await place(h, m, k.order);
        if (k.filled === 0 && k.order.type === 'FOK') assert.equal(r.error_code, 'FOK_ORDER_NOT_FILLED_ERROR');
        else assert.equal(r.success, true, r.error_msg);
        assert.equal(r.success ? filledShares(h, r.order_id!) : 0, k.filled);
        assert.equal(before - h.orders.balanceOf(A.address, COLLATERAL).balance, units(k.paid.toFixed(6)));
        assert.equal(h.orders.balanceOf(A.address, m.tokenIds[k.order.outcome ?? 0]).balance, units(k.filled));
        assert.deepEqual(levelsOf(h, m, 'ask'), k.asks);
        assert.deepEqual(levelsOf(h, m, 'bid'), k.bids);
      });
    }

    it('names the public-market account as the maker of fills against public depth', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      await place(h, m, { cents: 50, shares: 6, type: 'FAK' });
      const t = h.orders.listTrades(A, {}).data.find((x) => x.market === m.conditionId)!;
      assert.equal(t.maker_orders[0]!.maker_address.toLowerCase(), PUBLIC_MARKET_ACCOUNT);
      assert.equal(t.maker_orders[0]!.order_id, PUBLIC_MARKET_NAME);
      assert.equal(t.price, '0.5');
    });

    it('fills local orders and public size at one price in time order', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      // Bob's BUY of No at 0.50 is an ask at 0.50 in the book's terms: it queues behind the public 10.
      const bobs = await place(h, m, { who: bob, outcome: 1, cents: 50, shares: 5 });
      await place(h, m, { cents: 50, shares: 12, type: 'FAK' });
      assert.equal(filledShares(h, bobs.order_id!), 2);
      assert.deepEqual(levelsOf(h, m, 'ask'), [[50, 3]]);
    });
  });

  describe('consumption: depth taken locally is subtracted from later upstream sizes', () => {
    const steps: Array<{ name: string; events: PublicBookEvent[]; want: [number, number, number] }> = [
      { name: 'an upstream size that did not change keeps the consumed part off the book', events: [lvl('ask', 50, 10)], want: [10, 6, 4] },
      { name: 'upstream growth adds on top of what is still consumed', events: [lvl('ask', 50, 12)], want: [12, 6, 6] },
      { name: 'an upstream drop absorbs the consumption first', events: [lvl('ask', 50, 9)], want: [9, 3, 6] },
      { name: 'once upstream drops below what was left, nothing is consumed any more', events: [lvl('ask', 50, 5)], want: [5, 0, 5] },
      { name: 'a removed level forgets, and a new one starts fresh', events: [lvl('ask', 50, 0), lvl('ask', 50, 7)], want: [7, 0, 7] },
    ];
    it('takes 6 of 10, then follows the upstream sizes step by step: [U, c, public size on the book]', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      await place(h, m, { cents: 50, shares: 6, type: 'FAK' });
      const state = () => {
        const l = h.orders.publicLevel(m.conditionId, 'ask', c(50));
        return [l.upstream / 1e6, l.consumed / 1e6, l.onBook / 1e6];
      };
      assert.deepEqual(state(), [10, 6, 4]);
      for (const s of steps) {
        await h.orders.applyPublic(m.conditionId, s.events);
        assert.deepEqual(state(), s.want, s.name);
      }
    });

    it('public size that would cross the book waits until the way is clear (never a crossed book)', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[50, 10]]), lvl('bid', 50, 5)]);
      assert.deepEqual(levelsOf(h, m, 'bid'), [[40, 10]], 'the new public bid at 0.50 meets the stale public ask there');
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 50, 0)]);
      assert.deepEqual(levelsOf(h, m, 'bid'), [[50, 5], [40, 10]]);
      assert.deepEqual(levelsOf(h, m, 'ask'), []);
      // A local bid priced through a later public ask hides that ask rather than trading with it.
      await place(h, m, { cents: 55, shares: 5 });
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 54, 5), lvl('ask', 60, 5)]);
      assert.deepEqual(levelsOf(h, m, 'ask'), [[60, 5]]);
      assert.equal(h.orders.balanceOf(A.address, m.tokenIds[0]).balance, 0n, 'public depth appearing never fills a local order');
    });

    it('the public size kept per level equals what the book holds for the public layer, through growth, shrink, local orders, prints and takers', async () => {
      /** Local orders as the book holds them (outcome-0 terms). */
      const locals: Array<{ id: string; side: BookSide; cents: number }> = [];
      const rest = async (o: OrderSpec, side: BookSide, cents: number) => {
        const r = await place(h, m, o);
        if (r.status === 'live') locals.push({ id: r.order_id!, side, cents });
      };
      const check = (step: string) => {
        for (const side of ['bid', 'ask'] as const) {
          for (const cents of [39, 40, 45, 50, 51, 52]) {
            const level = levelsOf(h, m, side).find(([p]) => p === cents)?.[1] ?? 0;
            let local = 0;
            for (const o of locals.filter((x) => x.side === side && x.cents === cents)) {
              const r = h.orders.get(o.id);
              if (r.status !== 'filled' && r.status !== 'cancelled') local += Number(r.originalSize) - Number(r.sizeMatched);
            }
            const kept = h.orders.publicLevel(m.conditionId, side, c(cents)).onBook / 1e6;
            assert.ok(Math.abs(kept - (level - local)) < 1e-9, `${step}: ${side} ${cents}¢ keeps ${kept} public shares, the book holds ${level - local}`);
          }
        }
      };
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10], [39, 5]], [[50, 10], [51, 8]])]);
      check('snapshot');
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 50, 14)]);
      check('growth at the back of the queue');
      await rest({ who: bob, outcome: 1, cents: 50, shares: 5 }, 'ask', 50); // BUY of No at 0.50: an ask at 0.50 behind the public size
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 50, 20)]);
      check('growth behind a local order');
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 50, 12)]);
      check('shrink from the back');
      await place(h, m, { cents: 50, shares: 8, type: 'FAK' });
      check('a local taker');
      await h.orders.applyPublic(m.conditionId, [print('bid', 51, 9)]);
      check('a print through the level and the local order in it');
      await h.orders.applyPublic(m.conditionId, [snap([[40, 12]], [[50, 6], [52, 4]])]);
      check('a snapshot that moves, removes and adds levels');
      await rest({ cents: 40, shares: 6 }, 'bid', 40);
      await h.orders.applyPublic(m.conditionId, [print('ask', 39, 15), lvl('bid', 40, 12)]);
      check('a print over public size and a local order behind it, then the same upstream size');
      await rest({ cents: 45, shares: 5 }, 'bid', 45);
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 45, 3), lvl('bid', 52, 5)]);
      check('public size kept short where it would cross');
      await h.orders.applyPublic(m.conditionId, [lvl('ask', 52, 0)]);
      check('the way clears');
    });

    it('a print that fills only a local order in the way lets public size kept short by it onto the book at once', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[60, 10]])]);
      await place(h, m, { who: bob, outcome: 1, cents: 48, shares: 5 }); // a BUY of No at 0.48: an ask at 0.52
      await h.orders.applyPublic(m.conditionId, [lvl('bid', 52, 7)]);
      assert.deepEqual(levelsOf(h, m, 'bid'), [[40, 10]], 'the public bid at 0.52 would cross the local ask');
      await h.orders.applyPublic(m.conditionId, [print('bid', 52, 5)]);
      assert.deepEqual(levelsOf(h, m, 'ask'), [[60, 10]], 'the print filled the local ask');
      assert.deepEqual(levelsOf(h, m, 'bid'), [[52, 7], [40, 10]]);
    });

    it('a snapshot without the level forgets its consumption', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      await place(h, m, { cents: 50, shares: 6, type: 'FAK' });
      await h.orders.applyPublic(m.conditionId, [snap([], [[51, 3]]), snap([], [[50, 10]])]);
      assert.deepEqual(levelsOf(h, m, 'ask'), [[50, 10]]);
    });

    it('a tick change drops the public layer and its consumption until the next snapshot', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 5]], [[50, 10]])]);
      await place(h, m, { cents: 50, shares: 6, type: 'FAK' });
      await h.orders.applyPublic(m.conditionId, [{ kind: 'tick', tickSize: 1_000 }, lvl('ask', 50, 10)]);
      assert.deepEqual(levelsOf(h, m, 'ask'), [], 'level updates wait for a snapshot');
      assert.deepEqual(levelsOf(h, m, 'bid'), []);
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      assert.deepEqual(levelsOf(h, m, 'ask'), [[50, 10]]);
    });
  });

  describe('resting: a local order queues behind the public size and fills only from prints', () => {
    const cases: Array<{ name: string; book: PublicBookEvent; order: OrderSpec; then: PublicBookEvent[]; filled: number; ahead: number | null }> = [
      { name: 'it joins the queue behind the public size at its price', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [], filled: 0, ahead: 10 },
      { name: 'a print at its price within the queue ahead moves it up without filling it', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [print('ask', 50, 6)], filled: 0, ahead: 4 },
      { name: 'only the part of a print beyond the queue ahead fills it', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [print('ask', 50, 13)], filled: 3, ahead: 0 },
      { name: 'prints add up: each moves it up, the one past the queue fills it', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [print('ask', 50, 6), print('ask', 50, 6)], filled: 2, ahead: 0 },
      { name: 'a print through its price fills it up to the print size', book: snap([[40, 10]], []), order: { cents: 50, shares: 5 }, then: [print('ask', 49, 3)], filled: 3, ahead: 0 },
      { name: 'a print through its price walks the public size ahead first', book: snap([[52, 4], [50, 10]], []), order: { cents: 50, shares: 5 }, then: [print('ask', 45, 16)], filled: 2, ahead: 0 },
      { name: 'depth that vanishes without a print never fills it', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [lvl('bid', 50, 0), snap([[49, 10]], [])], filled: 0, ahead: 0 },
      { name: 'a public cancel shortens the queue ahead to the public size now', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [lvl('bid', 50, 4)], filled: 0, ahead: 4 },
      { name: 'public size added later queues behind it', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [lvl('bid', 50, 4), lvl('bid', 50, 20)], filled: 0, ahead: 4 },
      { name: 'a print of buyers (the other side) never fills a resting BUY', book: snap([[50, 10]], [[60, 10]]), order: { cents: 50, shares: 5 }, then: [print('bid', 60, 100)], filled: 0, ahead: 10 },
      { name: 'a print above its price does not reach it', book: snap([[50, 10]], []), order: { cents: 50, shares: 5 }, then: [print('ask', 51, 100)], filled: 0, ahead: 10 },
      { name: 'a resting BUY of outcome 1 fills from prints of public buyers of outcome 0', book: snap([], [[60, 10]]), order: { outcome: 1, cents: 40, shares: 5 }, then: [print('bid', 60, 12)], filled: 2, ahead: 0 },
    ];
    for (const k of cases) {
      it(k.name, async () => {
        await h.orders.applyPublic(m.conditionId, [k.book]);
        const r = await place(h, m, k.order);
        assert.equal(r.status, 'live', r.error_msg);
        const result = await h.orders.applyPublic(m.conditionId, k.then);
        assert.equal(filledShares(h, r.order_id!), k.filled, 'filled');
        assert.equal(result.fills > 0, k.filled > 0, 'applyPublic counts the local fills');
        assert.equal(aheadOf(h, A, r.order_id!), k.ahead, 'queue ahead');
      });
    }

    it('a print fills the local order at its own price with the public market as taker, in one stored trade', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [])]);
      const r = await place(h, m, { cents: 50, shares: 5 });
      const before = h.orders.balanceOf(A.address, COLLATERAL).balance;
      await h.orders.applyPublic(m.conditionId, [print('ask', 45, 3)]);
      const t = h.orders.listTrades(A, {}).data.find((x) => x.market === m.conditionId)!;
      assert.equal(t.trader_side, 'MAKER');
      assert.equal(t.maker_orders[0]!.order_id, r.order_id);
      assert.equal(t.maker_orders[0]!.price, '0.5');
      assert.equal(before - h.orders.balanceOf(A.address, COLLATERAL).balance, units(1.5));
      assert.equal(h.orders.balanceOf(A.address, m.tokenIds[0]).balance, units(3));
    });

    it('print-then-update and update-then-print give the same book', async () => {
      const m2 = h.markets.add(makeMarket(++n));
      const books: Array<[Array<[number, number]>, Array<[number, number]>]> = [];
      for (const [market, order] of [
        [m, [print('bid', 51, 30), lvl('ask', 50, 0), lvl('ask', 51, 10)]],
        [m2, [lvl('ask', 50, 0), lvl('ask', 51, 10), print('bid', 51, 30)]],
      ] as const) {
        await h.orders.applyPublic(market.conditionId, [snap([[40, 10]], [[50, 20], [51, 20], [52, 5]])]);
        // Bob's resting ask (a BUY of No at 0.48) at 0.52 is beyond the print: it must not move.
        await place(h, market, { who: bob, outcome: 1, cents: 48, shares: 5 });
        await h.orders.applyPublic(market.conditionId, [...order]);
        books.push([levelsOf(h, market, 'bid'), levelsOf(h, market, 'ask')]);
      }
      assert.deepEqual(books[0], books[1]);
      assert.deepEqual(books[0]![1], [[51, 10], [52, 10]]);
    });
  });

  describe('the public-market account', () => {
    it('moves only local balances, by exactly the trade amounts; public depth and the public side are never stored', async () => {
      const rows0 = rowCounts(h);
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10], [39, 10]], [[50, 10], [51, 10]]), lvl('ask', 52, 5), print('bid', 52, 3)]);
      assert.deepEqual(rowCounts(h), rows0, 'a change of public depth alone writes nothing');

      const a0 = h.orders.balanceOf(A.address, COLLATERAL).balance;
      const b0 = h.orders.balanceOf(B.address, COLLATERAL).balance;
      await place(h, m, { cents: 51, shares: 15, type: 'FAK' }); // Alice takes 10 @ 0.50 + 5 @ 0.51 from the public market
      const rest = await place(h, m, { who: bob, cents: 45, shares: 8 }); // Bob rests a BUY at 0.45
      await h.orders.applyPublic(m.conditionId, [print('ask', 44, 6)]); // a public seller hits Bob for 6
      assert.equal(filledShares(h, rest.order_id!), 6);

      const spent = a0 - h.orders.balanceOf(A.address, COLLATERAL).balance + (b0 - h.orders.balanceOf(B.address, COLLATERAL).balance);
      assert.equal(spent, units(10 * 0.5 + 5 * 0.51 + 6 * 0.45), 'the locals paid exactly what their trades say');
      assert.equal(h.orders.balanceOf(A.address, m.tokenIds[0]).balance + h.orders.balanceOf(B.address, m.tokenIds[0]).balance, units(21));
      const pm = h.orders.balanceOf(PUBLIC_MARKET_ACCOUNT, COLLATERAL);
      assert.equal(pm.balance, 0n, 'the public market has no balance to conserve');
      assert.equal(h.orders.balanceOf(PUBLIC_MARKET_ACCOUNT, m.tokenIds[0]).balance, 0n);
      await h.orders.cancelAll(B);
      const ledger = h.db.prepare('SELECT COUNT(*) AS n FROM balance_ledger WHERE address = ?').get(PUBLIC_MARKET_ACCOUNT) as { n: number };
      assert.equal(ledger.n, 0);
      const orders = h.db.prepare('SELECT COUNT(*) AS n FROM orders WHERE maker = ? OR owner = ?').get(PUBLIC_MARKET_ACCOUNT, PUBLIC_MARKET_ACCOUNT) as { n: number };
      assert.equal(orders.n, 0);
      const trades = h.db.prepare('SELECT COUNT(*) AS n FROM trades WHERE condition_id = ?').get(m.conditionId) as { n: number };
      assert.equal(trades.n, 3, 'two fills of Alice against public asks and one of Bob from the print');
    });

    const endings: Array<{ name: string; end: (h: Harness, m: TestMarket) => Promise<unknown> }> = [
      { name: 'dropPublic (stale upstream, stop following)', end: async (h, m) => h.orders.dropPublic(m.conditionId) },
      { name: 'a closed upstream', end: (h, m) => h.orders.applyPublic(m.conditionId, [{ kind: 'closed' }]) },
      { name: 'a resolved upstream', end: (h, m) => h.orders.applyPublic(m.conditionId, [{ kind: 'resolved', winner: 1 }]) },
      { name: 'the local market resolving (its orders are cancelled)', end: (h, m) => h.orders.cancelMarketOrders(m.conditionId, 'market resolved') },
    ];
    for (const k of endings) {
      it(`${k.name} takes the public layer off the book and leaves local orders to their own rules`, async () => {
        await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[60, 10]])]);
        await place(h, m, { cents: 45, shares: 5 });
        await k.end(h, m);
        assert.deepEqual(levelsOf(h, m, 'ask'), []);
        const local = k.name.startsWith('the local market') ? [] : [[45, 5]];
        assert.deepEqual(levelsOf(h, m, 'bid'), local);
        await h.orders.applyPublic(m.conditionId, [lvl('bid', 40, 20)]);
        assert.deepEqual(levelsOf(h, m, 'bid'), local, 'level updates wait for the next snapshot');
      });
    }

    it('ignores malformed public events (prices outside (0, 1), sizes not whole micro-units or negative) without a crash', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[60, 10]])]);
      const bad = [
        { kind: 'level', side: 'bid', price: 0, size: sh(5) },
        { kind: 'level', side: 'bid', price: 1_000_000, size: sh(5) },
        { kind: 'level', side: 'ask', price: c(70), size: -1 },
        { kind: 'level', side: 'ask', price: c(70), size: 0.5 },
        { kind: 'level', side: 'ask', price: Number.NaN, size: sh(1) },
        { kind: 'level', side: 'middle', price: c(70), size: sh(1) },
        { kind: 'print', aggressor: 'ask', price: -c(40), size: sh(100) },
        { kind: 'print', aggressor: 'ask', price: c(40), size: Infinity },
        null,
        { kind: 'snapshot', bids: 'none', asks: [] },
        { kind: 'snapshot', bids: [{ price: 2_000_000, size: sh(1) }, null], asks: [{ price: c(60), size: sh(10) }] },
      ] as unknown as PublicBookEvent[];
      await h.orders.applyPublic(m.conditionId, bad);
      assert.deepEqual([levelsOf(h, m, 'bid'), levelsOf(h, m, 'ask')], [[], [[60, 10]]], 'only the valid part of the snapshot applied');
    });

    it('a resolved market takes no public depth any more', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[60, 10]])]);
      m.winner = 0;
      await h.orders.applyPublic(m.conditionId, [snap([[41, 10]], [[61, 10]])]);
      assert.deepEqual([levelsOf(h, m, 'bid'), levelsOf(h, m, 'ask')], [[], []]);
    });

    it('public entries are not live orders of anyone and do not count against open-order caps', async () => {
      await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[50, 10]])]);
      assert.equal(h.orders.listOpen(A, {}).data.length, 0);
      assert.equal(h.orders.book(m.conditionId)!.orderCount, 2);
      h.orders.dropPublic(m.conditionId);
      assert.equal(h.orders.book(m.conditionId)!.orderCount, 0);
    });
  });
});

describe('public print transaction hashes', () => {
  it('are 32-byte hex like a chain hash, one per print id, the same for the same id, and carry the id', () => {
    const ids = new UlidFactory();
    const printIds = Array.from({ length: 500 }, (_, i) => ids.next(T0 + (i >> 2)));
    const hashes = printIds.map(printHash);
    assert.ok(hashes.every((x) => /^0x[0-9a-f]{64}$/.test(x)));
    assert.equal(new Set(hashes).size, hashes.length, 'distinct prints never share a hash');
    assert.deepEqual(printIds.map(printHash), hashes, 'reproducible from the id');
    // Its second half is the id's 128 bits: 48 of time, 80 random.
    const id = printIds[7]!;
    const bits = [...id].reduce((v, ch) => v * 32n + BigInt('0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(ch)), 0n);
    assert.equal(printHash(id).slice(34), bits.toString(16).padStart(32, '0'));
  });
});

describe('stale and closed mirrored markets', () => {
  let h: Harness;
  let m: TestMarket;
  let status: MirrorStatus | undefined;

  before(async () => {
    h = await makeHarness({ mirrorOf: (id) => (id === m.conditionId ? status : undefined) });
    m = h.markets.add(makeMarket(1));
    await h.orders.creditCollateral(A.address, units(1000), 'test');
    await h.orders.applyPublic(m.conditionId, [snap([[40, 10]], [[50, 10]])]);
  });
  after(() => h.cleanup());

  const stale: MirrorStatus = { source: 'public', upstreamState: 'stale', lastEventAgeMs: 42_000 };
  const cases: Array<{ name: string; status: MirrorStatus; order: OrderSpec; expect: 'rests' | 'stale' | 'refused' | 'fills' }> = [
    { name: 'a marketable order on a stale market is refused 409 market_stale with the age', status: stale, order: { cents: 50, shares: 5, type: 'FAK' }, expect: 'stale' },
    { name: 'a non-marketable order on a stale market still rests', status: stale, order: { cents: 45, shares: 5 }, expect: 'rests' },
    { name: 'a closed market takes no new orders, not even resting ones', status: { source: 'public', upstreamState: 'closed', lastEventAgeMs: 1_000 }, order: { cents: 45, shares: 5 }, expect: 'refused' },
    { name: 'a live market takes marketable orders', status: { source: 'public', upstreamState: 'live', lastEventAgeMs: 100 }, order: { cents: 50, shares: 5, type: 'FAK' }, expect: 'fills' },
  ];
  for (const k of cases) {
    it(k.name, async () => {
      status = k.status;
      const body = await signedBody(alice, { market: m, side: 'BUY', price: BigInt(c(k.order.cents)), size: units(k.order.shares), orderType: k.order.type ?? 'GTC' });
      if (k.expect === 'stale') {
        const asks = levelsOf(h, m, 'ask');
        await assert.rejects(h.orders.place(A, body), (e: unknown) => e instanceof ApiError && e.code === 'market_stale' && e.status === 409 && /42 s/.test(e.message));
        assert.deepEqual(levelsOf(h, m, 'ask'), asks, 'nothing traded');
        return;
      }
      const r = await h.orders.place(A, body);
      if (k.expect === 'rests') assert.equal(r.status, 'live', r.error_msg);
      if (k.expect === 'fills') assert.equal(r.status, 'matched', r.error_msg);
      if (k.expect === 'refused') {
        assert.equal(r.success, false);
        assert.match(r.error_msg, /closed upstream/);
      }
    });
  }
});

describe('fill latency on a mirrored market', () => {
  /**
   * Alice's FAK BUY 10 @ 0.50 arrives at T0 against 10 public shares on a stepped clock; `meanwhile`
   * arrives `at` ms later; the advance driver fires the latency alarm and the tape event in time order.
   */
  async function run(latencyMs: number, meanwhile: { at: number; events: PublicBookEvent[] }): Promise<{ filled: number; status: string; hashWhileDelayed: boolean }> {
    const clock = new SteppedClock(T0);
    const h = await makeHarness({ clock, config: { latencyMs } });
    try {
      const m = h.markets.add(makeMarket(1));
      await h.orders.creditCollateral(A.address, units(1000), 'test');
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      const r = await place(h, m, { cents: 50, shares: 10, type: 'FAK' });
      const hashWhileDelayed = r.status === 'delayed' && /^0x[0-9a-f]{64}$/.test(h.orders.publicPlacement(r).orderID);
      const alarmAt = clock.nextAlarm()?.at;
      const due = [
        { at: T0 + meanwhile.at, go: () => h.orders.applyPublic(m.conditionId, meanwhile.events) },
        ...(alarmAt === undefined ? [] : [{ at: alarmAt, go: () => clock.nextAlarm()!.fire() }]),
      ].sort((a, b) => a.at - b.at);
      for (const d of due) {
        clock.set(d.at);
        await d.go();
      }
      return { filled: filledShares(h, r.order_id!), status: r.status, hashWhileDelayed };
    } finally {
      h.cleanup();
    }
  }

  const cancelled = { at: 50, events: [lvl('ask', 50, 3)] };
  const cases: Array<{ name: string; latencyMs: number; meanwhile: { at: number; events: PublicBookEvent[] }; filled: number; status: string }> = [
    { name: 'with no latency the order meets the book at arrival', latencyMs: 0, meanwhile: cancelled, filled: 10, status: 'matched' },
    { name: 'with latency the order meets the book as it stands arrival + latency later (a public cancel came first)', latencyMs: 100, meanwhile: cancelled, filled: 3, status: 'delayed' },
    { name: 'a public change after arrival + latency comes too late to matter', latencyMs: 100, meanwhile: { at: 150, events: [lvl('ask', 50, 3)] }, filled: 10, status: 'delayed' },
  ];
  for (const k of cases) {
    it(k.name, async () => {
      const got = await run(k.latencyMs, k.meanwhile);
      assert.deepEqual(got, { filled: k.filled, status: k.status, hashWhileDelayed: k.status === 'delayed' });
    });
  }

  it('on a stepped clock an order that fails its checks, or twins a delayed one, is refused at once, not delayed', async () => {
    const clock = new SteppedClock(T0);
    const h = await makeHarness({ clock, config: { latencyMs: 100 } });
    try {
      const m = h.markets.add(makeMarket(1));
      await h.orders.applyPublic(m.conditionId, [snap([], [[50, 10]])]);
      const r = await place(h, m, { cents: 50, shares: 1, type: 'FAK' });
      assert.equal(r.error_code, 'INVALID_ORDER_MIN_SIZE');
      assert.equal(clock.nextAlarm(), undefined);
      await h.orders.creditCollateral(A.address, units(1000), 'test');
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(5), orderType: 'FAK' });
      assert.equal((await h.orders.place(A, body)).status, 'delayed');
      assert.equal((await h.orders.place(A, body)).error_code, 'INVALID_ORDER_DUPLICATED', 'a twin of a delayed order');
    } finally {
      h.cleanup();
    }
  });

  it('on the real clock the reply waits for the latency, and a local market has none', async () => {
    const h = await makeHarness({ clock: new ManualClock(T0), config: { latencyMs: 300 } });
    try {
      const mirrored = h.markets.add(makeMarket(1));
      const local = h.markets.add(makeMarket(2));
      await h.orders.creditCollateral(A.address, units(1000), 'test');
      await h.orders.applyPublic(mirrored.conditionId, [snap([], [[50, 10]])]);
      const timed = async (m: TestMarket) => {
        const body = await signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(5) });
        const t0 = performance.now();
        const r = await h.orders.place(A, body);
        assert.equal(r.status, 'live', r.error_msg);
        return performance.now() - t0;
      };
      assert.ok((await timed(mirrored)) >= 295, 'the mirrored market waited');
      assert.ok((await timed(local)) < 295, 'the local market did not');
    } finally {
      h.cleanup();
    }
  });

  it('refuses a latency outside 0..60000 ms', async () => {
    await assert.rejects(makeHarness({ config: { latencyMs: -1 } }), /--latency-ms/);
    await assert.rejects(makeHarness({ config: { latencyMs: 60_001 } }), /--latency-ms/);
  });
});
