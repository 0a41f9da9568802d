import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createEngine, type Engine } from '../../engine.js';
import { createL1Headers } from '../../client/createL1Headers.js';
import { createL2Headers } from '../../client/createL2Headers.js';
import { ManualClock } from '../../services/clock.js';
import type { Market } from '../../services/markets/marketService.js';
import { accounts, signedBody, units } from '../../testkit/orderKit.js';

const [alice, bob, carol] = accounts as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];

interface Entry {
  order_id: string;
  market: string;
  asset_id: string;
  side: string;
  price: string;
  size_remaining: string;
  ahead: string;
  level_size: string;
}

describe('queue position routes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'queue-routes-'));
  const clock = new ManualClock(Date.now());
  let engine: Engine;
  let market: Market;
  let other: Market;
  const creds = new Map<string, { key: string; secret: string; passphrase: string }>();
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  function l2(acct: PrivateKeyAccount, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...createL2Headers(creds.get(acct.address)!, acct.address, { method, path: url, body: payload, timestamp: nowSec() }) };
    return engine.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }
  async function place(acct: PrivateKeyAccount, outcome: 0 | 1, price: bigint, shares: number): Promise<string> {
    const res = await l2(acct, 'POST', '/order', await signedBody(acct, { market: { ...market, winner: null }, outcome, side: 'BUY', price, size: units(shares) }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json().order_id as string;
  }
  async function queue(acct: PrivateKeyAccount, query = ''): Promise<Entry[]> {
    const res = await l2(acct, 'GET', `/data/orders/queue${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Entry[];
  }
  const brief = (e: Entry) => [e.ahead, e.level_size, e.size_remaining];

  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, port: 0 }, { clock });
    market = await engine.ctx.markets.create({ question: 'Will the queue move?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    other = await engine.ctx.markets.create({ question: 'Another market', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    for (const a of [alice, bob, carol]) {
      const res = await engine.app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await createL1Headers(a, engine.ctx.config.chainId, 0, nowSec())) } });
      creds.set(a.address, res.json());
      await engine.ctx.orders.creditCollateral(a.address, units(1000), 'queue test');
    }
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows each of the owner's resting orders with the size ahead at its price and the level total, and moves as orders ahead cancel or fill", async () => {
    const a1 = await place(alice, 0, 400_000n, 10);
    const b1 = await place(bob, 0, 400_000n, 5);
    const a2 = await place(alice, 0, 400_000n, 7);
    await place(bob, 0, 300_000n, 6); // another level: not in the 0.40 queue

    const mine = await queue(alice);
    assert.deepEqual(mine.map((e) => e.order_id), [a1, a2]);
    assert.deepEqual(mine.map(brief), [['0', '22', '10'], ['15', '22', '7']]);
    assert.deepEqual({ ...mine[0], order_id: '' }, { order_id: '', market: market.conditionId, asset_id: market.tokenIds[0], side: 'BUY', price: '0.4', size_remaining: '10', ahead: '0', level_size: '22' });
    const bobs = await queue(bob);
    assert.deepEqual(bobs.map(brief), [['10', '22', '5'], ['0', '6', '6']]);
    // The level total is the size GET /book shows at that price.
    const book = (await engine.app.inject({ method: 'GET', url: `/book?token_id=${market.tokenIds[0]}` })).json() as { bids: { price: string; size: string }[] };
    assert.equal(book.bids.find((l) => l.price === '0.4')?.size, '22');

    // One order by id.
    const one = await l2(alice, 'GET', `/data/order/${a2}/queue`);
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual(brief(one.json()), ['15', '22', '7']);

    // Bob cancels his order ahead: alice's second order moves up by its 5 shares.
    assert.equal((await l2(bob, 'DELETE', '/order', { orderID: b1 })).statusCode, 200);
    assert.deepEqual((await queue(alice)).map(brief), [['0', '17', '10'], ['10', '17', '7']]);

    // Carol buys No at 0.60, which crosses the 0.40 Yes bids (a mint): 5 of alice's first order fill.
    await place(carol, 1, 600_000n, 5);
    assert.deepEqual((await queue(alice)).map(brief), [['0', '12', '5'], ['5', '12', '7']]);
  });

  it('filters by market and token; another market or the other outcome lists none', async () => {
    assert.equal((await queue(alice, `?market=${market.conditionId}`)).length, 2);
    assert.equal((await queue(alice, `?asset_id=${market.tokenIds[0]}`)).length, 2);
    assert.deepEqual(await queue(alice, `?asset_id=${market.tokenIds[1]}`), []);
    assert.deepEqual(await queue(alice, `?market=${other.conditionId}`), []);
  });

  it("answers 404 for someone else's order, 409 order_not_resting once the order left the book, and 401 without credentials", async () => {
    const [a1] = await queue(alice);
    const theirs = await l2(bob, 'GET', `/data/order/${a1!.order_id}/queue`);
    assert.equal(theirs.statusCode, 404);
    assert.equal(theirs.json().error, 'order_not_found');

    const id = await place(bob, 0, 200_000n, 5);
    assert.equal((await l2(bob, 'DELETE', '/order', { orderID: id })).statusCode, 200);
    const gone = await l2(bob, 'GET', `/data/order/${id}/queue`);
    assert.equal(gone.statusCode, 409);
    assert.equal(gone.json().error, 'order_not_resting');
    assert.match(gone.json().message, /canceled|cancelled/i);

    const anon = await engine.app.inject({ method: 'GET', url: '/data/orders/queue' });
    assert.equal(anon.statusCode, 401);
  });
});
