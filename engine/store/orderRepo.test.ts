import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BalanceRepo, COLLATERAL } from './balanceRepo.js';
import { openDatabase } from './database.js';
import { OrderRepo, type OrderRow } from './orderRepo.js';
import { TradeRepo, type TradeRow } from './tradeRepo.js';
import { WriteBatcher } from './writeBatcher.js';

const dir = mkdtempSync(join(tmpdir(), 'order-repo-'));
const file = join(dir, 'exchange.sqlite');
after(() => rmSync(dir, { recursive: true, force: true }));

const BIG = 9_007_199_254_740_991n; // 2^53 − 1: must come back exact, never as a float

function order(id: string, over: Partial<OrderRow> = {}): OrderRow {
  return {
    id,
    digest: '0x' + id.toLowerCase().padStart(64, '0'),
    maker: '0x' + '11'.repeat(20),
    signer: '0x' + '11'.repeat(20),
    owner: '0x' + '11'.repeat(20),
    conditionId: '0x' + 'ab'.repeat(32),
    tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
    outcomeIndex: 0,
    side: 'BUY',
    price: 520_000n,
    originalSize: BIG,
    sizeMatched: 0n,
    makerAmount: 2n ** 200n,
    takerAmount: 10_000_000n,
    salt: '123456789012345678901234567890',
    nonce: '0',
    feeRateBps: '0',
    signatureType: 0,
    signature: '0x' + '00'.repeat(65),
    orderType: 'GTC',
    expiration: 0,
    status: 'open',
    reserved: BIG - 1n,
    cancelReason: null,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...over,
  };
}

describe('order store', () => {
  it('round-trips an order with big integers exactly and finds duplicates by digest or maker+salt', () => {
    const db = openDatabase(file);
    const repo = new OrderRepo(db);
    const o = order('01HZZZZZZZZZZZZZZZZZZZZZZA');
    repo.insert(o);
    assert.deepEqual(repo.get(o.id), o);
    assert.equal(repo.findDuplicate(o.digest, '0xother', 'x'), o.id);
    assert.equal(repo.findDuplicate('0xother', o.maker, o.salt), o.id);
    assert.equal(repo.findDuplicate('0xother', o.maker, 'other'), undefined);
    assert.throws(() => repo.insert({ ...o, id: '01HZZZZZZZZZZZZZZZZZZZZZZB', digest: '0xdifferent' }), /UNIQUE/);
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
