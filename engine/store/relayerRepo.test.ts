import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from './database.js';
import { RelayerRepo, type RelayerTxRow } from './relayerRepo.js';
import { WriteBatcher } from './writeBatcher.js';

const dir = mkdtempSync(join(tmpdir(), 'relayer-repo-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function row(id: string, over: Partial<RelayerTxRow> = {}): RelayerTxRow {
  return {
    id,
    type: 'SAFE',
    state: 'STATE_NEW',
    owner: '0xaaaa000000000000000000000000000000000001',
    from: '0xaaaa000000000000000000000000000000000001',
    to: '0xbbbb000000000000000000000000000000000002',
    proxyAddress: '0xcccc000000000000000000000000000000000003',
    data: '0x',
    nonce: '0',
    value: '',
    signature: '0x' + '11'.repeat(65),
    metadata: '',
    txHash: '',
    errorMsg: '',
    sender: 'relay',
    outerTo: '0xcccc000000000000000000000000000000000003',
    outerData: '0x6a761202',
    outerValue: '0',
    outerGas: '100000',
    rawTx: null,
    blockNumber: null,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...over,
  };
}

describe('RelayerRepo', () => {
  it('keeps a committed transaction across a reopen of the database file', async () => {
    const file = join(dir, 'a.sqlite');
    const db = openDatabase(file);
    const writes = new WriteBatcher(db);
    const repo = new RelayerRepo(db);
    await writes.commit(() => repo.insert(row('t1')));
    await writes.commit(() => repo.setSigned('t1', '0xf86c', 1_700_000_000_500));
    await writes.commit(() => repo.setState('t1', 'STATE_EXECUTED', 1_700_000_000_600, { txHash: '0x' + 'ab'.repeat(32) }));
    writes.close();
    db.close();

    const db2 = openDatabase(file);
    const repo2 = new RelayerRepo(db2);
    const t = repo2.get('t1');
    assert.ok(t);
    assert.equal(t.state, 'STATE_EXECUTED');
    assert.equal(t.rawTx, '0xf86c');
    assert.equal(t.txHash, '0x' + 'ab'.repeat(32));
    assert.equal(t.updatedAt, 1_700_000_000_600);
    assert.deepEqual(repo2.listOpen().map((r) => r.id), ['t1']);
    db2.close();
  });

  it('lists only non-terminal transactions as open, oldest first', async () => {
    const db = openDatabase(join(dir, 'b.sqlite'));
    const writes = new WriteBatcher(db);
    const repo = new RelayerRepo(db);
    await writes.commit(() => {
      repo.insert(row('n1'));
      repo.insert(row('n2', { state: 'STATE_MINED' }));
      repo.insert(row('n3', { state: 'STATE_CONFIRMED' }));
      repo.insert(row('n4', { state: 'STATE_FAILED', errorMsg: 'boom' }));
      repo.insert(row('n5', { state: 'STATE_INVALID' }));
    });
    assert.deepEqual(repo.listOpen().map((r) => r.id), ['n1', 'n2']);
    assert.deepEqual(repo.listOpenForWallet('0xCCCC000000000000000000000000000000000003', 'SAFE').map((r) => r.id), ['n1', 'n2']);
    assert.deepEqual(repo.listOpenForWallet('0xcccc000000000000000000000000000000000003', 'PROXY'), []);
    writes.close();
    db.close();
  });

  it('lists an owner’s transactions newest first and records failure details', async () => {
    const db = openDatabase(join(dir, 'c.sqlite'));
    const writes = new WriteBatcher(db);
    const repo = new RelayerRepo(db);
    await writes.commit(() => {
      repo.insert(row('o1'));
      repo.insert(row('o2'));
      repo.insert(row('x1', { owner: '0xdddd000000000000000000000000000000000004' }));
    });
    await writes.commit(() => repo.setState('o1', 'STATE_FAILED', 5, { errorMsg: 'execution reverted: GS026', blockNumber: 7 }));
    assert.deepEqual(repo.listByOwner('0xAAAA000000000000000000000000000000000001').map((r) => r.id), ['o2', 'o1']);
    const o1 = repo.get('o1')!;
    assert.equal(o1.errorMsg, 'execution reverted: GS026');
    assert.equal(o1.blockNumber, 7);
    assert.equal(repo.get('nope'), undefined);
    writes.close();
    db.close();
  });
});
