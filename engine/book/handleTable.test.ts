// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLE_STRIDE, HandleTable, handleIndex } from './handleTable.js';
import { createSeededRandom } from './seededRandom.js';

/** Issues a handle for `slot` the way the book does (index, then its handle). */
function issue(table: HandleTable, slot: number): number {
  return table.handleAt(table.issue(slot));
}

function release(table: HandleTable, handle: number): void {
  const i = table.indexOf(handle);
  assert.ok(i >= 0, `handle ${handle} is live`);
  table.releaseIndex(i);
}

test('a handle finds its slot while live and nothing once released, even after its index serves another order', () => {
  const t = new HandleTable();
  const a = issue(t, 10);
  const b = issue(t, 11);
  assert.deepEqual([t.slotOf(a), t.slotOf(b), t.size], [10, 11, 2]);
  release(t, a);
  assert.equal(t.slotOf(a), -1);
  const c = issue(t, 12); // reuses a's index (last in, first out) under the next generation
  assert.equal(handleIndex(c), handleIndex(a));
  assert.notEqual(c, a);
  assert.equal(t.slotOf(a), -1, 'the stale handle does not name the new order');
  assert.equal(t.indexOf(a), -1);
  assert.equal(t.slotOf(c), 12);
  assert.equal(c, HANDLE_STRIDE + handleIndex(a), 'generation × stride + index');
  t.moveIndex(handleIndex(c), 99);
  assert.equal(t.slotOf(c), 99, 'a moved order keeps its handle');
});

test('non-handles are refused: negative, fractional, NaN, infinite, non-numbers, never-issued indices and generations', () => {
  const t = new HandleTable();
  const h = issue(t, 0);
  for (const x of [-1, 0.5, h + 0.5, Number.NaN, Infinity, -Infinity, 2 ** 60, h + 1, HANDLE_STRIDE + h, '0', null, undefined, [0]]) {
    assert.equal(t.slotOf(x as number), -1, `slotOf ${String(x)}`);
  }
  assert.equal(t.slotOf(h), 0);
});

test('HandleTable agrees with a Map model over 300,000 random issues and releases while it grows, drains and trims', () => {
  const rnd = createSeededRandom(17);
  const t = new HandleTable();
  const live = new Map<number, number>(); // handle → slot
  const liveList: number[] = [];
  const dead: number[] = [];
  const everIssued = new Set<number>();
  let maxCapacity = 0;
  let minCapacityAfterPeak = Infinity;
  for (let op = 0; op < 300_000; op++) {
    // Phases: fill up to ~30,000 live handles, then drain to a handful, so growth and trimming both happen.
    const filling = Math.floor(op / 75_000) % 2 === 0;
    const roll = rnd.next();
    if (liveList.length === 0 || roll < (filling ? 0.6 : 0.05)) {
      const slot = rnd.int(0, 1_000_000);
      const h = issue(t, slot);
      assert.ok(Number.isSafeInteger(h) && h >= 0, `handle ${h}`);
      assert.ok(!everIssued.has(h), `handle ${h} issued twice`);
      everIssued.add(h);
      live.set(h, slot);
      liveList.push(h);
    } else if (roll < 0.9) {
      const k = rnd.int(0, liveList.length - 1);
      const h = liveList[k]!;
      liveList[k] = liveList[liveList.length - 1]!;
      liveList.pop();
      release(t, h);
      live.delete(h);
      dead.push(h);
    } else {
      // Stale handles never come back to life.
      const h = dead.length > 0 ? dead[rnd.int(0, dead.length - 1)]! : -1;
      assert.equal(t.slotOf(h), -1, `stale ${h}`);
    }
    assert.equal(t.size, live.size);
    maxCapacity = Math.max(maxCapacity, t.capacity);
    if (op > 75_000 && op < 150_000) minCapacityAfterPeak = Math.min(minCapacityAfterPeak, t.capacity);
    if (op % 1_000 === 0) {
      for (const [h, slot] of live) assert.equal(t.slotOf(h), slot, `op ${op}: live ${h}`);
      for (const h of dead.slice(-200)) assert.equal(t.slotOf(h), -1, `op ${op}: dead ${h}`);
      const free = t.freeIndices();
      assert.equal(new Set(free).size, free.length, 'free list without repeats');
      assert.equal(free.length + t.size, t.indexCount, 'every index live or free');
    }
  }
  assert.ok(maxCapacity >= 32_768, `grew to ${maxCapacity}`);
  assert.ok(minCapacityAfterPeak <= maxCapacity / 4, `trimmed to ${minCapacityAfterPeak} after a peak of ${maxCapacity}`);
  for (const h of dead) assert.equal(t.slotOf(h), -1, `dead ${h}`);
});

test('an index whose generations run out is retired, and indices trimmed away never bring back an old handle', () => {
  const t = new HandleTable(3); // generations 0 … 3
  const seen: number[] = [];
  for (let g = 0; g <= 3; g++) {
    const h = issue(t, g);
    seen.push(h);
    release(t, h);
  }
  assert.deepEqual(seen.map(handleIndex), [0, 0, 0, 0]);
  assert.ok(t.isRetired(0), 'index 0 retired after its last generation');
  const next = issue(t, 7);
  assert.equal(handleIndex(next), 1, 'a retired index is not reused');
  for (const h of seen) assert.equal(t.slotOf(h), -1);

  // Trimming: a flood of 5,000 then a full drain; indices dropped by the trim restart above every
  // generation they reached, so none of the flood's handles ever names a later order.
  const big = new HandleTable();
  const flood: number[] = [];
  for (let i = 0; i < 5_000; i++) flood.push(issue(big, i));
  for (const h of flood.slice(0, 2_500)) {
    release(big, h);
    const again = issue(big, 1);
    flood.push(again);
    release(big, again);
  }
  for (const h of flood.slice(2_500, 5_000)) release(big, h);
  for (let i = 0; i < 10_000; i++) release(big, issue(big, 2)); // keeps releasing, so trims get their turn
  assert.equal(big.size, 0);
  assert.ok(big.capacity < 4_096, `trimmed to ${big.capacity}`);
  const fresh = new Set<number>();
  for (let i = 0; i < 6_000; i++) fresh.add(issue(big, i));
  for (const h of flood) assert.ok(!fresh.has(h) && big.slotOf(h) === -1, `old handle ${h} stays dead`);
});
