import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createEngine, type Engine } from '../../engine.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { ManualClock } from '../clock.js';
import { FEE_COLLECTOR } from '../fees/takerFee.js';
import { MAX_SIM_ORDERS_PER_SECOND } from './simulationService.js';
import { createSeededRandom } from '../../book/seededRandom.js';
import { accounts, identityOf, signedBody, units } from '../../testkit/orderKit.js';

/** Long simulated runs on the demo markets (fast mode): what must always hold. */
describe('simulated participants on the demo markets', () => {
  let dir: string;
  let engine: Engine;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-'));
    engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false }, { clock });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns participants on for every demo market of a fresh data directory', () => {
    const sims = engine.ctx.sim.list();
    assert.equal(sims.length, 4);
    for (const s of sims) assert.deepEqual(s.participants.map((p) => p.role).sort(), ['informed', 'marketMaker', 'news', 'noise', 'noise']);
  });

  it('trades, conserves collateral and shares, never goes negative and never leaves a book crossed after ten simulated minutes', async () => {
    const { ctx } = engine;
    const collateralBefore = totalCollateral(engine);
    await ctx.sim.runFor(10 * 60_000);
    const tape = ctx.orders.tradeTape({ limit: 100_000, offset: 0 });
    const simulated = tape.filter((t) => ctx.sim.isSimulated(t.maker_address) || ctx.sim.isSimulated(t.maker_orders[0]!.maker_address));
    assert.ok(simulated.length > 50, `only ${simulated.length} simulated trades`);
    const rows = ctx.db.prepare('SELECT address, asset, amount FROM balances').safeIntegers(true).all() as Array<{ address: string; asset: string; amount: bigint }>;
    for (const r of rows) assert.ok(r.amount >= 0n, `${r.address} holds ${r.amount} of ${r.asset}`);
    for (const m of ctx.markets.list()) {
      const book = ctx.orders.book(m.conditionId)!;
      const bid = book.bestBid();
      const ask = book.bestAsk();
      if (bid !== undefined && ask !== undefined) assert.ok(bid < ask, `book of ${m.question} crossed: ${bid} ≥ ${ask}`);
      // shares: outcome 0 and outcome 1 supplies are equal (every share was minted as a complete set)
      const supply = (token: string) => rows.filter((r) => r.asset === token).reduce((s, r) => s + r.amount, 0n);
      assert.equal(supply(m.tokenIds[0]), supply(m.tokenIds[1]), m.question);
      // collateral locked in complete sets + free collateral = everything ever credited
    }
    const locked = ctx.markets.list().reduce((s, m) => s + rows.filter((r) => r.asset === m.tokenIds[0]).reduce((a, r) => a + r.amount, 0n), 0n);
    const credited = (ctx.db.prepare("SELECT COALESCE(SUM(delta), 0) FROM balance_ledger WHERE kind = 'credit'").pluck().safeIntegers(true).get() as bigint);
    assert.equal(totalCollateral(engine) + locked, credited);
    assert.ok(totalCollateral(engine) + locked >= collateralBefore);
    assert.equal(ctx.orders.balanceOf(FEE_COLLECTOR, COLLATERAL).balance, 0n, 'demo markets are fee-free');
    // no participant ever traded with itself (the demo seeding's opening mints at the start are the demo maker's)
    const selfTrades = ctx.db.prepare('SELECT COUNT(*) FROM trades WHERE taker_address = maker_address AND match_time > ?').pluck().get(Date.UTC(2030, 0, 1));
    assert.equal(selfTrades, 0);
  });

  it('never places more than the shared budget of orders per second, however eager the participants', async () => {
    const { ctx } = engine;
    for (const m of ctx.sim.list()) for (const role of ['marketMaker', 'noise', 'informed']) await ctx.sim.configure(m.conditionId, role, { intensity: 600, latencyMs: 0 });
    const count = () => ctx.sim.participants().reduce((s, p) => s + p.orders, 0);
    const before = count();
    await ctx.sim.runFor(10_000);
    const placed = count() - before;
    assert.ok(placed > 100, `${placed} orders`);
    assert.ok(placed <= MAX_SIM_ORDERS_PER_SECOND * 11, `${placed} orders in 10 s`);
  });
});

describe('a long random run with fees and a user trading beside the participants', () => {
  it('conserves collateral (fees included) and shares, keeps balances non-negative and books uncrossed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fees-'));
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false }, { clock });
    try {
      const { ctx } = engine;
      for (const m of ctx.markets.list()) await ctx.markets.setFeeRate(m.conditionId, 150);
      const user = accounts[0]!;
      const me = identityOf(user);
      await ctx.orders.creditCollateral(me.address, units(5000), 'welcome');
      const rng = createSeededRandom(7);
      let refused = 0;
      for (let minute = 0; minute < 20; minute++) {
        await ctx.sim.runFor(60_000);
        const m = ctx.markets.list()[rng.int(0, 3)]!;
        const book = ctx.orders.book(m.conditionId)!;
        const ref = rng.next() < 0.5 ? book.bestAsk() : book.bestBid();
        if (ref === undefined) continue;
        const r = await ctx.orders.place(me, await signedBody(user, { market: m, outcome: rng.int(0, 1) as 0 | 1, side: 'BUY', price: BigInt(ref), size: units(rng.int(5, 40)), feeRateBps: '150', orderType: rng.next() < 0.5 ? 'FAK' : 'GTC' }));
        if (!r.success) refused++;
      }
      assert.ok(refused < 20, 'the user’s orders go through like anybody’s');
      const rows = ctx.db.prepare('SELECT address, asset, amount FROM balances').safeIntegers(true).all() as Array<{ address: string; asset: string; amount: bigint }>;
      for (const r of rows) assert.ok(r.amount >= 0n, `${r.address} holds ${r.amount} of ${r.asset}`);
      let locked = 0n;
      for (const m of ctx.markets.list()) {
        const supply = (token: string) => rows.filter((r) => r.asset === token).reduce((s, r) => s + r.amount, 0n);
        assert.equal(supply(m.tokenIds[0]), supply(m.tokenIds[1]));
        locked += supply(m.tokenIds[0]);
        const b = ctx.orders.book(m.conditionId)!;
        if (b.bestBid() !== undefined && b.bestAsk() !== undefined) assert.ok(b.bestBid()! < b.bestAsk()!);
      }
      const credited = ctx.db.prepare("SELECT COALESCE(SUM(delta), 0) FROM balance_ledger WHERE kind = 'credit'").pluck().safeIntegers(true).get() as bigint;
      const fees = ctx.orders.balanceOf(FEE_COLLECTOR, COLLATERAL).balance;
      assert.ok(fees > 0n, 'takers paid fees');
      const feeRows = ctx.db.prepare('SELECT COALESCE(SUM(fee), 0) FROM trades').pluck().safeIntegers(true).get() as bigint;
      assert.equal(feeRows, fees, 'the trades record every micro-unit the collector received');
      assert.equal(totalCollateral(engine) + locked, credited);
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function totalCollateral(engine: Engine): bigint {
  return engine.ctx.db.prepare('SELECT COALESCE(SUM(amount), 0) FROM balances WHERE asset = ?').pluck().safeIntegers(true).get(COLLATERAL) as bigint;
}
