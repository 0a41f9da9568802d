import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { LOCAL_NEG_RISK_EXCHANGE_ADDRESS } from '../../protocol/contractAddresses.js';
import { ApiError } from '../../protocol/errors.js';
import { deriveSafeAddress } from '../../protocol/walletAddresses.js';
import { COLLATERAL } from '../../store/balanceRepo.js';
import { accounts, identityOf, makeHarness, makeMarket, signedBody, T0, units, type Harness, type TestMarket } from '../../testkit/orderKit.js';

const [alice, bob, carol] = accounts as [(typeof accounts)[0], (typeof accounts)[0], (typeof accounts)[0]];
const A = identityOf(alice);
const B = identityOf(bob);
const C = identityOf(carol);

describe('order placement', () => {
  let h: Harness;
  let m: TestMarket;

  before(async () => {
    h = await makeHarness();
  });
  after(() => h.cleanup());

  let n = 0;
  beforeEach(async () => {
    // A fresh market per test keeps books independent; balances are topped up per test.
    m = h.markets.add(makeMarket(++n));
    for (const who of [A, B, C]) {
      await h.orders.cancelAll(who);
      await h.orders.creditCollateral(who.address, units(1000), 'test');
    }
  });

  const bal = (who: { address: string }, asset: string) => h.orders.balanceOf(who.address, asset);

  it('rests a GTC BUY that crosses nothing: live, record open, collateral reserved', async () => {
    const before = bal(A, COLLATERAL);
    const r = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 520_000n, size: units(10) }));
    assert.equal(r.success, true);
    assert.equal(r.status, 'live');
    assert.equal(r.error_code, null);
    assert.equal(r.error_msg, '');
    assert.deepEqual(r.order_hashes, []);
    assert.match(r.order_id!, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.deepEqual(Object.keys(r), ['success', 'error_msg', 'order_hashes', 'error_code', 'order_id', 'status']);
    const rec = h.orders.get(r.order_id!);
    assert.equal(rec.status, 'open');
    assert.equal(rec.price, '0.52');
    assert.equal(rec.originalSize, '10');
    assert.equal(rec.sizeMatched, '0');
    assert.equal(rec.outcome, `${m.conditionId}:0`);
    assert.equal(rec.owner, A.address);
    assert.equal(bal(A, COLLATERAL).reserved - before.reserved, units(5.2));
    assert.equal(bal(A, COLLATERAL).balance, before.balance);
  });

  it('mints when two BUYs of complementary tokens cross: each pays its price, each gets its shares, collateral is conserved', async () => {
    const a0 = bal(A, COLLATERAL).balance;
    const b0 = bal(B, COLLATERAL).balance;
    const rest = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 600_000n, size: units(10) }));
    const take = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 450_000n, size: units(10) }));
    assert.equal(take.status, 'matched');
    // Execution at the maker's price 0.60 (on Yes) = 0.40 on No: Bob improves by 0.05 a share.
    assert.equal(a0 - bal(A, COLLATERAL).balance, units(6));
    assert.equal(b0 - bal(B, COLLATERAL).balance, units(4));
    assert.equal(bal(A, m.tokenIds[0]).balance, units(10));
    assert.equal(bal(B, m.tokenIds[1]).balance, units(10));
    assert.equal(bal(A, COLLATERAL).reserved, 0n);
    assert.equal(bal(B, COLLATERAL).reserved, 0n, 'the unused price improvement is released');
    assert.equal(h.orders.get(rest.order_id!).status, 'filled');
    const trades = h.orders.listTrades(B, {});
    assert.equal(trades.data[0]!.type, 'MINT');
    assert.equal(trades.data[0]!.price, '0.4');
    assert.equal(trades.data[0]!.maker_orders[0]!.price, '0.6');
    assert.equal(trades.data[0]!.trader_side, 'TAKER');
    assert.equal(h.orders.listTrades(A, {}).data[0]!.trader_side, 'MAKER');
  });

  it('settles a NORMAL trade at the resting price and refunds the taker price improvement', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) }));
    await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(10) }));
    const c0 = bal(C, COLLATERAL).balance;
    const a0 = bal(A, COLLATERAL).balance;
    const sell = await h.orders.place(A, await signedBody(alice, { market: m, side: 'SELL', price: 700_000n, size: units(5) }));
    assert.equal(sell.status, 'live', sell.error_msg);
    assert.equal(bal(A, m.tokenIds[0]).reserved, units(5));
    const buy = await h.orders.place(C, await signedBody(carol, { market: m, side: 'BUY', price: 750_000n, size: units(5) }));
    assert.equal(buy.status, 'matched');
    assert.equal(c0 - bal(C, COLLATERAL).balance, units(3.5), 'pays 0.70, not its 0.75 limit');
    assert.equal(bal(C, COLLATERAL).reserved, 0n);
    assert.equal(bal(A, COLLATERAL).balance - a0, units(3.5));
    assert.equal(bal(A, m.tokenIds[0]).balance, units(5));
    assert.equal(bal(A, m.tokenIds[0]).reserved, 0n);
    assert.equal(bal(C, m.tokenIds[0]).balance, units(5));
    const t = h.orders.listTrades(C, {}).data[0]!;
    assert.equal(t.type, 'NORMAL');
    assert.equal(t.price, '0.7');
    assert.equal(t.size, '5');
    assert.match(t.transaction_hash, /^0x[0-9a-f]{64}$/);
  });

  it('merges when two SELLs of complementary tokens cross: each gets its price, shares are burnt, collateral conserved', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(5) }));
    await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(5) }));
    const a0 = bal(A, COLLATERAL).balance;
    const b0 = bal(B, COLLATERAL).balance;
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'SELL', price: 600_000n, size: units(5) }));
    const r = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'SELL', price: 350_000n, size: units(5) }));
    assert.equal(r.status, 'matched');
    assert.equal(bal(A, COLLATERAL).balance - a0, units(3));
    assert.equal(bal(B, COLLATERAL).balance - b0, units(2), 'executes at 1 − 0.60 = 0.40 on No, better than its 0.35 limit');
    assert.equal(bal(A, m.tokenIds[0]).balance, 0n);
    assert.equal(bal(B, m.tokenIds[1]).balance, 0n);
    assert.equal(h.orders.listTrades(B, {}).data[0]!.type, 'MERGE');
  });

  it('kills a FOK that cannot fill completely: FOK_ORDER_NOT_FILLED_ERROR, nothing stored or reserved', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(5) }));
    const before = bal(B, COLLATERAL);
    const r = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 600_000n, size: units(10), orderType: 'FOK' }));
    assert.equal(r.success, false);
    assert.equal(r.error_code, 'FOK_ORDER_NOT_FILLED_ERROR');
    assert.equal(r.order_id, null);
    assert.deepEqual(bal(B, COLLATERAL), before);
    assert.equal(h.orders.listOpen(A, {}).data.filter((o) => o.market === m.conditionId).length, 1, 'the resting order is untouched');
  });

  it('fills a FOK completely when the book has the depth: matched, record filled', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(10) }));
    const r = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 600_000n, size: units(10), orderType: 'FOK' }));
    assert.equal(r.status, 'matched');
    assert.equal(h.orders.get(r.order_id!).status, 'filled');
  });

  it('accepts a FAK that matches nothing with status unmatched and records it cancelled', async () => {
    const r = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(10), orderType: 'FAK' }));
    assert.equal(r.success, true);
    assert.equal(r.status, 'unmatched');
    const rec = h.orders.get(r.order_id!);
    assert.equal(rec.status, 'cancelled');
    assert.equal(rec.sizeMatched, '0');
    assert.equal(bal(A, COLLATERAL).reserved, 0n);
  });

  it('fills a FAK partly and cancels the rest: matched, record cancelled with the filled size', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(6) }));
    const r = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 600_000n, size: units(10), orderType: 'FAK' }));
    assert.equal(r.status, 'matched');
    const rec = h.orders.get(r.order_id!);
    assert.equal(rec.status, 'cancelled');
    assert.equal(rec.sizeMatched, '6');
    assert.equal(rec.associateTrades.length, 1);
    assert.equal(bal(B, COLLATERAL).reserved, 0n);
  });

  it('rests the remainder of a partly filled GTC as partially_filled with the remaining reservation', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(6) }));
    const r = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 600_000n, size: units(10) }));
    assert.equal(r.status, 'matched');
    assert.equal(h.orders.get(r.order_id!).status, 'partially_filled');
    assert.equal(bal(B, COLLATERAL).reserved, units(2.4), '4 shares left at 0.60');
  });

  it('accepts a public-client market BUY whose implied price is off the tick (a worst-price limit)', async () => {
    await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 470_000n, size: units(100) }));
    // $25 at 0.53: takerAmount 47.1698 shares (trading-api.md §8), price 0.530000… rounds down to 0.53.
    const r = await h.orders.place(
      B,
      await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 0n, size: 0n, makerAmount: units(25), takerAmount: 47_169_800n, orderType: 'FOK' }),
    );
    assert.equal(r.success, true, r.error_msg);
    assert.equal(r.status, 'matched');
    assert.equal(bal(B, m.tokenIds[1]).balance, 47_169_800n);
    assert.equal(bal(B, COLLATERAL).reserved, 0n);
  });

  describe('rejections', () => {
    const expectCode = async (who: typeof A, body: Promise<Parameters<Harness['orders']['place']>[1]>, code: string, msg?: RegExp) => {
      const r = await h.orders.place(who, await body);
      assert.equal(r.success, false, `expected ${code}, got success`);
      assert.equal(r.error_code, code, r.error_msg);
      assert.equal(r.order_id, null);
      if (msg) assert.match(r.error_msg, msg);
    };

    it('refuses an owner other than SERVICE_ADDRESS with ApiError owner_address_mismatch', async () => {
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), owner: bob.address });
      await assert.rejects(h.orders.place(A, body), (e: ApiError) => e.code === 'owner_address_mismatch' && e.status === 400);
    });

    it('refuses placement while paused with 409 system_paused or condition_paused', async () => {
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      m.paused = true;
      await assert.rejects(h.orders.place(A, body), (e: ApiError) => e.code === 'condition_paused' && e.status === 409);
      m.paused = false;
      h.markets.systemPaused = true;
      await assert.rejects(h.orders.place(A, body), (e: ApiError) => e.code === 'system_paused' && e.status === 409);
      h.markets.systemPaused = false;
    });

    it('names an unknown token and a conditionId that does not match the token', async () => {
      const unknown = await signedBody(alice, { market: { ...m, tokenIds: ['999999', '999998'] }, side: 'BUY', price: 500_000n, size: units(10) });
      await expectCode(A, Promise.resolve(unknown), 'INVALID_ORDER_ERROR', /Unknown tokenId 999999/);
      const other = makeMarket(9000 + n);
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      body.order.conditionId = other.conditionId;
      await expectCode(A, Promise.resolve(body), 'INVALID_ORDER_ERROR', /does not match/);
    });

    it('refuses non-positive amounts and sizes under the minimum with INVALID_ORDER_MIN_SIZE', async () => {
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 0n, size: 0n, makerAmount: 0n, takerAmount: units(10) }), 'INVALID_ORDER_MIN_SIZE');
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(4) }), 'INVALID_ORDER_MIN_SIZE', /Size \(4\) lower than the minimum: 5/);
    });

    it('refuses prices off the tick or outside [tick, 1 − tick] with INVALID_ORDER_MIN_TICK_SIZE', async () => {
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 523_000n, size: units(10) }), 'INVALID_ORDER_MIN_TICK_SIZE', /0\.523.*tick size rule: 0\.01/);
      await expectCode(A, signedBody(alice, { market: m, side: 'SELL', price: 1_000_000n, size: units(10) }), 'INVALID_ORDER_MIN_TICK_SIZE', /within \[0\.01, 0\.99\]/);
    });

    it('refuses a GTD whose expiration is not beyond now + 60 s with INVALID_ORDER_EXPIRATION', async () => {
      const now = BigInt(Math.floor(h.clock.nowMs() / 1000));
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), orderType: 'GTD', expiration: now + 60n }), 'INVALID_ORDER_EXPIRATION');
      const ok = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), orderType: 'GTD', expiration: now + 61n }));
      assert.equal(ok.success, true);
      const gtc = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), expiration: 5n }));
      assert.equal(gtc.success, true, 'GTC ignores expiration');
    });

    it('refuses a signer that does not own the API key and an EOA maker that is not the signer', async () => {
      await expectCode(B, signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), owner: bob.address }), 'INVALID_ORDER_ERROR', /signer address has to be the address of the API KEY/);
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), maker: bob.address }), 'INVALID_ORDER_ERROR', /maker == signer/);
    });

    it('names the domain tried and the recovered address when the signature is for the wrong exchange', async () => {
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), verifyingContract: LOCAL_NEG_RISK_EXCHANGE_ADDRESS });
      const r = await h.orders.place(A, body);
      assert.equal(r.error_code, 'INVALID_ORDER_ERROR');
      assert.match(r.error_msg, /invalid signature: under the exchange 0x[0-9a-fA-F]{40} on chain 31337/);
      assert.match(r.error_msg, /recovers 0x[0-9a-f]{40}, not the signer/);
      const tampered = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      tampered.order.takerAmount = units(20).toString();
      assert.equal((await h.orders.place(A, tampered)).error_code, 'INVALID_ORDER_ERROR');
    });

    it('verifies neg-risk markets under the neg-risk exchange domain', async () => {
      const nr = h.markets.add(makeMarket(5000 + n, { negRisk: true }));
      const r = await h.orders.place(A, await signedBody(alice, { market: nr, side: 'BUY', price: 500_000n, size: units(10) }));
      assert.equal(r.success, true, r.error_msg);
    });

    it('accepts a Safe maker for signatureType 2 and refuses any other maker', async () => {
      const safe = deriveSafeAddress(alice.address, h.ctx.chain.deployment);
      await h.orders.creditCollateral(safe, units(100), 'test');
      const ok = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), signatureType: 2, maker: safe }));
      assert.equal(ok.success, true, ok.error_msg);
      assert.equal(h.orders.get(ok.order_id!).makerAddress, safe.toLowerCase());
      assert.equal(h.orders.balanceOf(safe, COLLATERAL).reserved, units(5));
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), signatureType: 2 }), 'INVALID_ORDER_ERROR', /must be the signer's Safe/);
    });

    it('refuses duplicates by digest and by maker+salt, also after the first order was cancelled', async () => {
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), salt: 777_000 + n });
      const first = await h.orders.place(A, body);
      assert.equal(first.success, true);
      await expectCode(A, Promise.resolve(body), 'INVALID_ORDER_DUPLICATED', /Duplicated/);
      await expectCode(A, signedBody(alice, { market: m, side: 'BUY', price: 400_000n, size: units(10), salt: 777_000 + n }), 'INVALID_ORDER_DUPLICATED');
      await h.orders.cancel(A, [first.order_id!]);
      await expectCode(A, Promise.resolve(body), 'INVALID_ORDER_DUPLICATED');
    });

    it('refuses an order in the same turn as its twin (pending duplicate)', async () => {
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      const [a, b] = await Promise.all([h.orders.place(A, body), h.orders.place(A, body)]);
      assert.equal(a.success, true);
      assert.equal(b.error_code, 'INVALID_ORDER_DUPLICATED');
    });

    it('refuses orders beyond the available balance (balance − reservations) with INVALID_ORDER_NOT_ENOUGH_BALANCE', async () => {
      const avail = bal(C, COLLATERAL).available;
      const size = (avail * 2n) / 10_000n * 10_000n; // shares whose cost at 0.50 is (about) everything available
      await expectCode(C, signedBody(carol, { market: m, side: 'BUY', price: 500_000n, size: size + units(2) }), 'INVALID_ORDER_NOT_ENOUGH_BALANCE', /available/);
      const ok = await h.orders.place(C, await signedBody(carol, { market: m, side: 'BUY', price: 500_000n, size }));
      assert.equal(ok.success, true, 'the whole available amount may be reserved');
      await expectCode(C, signedBody(carol, { market: m, side: 'BUY', price: 500_000n, size: units(10) }), 'INVALID_ORDER_NOT_ENOUGH_BALANCE', /reserved by open orders/);
      await expectCode(C, signedBody(carol, { market: m, side: 'SELL', price: 500_000n, size: units(10) }), 'INVALID_ORDER_NOT_ENOUGH_BALANCE', /shares of token/);
      await h.orders.cancelAll(C);
    });

    it('refuses a crossing postOnly order', async () => {
      await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) }));
      await expectCode(B, signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(10), postOnly: true }), 'INVALID_ORDER_ERROR', /crosses book/);
      const ok = await h.orders.place(B, await signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 400_000n, size: units(10), postOnly: true }));
      assert.equal(ok.status, 'live');
    });
  });

  describe('batches', () => {
    it('refuses more than 15 or zero entries with invalid_batch_size', async () => {
      const body = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      await assert.rejects(h.orders.placeBatch(A, Array(16).fill(body)), (e: ApiError) => e.code === 'invalid_batch_size' && /at most 15 orders/.test(e.message));
      await assert.rejects(h.orders.placeBatch(A, []), (e: ApiError) => e.code === 'invalid_batch_size');
    });

    it('refuses the whole batch when any entry has another owner, before placing anything', async () => {
      const good = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      const bad = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10), owner: bob.address });
      await assert.rejects(h.orders.placeBatch(A, [good, bad]), (e: ApiError) => e.code === 'owner_address_mismatch' && /entry 1/.test(e.message));
      assert.equal(h.orders.listOpen(A, { market: m.conditionId }).count, 0);
    });

    it('places entries in order, each seeing the previous ones, with per-entry results', async () => {
      const rest = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) });
      const cross = await signedBody(alice, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(10) });
      const tooSmall = await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(1) });
      const results = await h.orders.placeBatch(A, [rest, cross, tooSmall]);
      assert.deepEqual(results.map((r) => r.status), ['live', 'matched', 'unmatched']);
      assert.equal(results[2]!.error_code, 'INVALID_ORDER_MIN_SIZE');
    });
  });

  it('commits concurrent placements in one transaction and each reply waits for it', async () => {
    const bodies = await Promise.all([
      signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) }),
      signedBody(bob, { market: m, outcome: 1, side: 'BUY', price: 500_000n, size: units(10) }),
    ]);
    const before = h.orders.pipelineStats().orderWriter;
    const [a, b] = await Promise.all([h.orders.place(A, bodies[0]!), h.orders.place(B, bodies[1]!)]);
    const after = h.orders.pipelineStats().orderWriter;
    assert.equal(after.mode, 'worker', 'a file database gets the writer thread');
    assert.equal(after.batches - before.batches, 1, 'one transaction');
    assert.equal(after.groups - before.groups, 2, 'holding both placements');
    assert.equal(a.status, 'live');
    assert.equal(b.status, 'matched', 'the second placement saw the first in memory');
    const row = h.db.prepare('SELECT status FROM orders WHERE id = ?').get(a.order_id) as { status: string };
    assert.equal(row.status, 'filled');
  });

  it('warns instead of refusing when balance enforcement is off', async () => {
    const loose = await makeHarness({ config: { enforceBalances: false } });
    try {
      const mk = loose.markets.add(makeMarket(1));
      const r = await loose.orders.place(A, await signedBody(alice, { market: mk, side: 'BUY', price: 500_000n, size: units(10) }));
      assert.equal(r.success, true);
      assert.equal(r.status, 'live');
      assert.equal(r.error_code, 'INVALID_ORDER_NOT_ENOUGH_BALANCE');
      assert.match(r.error_msg, /not enough balance/);
    } finally {
      loose.cleanup();
    }
  });

  it('stamps records with the engine clock', async () => {
    const r = await h.orders.place(A, await signedBody(alice, { market: m, side: 'BUY', price: 500_000n, size: units(10) }));
    assert.equal(h.orders.get(r.order_id!).createdAt, new Date(T0).toISOString());
  });
});
