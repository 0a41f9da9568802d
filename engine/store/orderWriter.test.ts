import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { COLLATERAL } from './balanceRepo.js';
import { openDatabase, type Db } from './database.js';
import { OrderRepo } from './orderRepo.js';
import { sampleOrderRow } from '../testkit/orderRowKit.js';
import { OrderWriter } from './orderWriter.js';
import type { OrderWrite } from './orderWrites.js';
import { WriteBatcher } from './writeBatcher.js';

const ID = (n: number) => '01J0000000000000000000' + String(n).padStart(4, '0');
const insert = (n: number): OrderWrite => ({ kind: 'order', row: sampleOrderRow(ID(n), { digest: '0x' + n.toString(16), salt: String(n) }) });

describe('OrderWriter', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let writes: WriteBatcher;
  let writer: OrderWriter;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'order-writer-'));
    file = join(dir, 'exchange.sqlite');
    db = openDatabase(file);
    writes = new WriteBatcher(db);
    writer = new OrderWriter(db, writes);
  });

  afterEach(() => {
    writer.close();
    writes.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What another connection (a restarted engine) sees in the file. */
  function fromFile<T>(read: (d: Database.Database) => T): T {
    const other = new Database(file, { readonly: true });
    try {
      return read(other);
    } finally {
      other.close();
    }
  }

  it('commits a group on its writer thread, durable in the file before the promise resolves', async () => {
    assert.equal(writer.mode, 'worker');
    await writer.submit([insert(1), { kind: 'ledger', entry: { time: 1, address: '0xaa', asset: COLLATERAL, delta: 5_000_000n, kind: 'credit', reason: 'test' } }]);
    assert.equal(fromFile((d) => d.prepare('SELECT COUNT(*) FROM orders').pluck().get()), 1);
    assert.equal(fromFile((d) => d.prepare('SELECT amount FROM balances WHERE address = ?').safeIntegers(true).pluck().get('0xaa')), 5_000_000n);
    assert.equal(new OrderRepo(db).get(ID(1))?.originalSize, sampleOrderRow(ID(1)).originalSize, 'the main connection reads it, bigints exact');
  });

  it('sends the groups of one turn as one batch, and groups submitted meanwhile as the next', async () => {
    const first = Array.from({ length: 20 }, (_, i) => writer.submit([insert(i + 1)]));
    await Promise.all(first);
    assert.equal(writer.stats.batches, 1);
    assert.equal(writer.stats.groups, 20);
    const a = writer.submit([insert(100)]);
    await new Promise<void>((r) => setImmediate(r));
    // The batch with 100 is out; these wait and go together.
    const rest = Array.from({ length: 10 }, (_, i) => writer.submit([insert(200 + i)]));
    await Promise.all([a, ...rest]);
    assert.equal(writer.stats.batches, 3);
    assert.equal(fromFile((d) => d.prepare('SELECT COUNT(*) FROM orders').pluck().get()), 31);
  });

  it('fails only the group that cannot be stored; the rest of its batch is committed', async () => {
    await writer.submit([insert(1)]);
    const results = await Promise.allSettled([writer.submit([insert(2)]), writer.submit([insert(3), insert(1)]), writer.submit([insert(4)])]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE|PRIMARY KEY/);
    // The failed group is atomic: its first insert (3) is not there either.
    assert.deepEqual(fromFile((d) => d.prepare('SELECT id FROM orders ORDER BY id').pluck().all()), [ID(1), ID(2), ID(4)]);
  });

  it('applies writes in submission order: an insert, its fill and its cancel end as one cancelled row', async () => {
    const groups: Array<Promise<void>> = [
      writer.submit([insert(7)]),
      writer.submit([{ kind: 'fill', id: ID(7), sizeMatched: 3n, status: 'partially_filled', reserved: 9n, at: 5 }]),
      writer.submit([{ kind: 'cancel', id: ID(7), reason: 'cancelled by owner', at: 6 }]),
    ];
    await Promise.all(groups);
    const row = new OrderRepo(db).get(ID(7))!;
    assert.equal(row.status, 'cancelled');
    assert.equal(row.sizeMatched, 3n);
    assert.equal(row.reserved, 0n);
    assert.equal(row.updatedAt, 6);
  });

  it('commits what is still queued when closed, synchronously, and refuses writes afterwards', async () => {
    const settled: string[] = [];
    const p = writer.submit([insert(1)]).then(() => settled.push('1'));
    const q = writer.submit([insert(2)]).then(() => settled.push('2'));
    writer.close();
    assert.equal(fromFile((d) => d.prepare('SELECT COUNT(*) FROM orders').pluck().get()), 2);
    await Promise.all([p, q]);
    assert.deepEqual(settled, ['1', '2']);
    await assert.rejects(writer.submit([insert(3)]), /closed/);
  });

  it('writes inline through the main connection when the database is in memory', async () => {
    const mem = openDatabase(':memory:');
    const memWrites = new WriteBatcher(mem);
    const inline = new OrderWriter(mem, memWrites);
    try {
      assert.equal(inline.mode, 'inline');
      await inline.submit([insert(1)]);
      assert.equal(new OrderRepo(mem).get(ID(1))?.id, ID(1));
      assert.equal(inline.stats.inline, 1);
    } finally {
      inline.close();
      memWrites.close();
      mem.close();
    }
  });
});
