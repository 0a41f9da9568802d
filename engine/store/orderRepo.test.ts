import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BalanceRepo, COLLATERAL } from './balanceRepo.js';
import { openDatabase } from './database.js';
import { OrderRepo } from './orderRepo.js';
import { SAMPLE_BIG, sampleOrderRow } from '../testkit/orderRowKit.js';
import { TradeRepo, type TradeRow } from './tradeRepo.js';
import { WriteBatcher } from './writeBatcher.js';

const dir = mkdtempSync(join(tmpdir(), 'order-repo-'));
const file = join(dir, 'exchange.sqlite');
after(() => rmSync(dir, { recursive: true, force: true }));

const BIG = SAMPLE_BIG;
const order = sampleOrderRow;

describe('order store', () => {
  it('round-trips an order with big integers exactly and lists every order’s duplicate keys with its id', () => {
    const db = openDatabase(file);
    const repo = new OrderRepo(db);
    const o = order('01HZZZZZZZZZZZZZZZZZZZZZZA');
    repo.insert(o);
    assert.deepEqual(repo.get(o.id), o);
    const keys: string[][] = [];
    repo.forEachDuplicateKey((id, digest, maker, salt) => keys.push([id, digest, maker, salt]));
    assert.deepEqual(keys, [[o.id, o.digest, o.maker, o.salt]]);
    assert.throws(() => repo.insert({ ...o, digest: '0xdifferent' }), /UNIQUE/, 'the id stays the primary key');
    repo.updateFill(o.id, 5n, 'partially_filled', 7n, 1_700_000_000_500);
    const live = repo.live();
    assert.equal(live.length, 1);
    assert.equal(live[0]!.sizeMatched, 5n);
    assert.equal(live[0]!.reserved, 7n);
    repo.cancel(o.id, 'cancelled by owner', 1_700_000_000_600);
    assert.equal(repo.live().length, 0);
    assert.equal(repo.get(o.id)!.status, 'cancelled');
    assert.equal(repo.get(o.id)!.reserved, 0n);
    db.close();
  });

  it('keeps committed rows across a reopen and group-commits a turn’s writes in one transaction', async () => {
    let db = openDatabase(file);
    const writes = new WriteBatcher(db);
    const orders = new OrderRepo(db);
    const trades = new TradeRepo(db);
    const balances = new BalanceRepo(db);
    const a = order('01HZZZZZZZZZZZZZZZZZZZZZZC', { digest: '0xc', salt: 'c' });
    const b = order('01HZZZZZZZZZZZZZZZZZZZZZZD', { digest: '0xd', salt: 'd', createdAt: 1_700_000_000_001 });
    const trade: TradeRow = {
      id: '01HZZZZZZZZZZZZZZZZZZZZZZT',
      matchTime: 1_700_000_000_002,
      conditionId: a.conditionId,
      takerOrderId: b.id,
      makerOrderId: a.id,
      takerAssetId: a.tokenId,
      makerAssetId: a.tokenId,
      takerOutcomeIndex: 0,
      makerOutcomeIndex: 0,
      takerAddress: b.maker,
      makerAddress: a.maker,
      takerOwner: b.owner,
      makerOwner: a.owner,
      takerSide: 'SELL',
      makerSide: 'BUY',
      price: 520_000n,
      makerPrice: 520_000n,
      size: 10_000_000n,
      kind: 'NORMAL',
      takerFeeRateBps: '0',
      makerFeeRateBps: '0',
      fee: 0n,
      makerRebate: 0n,
      transactionHash: '0x' + 'ee'.repeat(32),
    };
    const tx0 = writes.stats.transactions;
    await Promise.all([
      writes.commit(() => orders.insert(a)),
      writes.commit(() => orders.insert(b)),
      writes.commit(() => trades.insert(trade)),
      writes.commit(() => balances.apply({ time: 1, address: a.maker, asset: COLLATERAL, delta: BIG, kind: 'credit', reason: 'faucet' })),
      writes.commit(() => balances.apply({ time: 2, address: a.maker, asset: COLLATERAL, delta: -1n, kind: 'trade' })),
    ]);
    assert.equal(writes.stats.transactions - tx0, 1);
    writes.close();
    db.close();

    db = openDatabase(file);
    const orders2 = new OrderRepo(db);
    const trades2 = new TradeRepo(db);
    const balances2 = new BalanceRepo(db);
    assert.deepEqual(orders2.get(b.id), b);
    assert.deepEqual(orders2.live().map((o) => o.id), [a.id, b.id], 'placement order');
    assert.deepEqual(trades2.idsForOrder(a.id), [trade.id]);
    assert.deepEqual(trades2.list({ owner: a.owner }, 10, 0).rows, [trade]);
    assert.equal(trades2.list({ assetId: '1' }, 10, 0).total, 0);
    assert.equal(balances2.get(a.maker, COLLATERAL), BIG - 1n);
    assert.deepEqual(balances2.ledger(a.maker).map((e) => e.delta), [BIG, -1n]);
    const page = orders2.listLive({ owner: a.owner, conditionId: a.conditionId }, 1, 1);
    assert.equal(page.total, 2);
    assert.deepEqual(page.rows.map((o) => o.id), [b.id]);
    db.close();
  });
});
