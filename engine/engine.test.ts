import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createL1Headers } from './client/createL1Headers.js';
import type { EngineContext } from './http/engineContext.js';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from './services/clock.js';
import { COLLATERAL } from './store/balanceRepo.js';
import { startTestEngine } from './testkit/engineKit.js';
import { accounts, identityOf, signedBody, units } from './testkit/orderKit.js';

const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];

// The links createEngine wires between services as events (auth → orders, markets → orders), seen
// through the whole engine: the services' own tests only see that the events are told.
describe('createEngine wires the services', () => {
  const clock = new ManualClock(Date.now());
  let ctx: EngineContext;
  let app: FastifyInstance;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, app, close } = await startTestEngine(clock));
  });
  after(() => close());

  it("credits the welcome grant when an address creates its first key, and not on its second", async () => {
    const nowSec = Math.floor(clock.nowMs() / 1000);
    assert.equal(ctx.orders.balanceOf(alice.address, COLLATERAL).balance, 0n);
    for (const nonce of [0n, 1n]) {
      const res = await app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await createL1Headers(alice, ctx.config.chainId, nonce, nowSec)) } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(ctx.orders.balanceOf(alice.address, COLLATERAL).balance, ctx.config.initialCollateral, `after key ${nonce}`);
    }
  });

  it('cancels the resting orders of a market when it resolves, before the resolution returns', async () => {
    const market = await ctx.markets.create({ question: 'Will the wiring cancel resting orders on resolution?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    await ctx.orders.creditCollateral(bob.address, units(100), 'test');
    const placed = await ctx.orders.place(identityOf(bob), await signedBody(bob, { market: { ...market, winner: null }, side: 'BUY', price: 400_000n, size: units(10) }));
    assert.equal(placed.status, 'live', JSON.stringify(placed));
    await ctx.markets.resolve(market.conditionId, 0);
    const after = ctx.orders.get(placed.order_id!);
    assert.equal(after.status, 'cancelled');
    assert.equal(ctx.orders.balanceOf(bob.address, COLLATERAL).reserved, 0n);
  });
});
