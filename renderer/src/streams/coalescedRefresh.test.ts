import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoalescedRefresh } from './coalescedRefresh.js';

describe('CoalescedRefresh', () => {
  it('refetches the first key at once and a burst of events once per key at the end of the window', async () => {
    const runs: string[][] = [];
    const r = new CoalescedRefresh(60, (keys) => runs.push(keys.map((k) => k.join('/'))));
    r.add(['trades']);
    assert.deepEqual(runs, [['trades']], 'after a quiet window: at once');
    for (let i = 0; i < 300; i++) {
      r.add(['trades']);
      r.add(['balance']);
    }
    assert.equal(runs.length, 1, 'nothing more inside the window');
    await new Promise((res) => setTimeout(res, 120));
    assert.deepEqual(runs, [['trades'], ['trades', 'balance']], '300 fills: one refetch of each list');
  });

  it('drops what is pending when cancelled (the stream closed)', async () => {
    const runs: number[] = [];
    const r = new CoalescedRefresh(40, (keys) => runs.push(keys.length));
    r.add(['a']);
    r.add(['b']);
    r.cancel();
    await new Promise((res) => setTimeout(res, 80));
    assert.deepEqual(runs, [1]);
  });
});
