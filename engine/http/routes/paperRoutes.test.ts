import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createL1Headers } from '../../client/createL1Headers.js';
import { createL2Headers } from '../../client/createL2Headers.js';
import { ManualClock } from '../../services/clock.js';
import type { EngineContext } from '../engineContext.js';
import type { Market } from '../../services/markets/marketService.js';
import type { PaperSession } from '../../services/paper/paperService.js';
import { accounts, signedBody, units } from '../../testkit/orderKit.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { startTestEngine } from '../../testkit/engineKit.js';

const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];

interface Creds {
  key: string;
  secret: string;
  passphrase: string;
}

describe('paper account routes (POST /paper/reset, GET /paper/sessions)', () => {
  const clock = new ManualClock(Date.now());
  let app: FastifyInstance;
  let ctx: EngineContext;
  let close: () => Promise<void>;
  let market: Market;
  const creds = new Map<string, Creds>();
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  function l2(acct: PrivateKeyAccount, method: 'GET' | 'POST', url: string, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...createL2Headers(creds.get(acct.address)!, acct.address, { method, path: url, body: payload, timestamp: nowSec() }) };
    return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }

  async function order(acct: PrivateKeyAccount, outcome: 0 | 1, price: bigint, size: bigint) {
    const res = await l2(acct, 'POST', '/order', await signedBody(acct, { market: { ...market, winner: null }, outcome, side: 'BUY', price, size }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { order_id: string; status: string };
  }

  before(async () => {
    ({ app, ctx, close } = await startTestEngine(clock));
    market = await ctx.markets.create({ question: 'Will the paper reset archive the session?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    for (const a of [alice, bob]) {
      const res = await app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await createL1Headers(a, ctx.config.chainId, 0n, nowSec())) } });
      assert.equal(res.statusCode, 200, res.body);
      creds.set(a.address, res.json() as Creds);
    }
  });
  after(() => close());

  it('refuses both routes without L2 headers', async () => {
    for (const [method, url] of [['POST', '/paper/reset'], ['GET', '/paper/sessions']] as const) {
      const res = await app.inject({ method, url });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
    }
  });

  it('reset cancels open orders, archives balances, positions and trades, and restores the starting balance with no shares', async () => {
    const start = ctx.config.initialCollateral;
    // Alice buys 10 Yes at 0.40 from Bob's No bid at 0.60 (a mint), then rests another bid.
    await order(bob, 1, 600_000n, units(10));
    assert.equal((await order(alice, 0, 400_000n, units(10))).status, 'matched');
    const resting = await order(alice, 0, 100_000n, units(20));
    assert.equal(resting.status, 'live');
    const before = ctx.orders.balanceOf(alice.address, COLLATERAL);
    assert.equal(before.balance, start - 4_000_000n);
    assert.equal(before.reserved, 2_000_000n);

    clock.set(clock.nowMs() + 1000);
    const res = await l2(alice, 'POST', '/paper/reset');
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { session: PaperSession; balance: string; cancelled: string[] };
    assert.deepEqual(body.cancelled, [resting.order_id]);
    assert.equal(body.balance, '10000');
    assert.equal(body.session.collateral, '9996');
    assert.equal(body.session.reserved, '2');
    assert.equal(body.session.tradeCount, 1);
    assert.equal(body.session.cancelledOrders, 1);
    assert.equal(body.session.positions.length, 1);
    assert.equal(body.session.positions[0]!.size, 10);
    assert.equal(body.session.positions[0]!.avgPrice, 0.4);
    assert.ok(body.session.endedAt >= body.session.startedAt);

    // Balances: starting collateral, nothing reserved, no shares; the resting order is gone.
    assert.deepEqual(ctx.orders.balanceOf(alice.address, COLLATERAL), { balance: start, reserved: 0n, available: start });
    assert.equal(ctx.orders.balanceOf(alice.address, market.tokenIds[0]).balance, 0n);
    const open = await l2(alice, 'GET', '/data/orders');
    assert.deepEqual((open.json() as { data: unknown[] }).data, []);
    const positions = await app.inject({ method: 'GET', url: `/data-api/positions?user=${alice.address}` });
    assert.deepEqual(positions.json(), []);
    // Bob's account is untouched.
    assert.equal(ctx.orders.balanceOf(bob.address, market.tokenIds[1]).balance, units(10));
  });

  it('lists archived sessions newest first, and a second reset archives an empty session', async () => {
    clock.set(clock.nowMs() + 1000);
    const again = await l2(alice, 'POST', '/paper/reset');
    assert.equal(again.statusCode, 200, again.body);
    const second = (again.json() as { session: PaperSession }).session;
    assert.equal(second.tradeCount, 0);
    assert.deepEqual(second.positions, []);
    assert.equal(second.collateral, '10000');
    assert.equal(second.realizedPnl, 0);

    const res = await l2(alice, 'GET', '/paper/sessions');
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json() as { startingBalance: string; currentSessionStartedAt: number; sessions: PaperSession[] };
    assert.equal(list.startingBalance, '10000');
    assert.deepEqual(list.sessions.map((s) => s.tradeCount), [0, 1]);
    assert.equal(list.currentSessionStartedAt, second.endedAt);
    assert.equal((await l2(bob, 'GET', '/paper/sessions')).json().sessions.length, 0);
  });
});
