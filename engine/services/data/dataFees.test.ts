import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createEngine, type Engine } from '../../engine.js';
import { ManualClock } from '../clock.js';
import type { Market } from '../markets/marketService.js';
import { accounts, identityOf, signedBody, units } from '../../testkit/orderKit.js';

const [alice, bob, carol] = accounts as [(typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0]];
const addr = (a: (typeof accounts)[0]) => a.address.toLowerCase();

/** Taker fees (decisions §10, a market created with only feeRateBps) as the data service shows them: in positions and realized PnL, to the unit. */
describe('fees in the data service', () => {
  let dir: string;
  let engine: Engine;
  let m: Market;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'data-fees-'));
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false }, { clock });
    const { ctx } = engine;
    m = await ctx.markets.create({ question: 'Do fees show?', tickSize: 10_000n, minOrderSize: units(5), feeRateBps: 100 });
    for (const a of [alice, bob, carol]) await ctx.orders.creditCollateral(addr(a), units(1000), 'test');
    const place = async (who: typeof alice, spec: Omit<Parameters<typeof signedBody>[1], 'market'>) => {
      const r = await ctx.orders.place(identityOf(who), await signedBody(who, { market: m, feeRateBps: '100', ...spec }));
      assert.equal(r.success, true, JSON.stringify(r));
    };
    await place(bob, { outcome: 1, side: 'BUY', price: units(0.58), size: units(150) });
    clock.advance(1000);
    // alice takes a mint of 150 Yes at 0.42: fee 150 × 0.01 × (0.42 × 0.58) = 0.3654
    await place(alice, { outcome: 0, side: 'BUY', price: units(0.42), size: units(150) });
    clock.advance(1000);
    await place(carol, { outcome: 0, side: 'BUY', price: units(0.55), size: units(50) });
    clock.advance(1000);
    // alice sells 50 into carol's bid at 0.55: fee 50 × 0.01 × (0.55 × 0.45) = 0.12375
    await place(alice, { outcome: 0, side: 'SELL', price: units(0.55), size: units(50), orderType: 'FAK' });
  });

  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows entry fees beside a fee-exclusive basis and nets exit fees out of realized PnL', async () => {
    const res = await engine.app.inject({ method: 'GET', url: `/data-api/positions?user=${alice.address}` });
    const [row] = res.json() as Array<Record<string, unknown>>;
    assert.equal(row?.avgPrice, 0.42);
    assert.equal(row?.initialValue, 42);
    assert.equal(row?.entryFeesUsdc, 0.3654);
    assert.equal(row?.grossInitialValue, 42.3654);
    // 50 × (0.55 − 0.42) − 0.12375
    assert.equal(row?.realizedPnl, 6.37625);
    assert.equal(engine.ctx.orders.balanceOf(addr(alice), 'COLLATERAL').balance, units(1000) - units(63) - units('0.3654') + units('27.5') - units('0.12375'));
  });

  it('shows each taker fill’s fee in /trades and /activity, none on the maker side', async () => {
    const trades = (await engine.app.inject({ method: 'GET', url: `/data-api/trades?user=${alice.address}&takerOnly=false` })).json() as Array<{ side: string; fee?: number }>;
    assert.deepEqual(trades.map((t) => [t.side, t.fee]), [['SELL', 0.12375], ['BUY', 0.3654]]);
    const activity = (await engine.app.inject({ method: 'GET', url: `/data-api/activity?user=${alice.address}` })).json() as Array<{ side: string; fee?: number; usdcSize: number }>;
    assert.deepEqual(activity.map((a) => [a.side, a.usdcSize, a.fee]), [['SELL', 27.5, 0.12375], ['BUY', 63, 0.3654]]);
    const makerSide = (await engine.app.inject({ method: 'GET', url: `/data-api/trades?user=${bob.address}&takerOnly=false` })).json() as Array<{ fee?: number }>;
    assert.ok(makerSide.length > 0 && makerSide.every((t) => t.fee === undefined));
  });

  it('leaves the makers’ positions without fee fields', async () => {
    const res = await engine.app.inject({ method: 'GET', url: `/data-api/positions?user=${bob.address}` });
    const [row] = res.json() as Array<Record<string, unknown>>;
    assert.equal(row?.entryFeesUsdc, undefined);
    assert.equal(row?.realizedPnl, 0);
  });
});

/** Maker rebates (decisions §10) as the data service shows them: per fill, and netted out of entry fees and realized PnL. */
describe('rebates in the data service', () => {
  let dir: string;
  let engine: Engine;
  let m: Market;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'data-rebates-'));
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false }, { clock });
    const { ctx } = engine;
    m = await ctx.markets.create({ question: 'Do rebates show?', tickSize: 10_000n, minOrderSize: units(5), feeSchedule: { rate: '0.01', rebateRate: '0.5' } });
    for (const a of [alice, bob, carol]) await ctx.orders.creditCollateral(addr(a), units(1000), 'test');
    const place = async (who: typeof alice, spec: Omit<Parameters<typeof signedBody>[1], 'market'>) => {
      const r = await ctx.orders.place(identityOf(who), await signedBody(who, { market: m, feeRateBps: '100', ...spec }));
      assert.equal(r.success, true, JSON.stringify(r));
    };
    await place(bob, { outcome: 1, side: 'BUY', price: units(0.58), size: units(150) });
    clock.advance(1000);
    // alice takes: fee 0.3654, bob's rebate 0.5 × 0.3654 = 0.1827
    await place(alice, { outcome: 0, side: 'BUY', price: units(0.42), size: units(150) });
    clock.advance(1000);
    await place(bob, { outcome: 1, side: 'SELL', price: units(0.6), size: units(50) });
    clock.advance(1000);
    // carol takes bob's 50 No at 0.60: fee 50 × 0.01 × 0.24 = 0.12, bob's rebate 0.06
    await place(carol, { outcome: 1, side: 'BUY', price: units(0.6), size: units(50) });
  });

  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows each maker fill’s rebate in /trades and /activity', async () => {
    const trades = (await engine.app.inject({ method: 'GET', url: `/data-api/trades?user=${bob.address}&takerOnly=false` })).json() as Array<{ side: string; fee?: number; rebate?: number }>;
    assert.deepEqual(trades.map((t) => [t.side, t.fee, t.rebate]), [['SELL', undefined, 0.06], ['BUY', undefined, 0.1827]]);
    const activity = (await engine.app.inject({ method: 'GET', url: `/data-api/activity?user=${bob.address}` })).json() as Array<{ side: string; rebate?: number }>;
    assert.deepEqual(activity.map((a) => [a.side, a.rebate]), [['SELL', 0.06], ['BUY', 0.1827]]);
    const taker = (await engine.app.inject({ method: 'GET', url: `/data-api/trades?user=${carol.address}&takerOnly=false` })).json() as Array<{ fee?: number; rebate?: number }>;
    assert.deepEqual(taker.map((t) => [t.fee, t.rebate]), [[0.12, undefined]]);
  });

  it('nets entry rebates out of the entry fees and adds exit rebates to realized PnL', async () => {
    const [row] = (await engine.app.inject({ method: 'GET', url: `/data-api/positions?user=${bob.address}` })).json() as Array<Record<string, unknown>>;
    assert.equal(row?.initialValue, 58);
    assert.equal(row?.entryFeesUsdc, -0.1827);
    assert.equal(row?.grossInitialValue, 57.8173);
    // 50 × (0.60 − 0.58) + 0.06
    assert.equal(row?.realizedPnl, 1.06);
    assert.equal(engine.ctx.orders.balanceOf(addr(bob), 'COLLATERAL').balance, units(1000) - units(87) + units('0.1827') + units(30) + units('0.06'));
  });
});
