import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ORDER_TYPES, orderDomain, orderTypedMessage, orderVerifyingContract, type PostOrderBody, type SignedOrder } from '../../protocol/eip712.js';
import { MarketRepo } from '../../store/marketRepo.js';
import { ManualClock } from '../clock.js';
import { MarketDataService } from './marketDataService.js';
import { createMarketTestContext } from '../../testkit/marketKit.js';
import { DEMO_MAKER_KEY, DEMO_SEEDED_KEY, seedDemoMarkets } from './seedDemoMarkets.js';

test('a fresh data directory gets four demo markets with two-sided books, once (without participants)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'seed-'));
  try {
    const first = await createMarketTestContext(new ManualClock(1_800_000_000_000), { dataDir: dir, simulation: false });
    const placed: PostOrderBody[] = [];
    const place = first.ctx.orders.place.bind(first.ctx.orders);
    first.ctx.orders.place = (identity, body, opts) => (placed.push(body), place(identity, body, opts));
    const t0 = performance.now();
    await seedDemoMarkets(first.ctx);
    const ms = performance.now() - t0;
    assert.ok(ms < 2000, `seeding took ${ms.toFixed(0)} ms`);

    const markets = first.ctx.markets.list();
    assert.deepEqual(markets.map((m) => m.tickSize), [10_000n, 1_000n, 100_000n, 10_000n]);
    assert.deepEqual(markets.map((m) => m.negRisk), [false, false, false, true]);
    assert.equal(new Set(markets.map((m) => m.eventId)).size, 4);
    const data = new MarketDataService(first.ctx);
    for (const m of markets) {
      for (const token of m.tokenIds) {
        const book = JSON.parse(data.bookJson(token)) as { bids: unknown[]; asks: unknown[] };
        assert.ok(book.bids.length >= 2 && book.asks.length >= 2, `${m.question} has liquidity on both sides`);
      }
    }

    // The maker's key is kept, and its orders are genuine EIP-712 signatures of protocol/eip712.ts's type.
    const repo = new MarketRepo(first.ctx.db);
    const key = repo.getSetting(DEMO_MAKER_KEY) as `0x${string}`;
    const maker = privateKeyToAccount(key).address;
    assert.ok(repo.getSetting(DEMO_SEEDED_KEY));
    assert.ok(placed.length >= 40);
    for (const body of [placed[0]!, placed[placed.length - 1]!]) {
      const market = first.ctx.markets.byToken(body.order.tokenId)!.market;
      const signer = await recoverTypedDataAddress({
        domain: orderDomain({ chainId: first.ctx.config.chainId, verifyingContract: orderVerifyingContract(first.ctx.chain.contracts, market.negRisk) }),
        types: ORDER_TYPES,
        primaryType: 'Order',
        message: orderTypedMessage(body.order as SignedOrder),
        signature: body.order.signature,
      });
      assert.equal(signer, maker);
    }
    first.close();

    // A restart does not seed again.
    const second = await createMarketTestContext(new ManualClock(1_800_000_100_000), { dataDir: dir, simulation: false });
    await seedDemoMarkets(second.ctx);
    assert.equal(second.ctx.markets.list().length, 4);
    second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with participants on, the seeding places no static ladder: only the opening mints, the books stay empty for the market makers', async () => {
  const { ctx, close } = await createMarketTestContext(new ManualClock(1_800_000_000_000), { simulation: true });
  try {
    await seedDemoMarkets(ctx);
    const markets = ctx.markets.list();
    assert.equal(markets.length, 4);
    for (const m of markets) {
      assert.equal(ctx.orders.book(m.conditionId)!.orderCount, 0, m.question);
      assert.ok(ctx.orders.lastTrade(m.tokenIds[0]), 'the opening mint printed the fair price');
    }
  } finally {
    close();
  }
});

test('a data directory that already has markets is not seeded', async () => {
  const { ctx, close } = await createMarketTestContext(new ManualClock(1_800_000_000_000));
  await ctx.markets.create({ question: 'Mine?', tickSize: 10_000n, minOrderSize: 1_000_000n });
  await seedDemoMarkets(ctx);
  assert.equal(ctx.markets.list().length, 1);
  close();
});
