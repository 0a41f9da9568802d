import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../protocol/errors.js';
import type { Market } from '../markets/marketService.js';
import { createDataFixture, type DataFixture } from '../../testkit/dataKit.js';

const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const D = '0x' + 'd4'.repeat(20);
const E = '0x' + 'e5'.repeat(20);
const u = (n: number) => BigInt(Math.round(n * 1e6));

/** Rests a bid and an ask on a market's outcome-0 book. */
function quote(fx: DataFixture, m: Market, bid: number, ask: number): void {
  const book = fx.book(m.conditionId);
  book.restore({ side: 'bid', price: Number(u(bid)), remaining: Number(u(10)) });
  book.restore({ side: 'ask', price: Number(u(ask)), remaining: Number(u(10)) });
}

function rejects(fn: () => unknown, param: string, fragment?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${String(e)}`);
    assert.equal(e.code, 'invalid_query');
    assert.equal(e.status, 400);
    assert.match(e.message, new RegExp(`'${param}'`), `message names ${param}: ${e.message}`);
    if (fragment) assert.ok(e.message.includes(fragment), `message "${e.message}" mentions ${fragment}`);
    return true;
  });
}

describe('positions from the fill ledger', () => {
  let fx: DataFixture;
  let m: Market;

  before(async () => {
    fx = await createDataFixture();
    m = await fx.createMarket('Will X happen by June 30?', { endDate: '2026-06-30T00:00:00Z', eventId: 1001 });
    // A buys 150 Yes at 0.42 against C buying No at 0.58: a mint.
    await fx.fill({ conditionId: m.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: C, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.58), size: u(150) });
    fx.clock.advance(60_000);
    // A sells 50 Yes at 0.55 to D's resting bid.
    await fx.fill({ conditionId: m.conditionId, taker: { address: A, outcomeIndex: 0, side: 'SELL' }, maker: { address: D, outcomeIndex: 0, side: 'BUY' }, makerPrice: u(0.55), size: u(50) });
    quote(fx, m, 0.54, 0.56);
  });
  after(() => fx.close());

  it('reports the worked example: bought 150 at 0.42, sold 50 at 0.55 → realized 6.5, marked at the 0.55 midpoint', () => {
    const rows = fx.data.positions({ user: A });
    assert.deepEqual(rows, [
      {
        proxyWallet: A,
        asset: m.tokenIds[0],
        conditionId: m.conditionId,
        size: 100,
        avgPrice: 0.42,
        initialValue: 42,
        currentValue: 55,
        cashPnl: 13,
        percentPnl: 30.952380952380953,
        totalBought: 150,
        realizedPnl: 6.5,
        percentRealizedPnl: 28.571428571428573,
        curPrice: 0.55,
        redeemable: false,
        mergeable: false,
        title: 'Will X happen by June 30?',
        slug: m.slug,
        icon: '',
        eventSlug: m.slug,
        eventId: '1001',
        outcome: 'Yes',
        outcomeIndex: 0,
        oppositeOutcome: 'No',
        oppositeAsset: m.tokenIds[1],
        endDate: '2026-06-30',
        negativeRisk: false,
      },
    ]);
  });

  it('accepts the address in any case and emits it lower case', () => {
    const rows = fx.data.positions({ user: A.toUpperCase().replace('0X', '0x') });
    assert.equal(rows[0]?.proxyWallet, A);
  });

  it('books a mint as a buy of the maker side at its own price', () => {
    const [row] = fx.data.positions({ user: C });
    assert.equal(row?.asset, m.tokenIds[1]);
    assert.equal(row?.size, 150);
    assert.equal(row?.avgPrice, 0.58);
    assert.equal(row?.outcome, 'No');
    // The No token is marked at 1 − the Yes midpoint; its best bid is 1 − the Yes ask.
    assert.equal(row?.curPrice, 0.45);
    assert.equal(row?.percentRealizedPnl, (-21 * 100) / 87); // (150 × 0.44 − 87) / 87 × 100
  });

  it('books a merge as a sell of both sides, realizing against each average', async () => {
    const fx2 = await createDataFixture();
    try {
      const m2 = await fx2.createMarket('Merge market');
      await fx2.fill({ conditionId: m2.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.7), size: u(100) });
      fx2.clock.advance(1000);
      // A sells 40 Yes while B sells 40 No: a merge at 0.35 / 0.65.
      await fx2.fill({ conditionId: m2.conditionId, taker: { address: A, outcomeIndex: 0, side: 'SELL' }, maker: { address: B, outcomeIndex: 1, side: 'SELL' }, makerPrice: u(0.65), size: u(40) });
      const [a] = fx2.data.positions({ user: A });
      assert.equal(a?.size, 60);
      assert.equal(a?.realizedPnl, 2); // 40 × (0.35 − 0.30)
      const [b] = fx2.data.positions({ user: B });
      assert.equal(b?.size, 60);
      assert.equal(b?.realizedPnl, -2); // 40 × (0.65 − 0.70)
    } finally {
      fx2.close();
    }
  });

  it('marks a holder of both outcomes of an unresolved market as mergeable, and filters on it', async () => {
    await fx.fill({ conditionId: m.conditionId, taker: { address: E, outcomeIndex: 0, side: 'BUY' }, maker: { address: E, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(10) });
    const rows = fx.data.positions({ user: E });
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.mergeable));
    assert.equal(fx.data.positions({ user: A, mergeable: 'true' }).length, 0);
    assert.equal(fx.data.positions({ user: E, mergeable: 'true' }).length, 2);
  });

  it('hides positions below sizeThreshold (default 1 share) and shows them with sizeThreshold=0', async () => {
    const fx2 = await createDataFixture();
    try {
      const m2 = await fx2.createMarket('Small');
      await fx2.fill({ conditionId: m2.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(0.5) });
      assert.deepEqual(fx2.data.positions({ user: A }), []);
      assert.equal(fx2.data.positions({ user: A, sizeThreshold: '0' })[0]?.size, 0.5);
      assert.equal(fx2.data.positions({ user: A, sizeThreshold: '0.5' }).length, 1);
      assert.equal(fx2.data.positions({ user: A, sizeThreshold: '0.500001' }).length, 0);
    } finally {
      fx2.close();
    }
  });

  it('values the wallet as Σ size × curPrice and counts distinct markets traded', () => {
    assert.deepEqual(fx.data.value({ user: A }), [{ user: A, value: 55 }]);
    assert.deepEqual(fx.data.value({ user: '0x' + '99'.repeat(20) }), [{ user: '0x' + '99'.repeat(20), value: 0 }]);
    assert.deepEqual(fx.data.traded({ user: A }), { user: A, traded: 1 });
    assert.deepEqual(fx.data.traded({ user: '0x' + '99'.repeat(20) }), { user: '0x' + '99'.repeat(20), traded: 0 });
  });

  it('after resolution marks held positions redeemable at the payout, and a redemption closes them', async () => {
    const fx2 = await createDataFixture();
    try {
      const m2 = await fx2.createMarket('Resolves', { endDate: '2026-06-30T00:00:00Z' });
      await fx2.fill({ conditionId: m2.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.56), size: u(200) });
      fx2.clock.advance(1000);
      await fx2.resolve(m2.conditionId, 0);
      const [held] = fx2.data.positions({ user: A, redeemable: 'true' });
      assert.equal(held?.redeemable, true);
      assert.equal(held?.curPrice, 1);
      assert.equal(held?.currentValue, 200);
      assert.equal(held?.percentRealizedPnl, ((200 - 88) * 100) / 88);
      const [loser] = fx2.data.positions({ user: B });
      assert.equal(loser?.redeemable, true);
      assert.equal(loser?.curPrice, 0);
      assert.deepEqual(fx2.data.closedPositions({ user: A }), []);

      fx2.clock.advance(5000);
      const redeemedAt = fx2.clock.nowMs();
      await fx2.redeem(A, m2.conditionId);
      await fx2.redeem(B, m2.conditionId);
      assert.deepEqual(fx2.data.positions({ user: A }), []);
      assert.deepEqual(fx2.data.closedPositions({ user: A }), [
        {
          proxyWallet: A,
          asset: m2.tokenIds[0],
          conditionId: m2.conditionId,
          avgPrice: 0.44,
          totalBought: 200,
          realizedPnl: 112,
          curPrice: 1,
          timestamp: Math.floor(redeemedAt / 1000),
          title: 'Resolves',
          slug: m2.slug,
          icon: '',
          eventSlug: m2.slug,
          outcome: 'Yes',
          outcomeIndex: 0,
          oppositeOutcome: 'No',
          oppositeAsset: m2.tokenIds[1],
          endDate: '2026-06-30T00:00:00Z',
        },
      ]);
      const [lost] = fx2.data.closedPositions({ user: B });
      assert.equal(lost?.realizedPnl, -112);
      assert.equal(lost?.curPrice, 0);

      const activity = fx2.data.activity({ user: A });
      assert.equal(activity[0]?.type, 'REDEEM');
      assert.equal(activity[0]?.usdcSize, 200);
      assert.equal(activity[0]?.size, 200);
      assert.equal(activity[0]?.outcomeIndex, 999);
      assert.equal(activity[0]?.asset, '');
      assert.equal(activity[0]?.side, '');
      assert.equal(activity[0]?.price, 0);
      assert.equal(activity[1]?.type, 'TRADE');
      assert.equal(fx2.data.activity({ user: A, type: 'REDEEM' }).length, 1);
      assert.equal(fx2.data.activity({ user: A, type: 'TRADE,SPLIT' }).length, 1);
      assert.deepEqual(fx2.data.activity({ user: A, type: 'REWARD' }), []);
    } finally {
      fx2.close();
    }
  });

  it('sorts positions by the requested key with an asset tie-break and accepts the CASH_PNL alias', async () => {
    const fx2 = await createDataFixture();
    try {
      const ms = [await fx2.createMarket('Alpha'), await fx2.createMarket('Beta'), await fx2.createMarket('Gamma')];
      const sizes = [30, 10, 20];
      for (let i = 0; i < 3; i++) {
        await fx2.fill({ conditionId: ms[i]!.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(sizes[i]!) });
      }
      assert.deepEqual(fx2.data.positions({ user: A }).map((r) => r.size), [30, 20, 10]);
      assert.deepEqual(fx2.data.positions({ user: A, sortBy: 'TOKENS', sortDirection: 'asc' }).map((r) => r.size), [10, 20, 30]);
      assert.deepEqual(fx2.data.positions({ user: A, sortBy: 'TITLE', sortDirection: 'ASC' }).map((r) => r.title), ['Alpha', 'Beta', 'Gamma']);
      // Equal cash PnL everywhere (no marks): the asset tie-break decides, the same way in both directions.
      const byPnl = fx2.data.positions({ user: A, sortBy: 'CASH_PNL' }).map((r) => r.asset);
      const byPnlAsc = fx2.data.positions({ user: A, sortBy: 'CASHPNL', sortDirection: 'ASC' }).map((r) => r.asset);
      assert.deepEqual(byPnl, byPnlAsc);
      assert.deepEqual(byPnl, [...byPnl].sort((x, y) => (x.length - y.length) || (x < y ? -1 : 1)));
      assert.deepEqual(fx2.data.positions({ user: A, title: 'amm' }).map((r) => r.title), ['Gamma']);
      assert.deepEqual(fx2.data.positions({ user: A, market: ms[1]!.conditionId }).map((r) => r.title), ['Beta']);
      rejects(() => fx2.data.positions({ user: A, sortBy: 'REALIZED_PNL' }), 'sortBy', 'REALIZED_PNL');
    } finally {
      fx2.close();
    }
  });
});

describe('holders', () => {
  let fx: DataFixture;
  let m1: Market;
  let m2: Market;

  before(async () => {
    fx = await createDataFixture();
    m1 = await fx.createMarket('First');
    m2 = await fx.createMarket('Second');
    // m1: A 50 Yes, B 50 Yes (tie), C 20 Yes; No side: D 80, E 40.
    await fx.fill({ conditionId: m1.conditionId, taker: { address: B, outcomeIndex: 0, side: 'BUY' }, maker: { address: D, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(50) });
    await fx.fill({ conditionId: m1.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: D, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(30) });
    await fx.fill({ conditionId: m1.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: E, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(20) });
    await fx.fill({ conditionId: m1.conditionId, taker: { address: C, outcomeIndex: 0, side: 'BUY' }, maker: { address: E, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(20) });
    // m2: only the Yes side held after a normal trade moves it: A 0.5 Yes (below the default minBalance).
    await fx.fill({ conditionId: m2.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.5), size: u(0.5) });
  });
  after(() => fx.close());

  it('groups per outcome with token <conditionId>:<index>, ranked by amount then address', () => {
    const groups = fx.data.holders({ market: m1.conditionId });
    assert.deepEqual(
      groups.map((g) => g.token),
      [`${m1.conditionId}:0`, `${m1.conditionId}:1`],
    );
    assert.deepEqual(groups[0]!.holders.map((h) => [h.proxyWallet, h.amount]), [[A, 50], [B, 50], [C, 20]]);
    assert.deepEqual(groups[1]!.holders.map((h) => [h.proxyWallet, h.amount]), [[D, 80], [E, 40]]);
    assert.deepEqual(groups[0]!.holders[0], {
      proxyWallet: A,
      bio: '',
      asset: m1.tokenIds[0],
      pseudonym: '',
      amount: 50,
      displayUsernamePublic: false,
      outcomeIndex: 0,
      name: '',
      profileImage: '',
      profileImageOptimized: '',
    });
  });

  it('keeps the request order of markets, drops outcomes without holders and unknown markets', () => {
    const unknown = '0x' + '12'.repeat(32);
    const groups = fx.data.holders({ market: `${m2.conditionId},${unknown},${m1.conditionId.toUpperCase().replace('0X', '0x')}`, minBalance: '0' });
    assert.deepEqual(
      groups.map((g) => g.token),
      [`${m2.conditionId}:0`, `${m2.conditionId}:1`, `${m1.conditionId}:0`, `${m1.conditionId}:1`],
    );
    assert.deepEqual(fx.data.holders({ market: m2.conditionId }), []);
    assert.deepEqual(fx.data.holders({ market: unknown }), []);
  });

  it('applies limit per group and minBalance as an inclusive floor', () => {
    const groups = fx.data.holders({ market: m1.conditionId, limit: '1' });
    assert.deepEqual(groups.map((g) => g.holders.length), [1, 1]);
    assert.deepEqual(fx.data.holders({ market: m1.conditionId, limit: 0 }), []);
    const rich = fx.data.holders({ market: m1.conditionId, minBalance: '50' });
    assert.deepEqual(rich.map((g) => g.holders.map((h) => h.proxyWallet)), [[A, B], [D]]);
  });

  it('refuses a missing or malformed market and out-of-range limit or minBalance, naming them', () => {
    rejects(() => fx.data.holders({}), 'market');
    rejects(() => fx.data.holders({ market: `${m1.conditionId},0x1234` }), 'market', '0x1234');
    rejects(() => fx.data.holders({ market: m1.conditionId, limit: '501' }), 'limit', '501');
    rejects(() => fx.data.holders({ market: m1.conditionId, limit: '-1' }), 'limit');
    rejects(() => fx.data.holders({ market: m1.conditionId, limit: 'abc' }), 'limit');
    rejects(() => fx.data.holders({ market: m1.conditionId, minBalance: '-1' }), 'minBalance');
    rejects(() => fx.data.holders({ market: m1.conditionId, minBalance: 'x' }), 'minBalance');
    assert.equal(fx.data.holders({ market: m1.conditionId, limit: '500' }).length, 2);
  });

  it('reports open interest per market and GLOBAL, from outstanding complete sets', () => {
    assert.deepEqual(fx.data.openInterest({ market: m1.conditionId }), [{ market: m1.conditionId, value: 120 }]);
    assert.deepEqual(fx.data.openInterest({}), [{ market: 'GLOBAL', value: 120.5 }]);
    const unknown = '0x' + '34'.repeat(32);
    assert.deepEqual(fx.data.openInterest({ market: `${unknown},${m2.conditionId}` }), [
      { market: unknown, value: 0 },
      { market: m2.conditionId, value: 0.5 },
    ]);
  });
});

describe('trades, volume and activity', () => {
  let fx: DataFixture;
  let m: Market;
  let other: Market;

  before(async () => {
    fx = await createDataFixture();
    m = await fx.createMarket('Tape market', { eventId: 7 });
    other = await fx.createMarket('Other market', { eventId: 7 });
    // Ten fills in the same millisecond pairs, so ties must be broken consistently.
    for (let i = 0; i < 10; i++) {
      if (i % 2 === 0) fx.clock.advance(1000);
      await fx.fill({ conditionId: m.conditionId, taker: { address: A, outcomeIndex: 0, side: 'BUY' }, maker: { address: B, outcomeIndex: 1, side: 'BUY' }, makerPrice: u(0.6), size: u(1 + i) });
    }
    // A sells 5 Yes to C at 0.45: a normal fill.
    fx.clock.advance(1000);
    await fx.fill({ conditionId: m.conditionId, taker: { address: A, outcomeIndex: 0, side: 'SELL' }, maker: { address: C, outcomeIndex: 0, side: 'BUY' }, makerPrice: u(0.45), size: u(5) });
    await fx.fill({ conditionId: other.conditionId, taker: { address: D, outcomeIndex: 1, side: 'BUY' }, maker: { address: E, outcomeIndex: 0, side: 'BUY' }, makerPrice: u(0.25), size: u(4) });
  });
  after(() => fx.close());

  it('lists each fill once from the taker side by default, newest first, at the taker price', () => {
    const all = fx.data.trades({});
    assert.equal(all.length, 12);
    assert.equal(all[0]?.proxyWallet, D);
    assert.equal(all[0]?.price, 0.75);
    assert.equal(all[0]?.outcome, 'No');
    assert.equal(all[1]?.side, 'SELL');
    assert.equal(all[1]?.price, 0.45);
    assert.equal(all[2]?.price, 0.4);
    assert.equal(all[2]?.size, 10);
    assert.ok(all.every((t, i) => i === 0 || t.timestamp <= all[i - 1]!.timestamp));
  });

  it('adds maker rows with takerOnly=false and filters a user, market, side, size and cash', () => {
    assert.equal(fx.data.trades({ takerOnly: 'false' }).length, 24);
    assert.equal(fx.data.trades({ user: B }).length, 0);
    const bMaker = fx.data.trades({ user: B, takerOnly: 'false' });
    assert.equal(bMaker.length, 10);
    assert.ok(bMaker.every((t) => t.proxyWallet === B && t.side === 'BUY' && t.price === 0.6 && t.outcomeIndex === 1));
    assert.equal(fx.data.trades({ user: A, side: 'SELL' }).length, 1);
    assert.equal(fx.data.trades({ market: other.conditionId }).length, 1);
    assert.equal(fx.data.trades({ eventId: '7' }).length, 12);
    assert.equal(fx.data.trades({ eventId: '8' }).length, 0);
    assert.equal(fx.data.trades({ filterType: 'TOKENS', filterAmount: '9' }).length, 2);
    // CASH: size × price ≥ 3 → 8×0.4=3.2, 9×0.4=3.6, 10×0.4=4 and D's 4×0.75=3.
    assert.equal(fx.data.trades({ filterType: 'CASH', filterAmount: '3' }).length, 4);
  });

  it('pages the tape without repeats or gaps, ties broken by match time, trade id and role', () => {
    const full = fx.data.trades({ takerOnly: 'false' });
    const paged: unknown[] = [];
    for (let offset = 0; offset < 30; offset += 5) paged.push(...fx.data.trades({ takerOnly: 'false', limit: '5', offset: String(offset) }));
    assert.deepEqual(paged, full);
    assert.equal(new Set(full.map((t) => `${t.transactionHash}:${t.proxyWallet}:${t.asset}`)).size, full.length);
  });

  it('pages activity without repeats or gaps and sorts by cash', () => {
    const full = fx.data.activity({ user: A });
    assert.equal(full.length, 11);
    const paged: unknown[] = [];
    for (let offset = 0; offset < 12; offset += 4) paged.push(...fx.data.activity({ user: A, limit: 4, offset }));
    assert.deepEqual(paged, full);
    const byCash = fx.data.activity({ user: A, sortBy: 'CASH', sortDirection: 'ASC' });
    assert.deepEqual(byCash.map((r) => r.usdcSize), [0.4, 0.8, 1.2, 1.6, 2, 2.25, 2.4, 2.8, 3.2, 3.6, 4]);
    assert.deepEqual(fx.data.activity({ user: A, side: 'SELL' }).map((r) => r.usdcSize), [2.25]);
  });

  it('counts live volume once per fill at the taker price, per market of the event', () => {
    // Σ (1..10) × 0.4 = 22, plus 5 × 0.45 = 2.25; other: 4 × 0.75 = 3.
    assert.deepEqual(fx.data.liveVolume({ id: '7' }), [
      {
        total: 27.25,
        markets: [
          { market: m.conditionId, value: 24.25 },
          { market: other.conditionId, value: 3 },
        ],
      },
    ]);
    assert.deepEqual(fx.data.liveVolume({ id: 99 }), [{ total: 0, markets: [] }]);
  });

  it('honours start and end windows in unix seconds', () => {
    const newest = fx.data.trades({})[0]!.timestamp;
    assert.equal(fx.data.trades({ start: String(newest) }).length, 2);
    assert.equal(fx.data.trades({ end: String(newest - 1) }).length, 10);
    assert.equal(fx.data.activity({ user: A, start: newest }).length, 1);
  });
});

describe('query validation', () => {
  let fx: DataFixture;
  const cid = '0x' + 'ab'.repeat(32);

  before(async () => {
    fx = await createDataFixture();
  });
  after(() => fx.close());

  it('requires user where the public API does, and checks its format', () => {
    rejects(() => fx.data.positions({}), 'user');
    rejects(() => fx.data.closedPositions({}), 'user');
    rejects(() => fx.data.value({}), 'user');
    rejects(() => fx.data.traded({}), 'user');
    rejects(() => fx.data.activity({}), 'user');
    rejects(() => fx.data.positions({ user: '0x123' }), 'user', '0x123');
    rejects(() => fx.data.trades({ user: 'nobody' }), 'user', 'nobody');
  });

  it('enforces the limit and offset ranges of each route', () => {
    rejects(() => fx.data.positions({ user: A, limit: '501' }), 'limit', '0 to 500');
    rejects(() => fx.data.positions({ user: A, offset: '10001' }), 'offset', '0 to 10000');
    rejects(() => fx.data.closedPositions({ user: A, limit: '51' }), 'limit', '0 to 50');
    rejects(() => fx.data.closedPositions({ user: A, offset: '100001' }), 'offset');
    rejects(() => fx.data.activity({ user: A, limit: '501' }), 'limit');
    rejects(() => fx.data.activity({ user: A, offset: '-1' }), 'offset');
    rejects(() => fx.data.trades({ limit: '10001' }), 'limit', '0 to 10000');
    rejects(() => fx.data.trades({ offset: '10001' }), 'offset');
    rejects(() => fx.data.trades({ limit: '1.5' }), 'limit');
    rejects(() => fx.data.buildersLeaderboard({ limit: '51' }), 'limit');
    rejects(() => fx.data.buildersLeaderboard({ offset: '1001' }), 'offset');
    assert.deepEqual(fx.data.positions({ user: A, limit: '0' }), []);
    assert.deepEqual(fx.data.trades({ limit: 0 }), []);
  });

  it('refuses unknown enum values and accepts the public aliases', () => {
    rejects(() => fx.data.positions({ user: A, sortBy: 'SIZE' }), 'sortBy', 'SIZE');
    rejects(() => fx.data.positions({ user: A, sortDirection: 'UP' }), 'sortDirection');
    rejects(() => fx.data.closedPositions({ user: A, sortBy: 'TOKENS' }), 'sortBy');
    rejects(() => fx.data.activity({ user: A, sortBy: 'PRICE' }), 'sortBy');
    rejects(() => fx.data.activity({ user: A, type: 'TRADE,GIFT' }), 'type', 'GIFT');
    rejects(() => fx.data.activity({ user: A, side: 'HOLD' }), 'side');
    rejects(() => fx.data.trades({ side: 'buyer' }), 'side');
    rejects(() => fx.data.buildersLeaderboard({ timePeriod: 'YEAR' }), 'timePeriod');
    rejects(() => fx.data.buildersVolume({ timePeriod: 'YEAR' }), 'timePeriod');
    for (const sortBy of ['CASH_PNL', 'PERCENT_PNL', 'AVG_PRICE', 'cashpnl']) assert.deepEqual(fx.data.positions({ user: A, sortBy }), []);
    for (const sortBy of ['REALIZED_PNL', 'AVG_PRICE', 'timestamp']) assert.deepEqual(fx.data.closedPositions({ user: A, sortBy }), []);
    assert.deepEqual(fx.data.buildersLeaderboard({ timePeriod: 'ALL', limit: '50', offset: '1000' }), []);
    assert.deepEqual(fx.data.buildersVolume({ timePeriod: 'week' }), []);
  });

  it('refuses market with eventId, malformed lists, and filterType without filterAmount (or the reverse)', () => {
    rejects(() => fx.data.positions({ user: A, market: cid, eventId: '1' }), 'market', 'mutually exclusive');
    rejects(() => fx.data.trades({ market: 'abc' }), 'market', 'abc');
    rejects(() => fx.data.activity({ user: A, eventId: '0' }), 'eventId', "'0'");
    rejects(() => fx.data.openInterest({ market: `${cid},zz` }), 'market', 'zz');
    rejects(() => fx.data.value({ user: A, market: '0x12' }), 'market');
    rejects(() => fx.data.trades({ filterType: 'CASH' }), 'filterAmount');
    rejects(() => fx.data.trades({ filterAmount: '5' }), 'filterType');
    rejects(() => fx.data.trades({ filterType: 'SHARES', filterAmount: '5' }), 'filterType');
    rejects(() => fx.data.trades({ filterType: 'CASH', filterAmount: '-5' }), 'filterAmount');
  });

  it('refuses bad booleans, thresholds, windows, titles, event ids and repeated parameters', () => {
    rejects(() => fx.data.positions({ user: A, redeemable: 'yes' }), 'redeemable');
    rejects(() => fx.data.positions({ user: A, sizeThreshold: '-1' }), 'sizeThreshold');
    rejects(() => fx.data.trades({ takerOnly: 'maybe' }), 'takerOnly');
    rejects(() => fx.data.trades({ start: '20', end: '10' }), 'start');
    rejects(() => fx.data.activity({ user: A, start: 'yesterday' }), 'start');
    rejects(() => fx.data.positions({ user: A, title: 'x'.repeat(101) }), 'title');
    rejects(() => fx.data.liveVolume({}), 'id');
    rejects(() => fx.data.liveVolume({ id: '0' }), 'id');
    rejects(() => fx.data.liveVolume({ id: 'abc' }), 'id');
    rejects(() => fx.data.positions({ user: [A, B] }), 'user', '2 times');
  });
});
