import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedQueue } from './keyedQueue.js';
import { transactionId } from './transactionId.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KeyedQueue', () => {
  it('runs tasks of one key strictly one after another in arrival order', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([q.run('w', task('a', 20)), q.run('w', task('b', 1)), q.run('w', task('c', 1))]);
    assert.deepEqual(results, ['a', 'b', 'c']);
    assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets different keys run concurrently', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    await Promise.all([
      q.run('x', async () => { log.push('x1'); await sleep(20); log.push('x2'); }),
      q.run('y', async () => { log.push('y1'); await sleep(1); log.push('y2'); }),
    ]);
    assert.deepEqual(log, ['x1', 'y1', 'y2', 'x2']);
  });

  it('keeps going after a task fails, and reports the failure to its caller only', async () => {
    const q = new KeyedQueue();
    const failed = q.run('k', async () => { throw new Error('boom'); });
    const ok = q.run('k', async () => 42);
    await assert.rejects(failed, /boom/);
    assert.equal(await ok, 42);
    await sleep(1);
    assert.equal(q.activeKeys, 0);
  });
});

describe('transactionId', () => {
  it('is a UUIDv7 whose leading 48 bits are the creation millisecond', () => {
    const id = transactionId(0x0190b317a1d3);
    assert.match(id, /^0190b317-a1d3-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(transactionId(1), transactionId(1));
  });
});
