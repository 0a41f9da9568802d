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

/**
 * The data service over a real engine: orders are signed, matched and settled by the order service, the
 * market is resolved and redeemed through the real services, and the data routes read what they wrote.
 */
describe('data service on a real engine', () => {
  let dir: string;
  let engine: Engine;
  let m: Market;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'data-engine-'));
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false }, { clock });
    const { ctx } = engine;
    m = await ctx.markets.create({ question: 'Will the engine test pass?', tickSize: 10_000n, minOrderSize: units(5), endDate: '2030-06-30T00:00:00Z' });
    for (const a of [alice, bob, carol]) await ctx.orders.creditCollateral(addr(a), units(1000), 'test');

    const place = async (who: typeof alice, spec: Omit<Parameters<typeof signedBody>[1], 'market'>) => {
      const r = await ctx.orders.place(identityOf(who), await signedBody(who, { market: m, ...spec }));
      assert.equal(r.success, true, JSON.stringify(r));
    };
    // Bob rests a BUY of No at 0.58; Alice's BUY of Yes at 0.42 crosses it: a mint of 150.
    await place(bob, { outcome: 1, side: 'BUY', price: units(0.58), size: units(150) });
    clock.advance(1000);
    await place(alice, { outcome: 0, side: 'BUY', price: units(0.42), size: units(150) });
    clock.advance(1000);
    // Carol bids 0.55 for 50 Yes; Alice sells into it.
    await place(carol, { outcome: 0, side: 'BUY', price: units(0.55), size: units(50) });
    clock.advance(1000);
    await place(alice, { outcome: 0, side: 'SELL', price: units(0.55), size: units(50), orderType: 'FAK' });
    clock.advance(1000);
    // Quotes: Yes bid 0.54 (Carol) and Yes ask 0.56 (Bob selling... as a BUY of No at 0.44).
    await place(carol, { outcome: 0, side: 'BUY', price: units(0.54), size: units(5) });
    await place(bob, { outcome: 1, side: 'BUY', price: units(0.44), size: units(5) });
  });

  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (url: string) => {
    const res = await engine.app.inject({ method: 'GET', url: `/data-api${url}` });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json() as unknown;
  };

  it('reproduces the worked example from real fills: realized 6.5, percentRealizedPnl at the 0.54 bid', async () => {
    const [row] = (await get(`/positions?user=${alice.address}`)) as Array<Record<string, unknown>>;
    assert.equal(row?.asset, m.tokenIds[0]);
    assert.equal(row?.size, 100);
    assert.equal(row?.avgPrice, 0.42);
    assert.equal(row?.totalBought, 150);
    assert.equal(row?.realizedPnl, 6.5);
    assert.equal(row?.curPrice, 0.55);
    assert.equal(row?.cashPnl, 13);
    assert.equal(row?.percentRealizedPnl, 28.571428571428573);
    assert.equal(row?.endDate, '2030-06-30');
  });

  it('lists holders per outcome and the tape once per fill at the taker price', async () => {
    const groups = (await get(`/holders?market=${m.conditionId}`)) as Array<{ token: string; holders: Array<{ proxyWallet: string; amount: number }> }>;
    assert.deepEqual(groups.map((g) => g.token), [`${m.conditionId}:0`, `${m.conditionId}:1`]);
    assert.deepEqual(groups[0]!.holders.map((h) => [h.proxyWallet, h.amount]), [[addr(alice), 100], [addr(carol), 50]]);
    assert.deepEqual(groups[1]!.holders.map((h) => [h.proxyWallet, h.amount]), [[addr(bob), 150]]);
    const tape = (await get('/trades')) as Array<{ proxyWallet: string; side: string; price: number; size: number }>;
    assert.deepEqual(tape.map((t) => [t.proxyWallet, t.side, t.price, t.size]), [
      [addr(alice), 'SELL', 0.55, 50],
      [addr(alice), 'BUY', 0.42, 150],
    ]);
    const [vol] = (await get(`/live-volume?id=${m.eventId}`)) as Array<{ total: number }>;
    assert.equal(vol?.total, 150 * 0.42 + 50 * 0.55);
    assert.deepEqual(await get(`/oi?market=${m.conditionId}`), [{ market: m.conditionId, value: 150 }]);
  });

  it('after resolution and POST /redeem, moves the position to closed-positions and logs a REDEEM', async () => {
    await engine.ctx.markets.resolve(m.conditionId, 0);
    const [held] = (await get(`/positions?user=${alice.address}&redeemable=true`)) as Array<Record<string, unknown>>;
    assert.equal(held?.redeemable, true);
    assert.equal(held?.curPrice, 1);
    clock.advance(10_000);
    await engine.ctx.orders.redeem(identityOf(alice), m.conditionId);
    assert.deepEqual(await get(`/positions?user=${alice.address}`), []);
    const [closed] = (await get(`/closed-positions?user=${alice.address}`)) as Array<Record<string, unknown>>;
    assert.equal(closed?.realizedPnl, 6.5 + 100 * 0.58);
    assert.equal(closed?.curPrice, 1);
    assert.equal(closed?.timestamp, Math.floor(clock.nowMs() / 1000));
    const [redeem] = (await get(`/activity?user=${alice.address}`)) as Array<Record<string, unknown>>;
    assert.equal(redeem?.type, 'REDEEM');
    assert.equal(redeem?.usdcSize, 100);
    assert.deepEqual(await get(`/traded?user=${alice.address}`), { user: addr(alice), traded: 1 });
  });
});
