// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SlotIndex } from './slotIndex.js';
import { createSeededRandom } from './seededRandom.js';

/**
 * The index stores no keys: an entry for slot s is found by comparing with ids[s]. These tests play the
 * book's part: every key gets a slot in an id array, and the index maps live keys to their slots.
 */
function keyed(): { ids: string[]; index: SlotIndex; slotOf(key: string): number } {
  const ids: string[] = [];
  const slots = new Map<string, number>();
  const slotOf = (key: string) => {
    let s = slots.get(key);
    if (s === undefined) {
      s = ids.length;
      ids.push(key);
      slots.set(key, s);
    }
    return s;
  };
  return { ids, index: new SlotIndex(ids), slotOf };
}

function assertSame(index: SlotIndex, model: Map<string, number>, at: string): void {
  assert.equal(index.size, model.size, `${at}: size`);
  for (const [k, v] of model) assert.equal(index.get(k), v, `${at}: get ${k}`);
}

test('SlotIndex behaves like a Map over 200,000 random sets, deletes and lookups, while it grows and shrinks', () => {
  const rnd = createSeededRandom(99);
  const { index, slotOf } = keyed();
  const model = new Map<string, number>();
  const keys: string[] = [];
  let maxSize = 0;
  for (let op = 0; op < 200_000; op++) {
    // Phases: fill up to ~20,000 keys, then drain to a handful, so both growth and shrinking happen.
    const filling = Math.floor(op / 50_000) % 2 === 0;
    const roll = rnd.next();
    if (roll < (filling ? 0.6 : 0.25)) {
      const key = rnd.next() < 0.9 || keys.length === 0 ? `01JD${op.toString(32).toUpperCase().padStart(8, '0')}X${rnd.int(0, 1e9)}` : keys[rnd.int(0, keys.length - 1)]!;
      index.set(key, slotOf(key));
      model.set(key, slotOf(key));
      keys.push(key);
    } else if (roll < 0.9) {
      const key = keys.length > 0 && rnd.next() < 0.9 ? keys[rnd.int(0, keys.length - 1)]! : `missing-${op}`;
      assert.equal(index.delete(key), model.delete(key), `op ${op}: delete ${key}`);
    } else {
      const key = keys.length > 0 ? keys[rnd.int(0, keys.length - 1)]! : 'none';
      assert.equal(index.get(key), model.get(key), `op ${op}: get ${key}`);
      assert.equal(index.has(key), model.has(key), `op ${op}: has ${key}`);
    }
    if (keys.length > 40_000) keys.splice(0, 20_000);
    maxSize = Math.max(maxSize, model.size);
    if (op % 10_000 === 0) assertSame(index, model, `op ${op}`);
  }
  assertSame(index, model, 'end');
  assert.ok(maxSize > 5_000, `largest size ${maxSize}`);
});

test('SlotIndex finds keys whose hashes collide and whose probe runs wrap around the table end', () => {
  const { index, slotOf } = keyed();
  // Ids that differ only before their last 16 characters hash alike (only the tail is hashed): every one
  // collides, so lookups, deletions from the middle of a run and re-insertions must compare keys in full.
  const tail = 'ABCDEFGHJKMNPQRS';
  const ids = Array.from({ length: 40 }, (_, i) => `${i}-${tail}`);
  ids.forEach((id) => index.set(id, slotOf(id)));
  ids.forEach((id) => assert.equal(index.get(id), slotOf(id)));
  for (let i = 0; i < ids.length; i += 3) assert.equal(index.delete(ids[i]!), true);
  ids.forEach((id, i) => assert.equal(index.get(id), i % 3 === 0 ? undefined : slotOf(id), id));
  for (let i = 0; i < ids.length; i += 3) index.set(ids[i]!, slotOf(ids[i]!));
  ids.forEach((id) => assert.equal(index.get(id), slotOf(id), id));
  assert.equal(index.size, ids.length);
});

test('SlotIndex compares keys through the id array: an entry follows its slot, and a key whose slot holds another id is not found', () => {
  const { ids, index, slotOf } = keyed();
  assert.equal(index.get('a'), undefined);
  assert.equal(index.delete('a'), false);
  index.set('a', slotOf('a')).set('b', slotOf('b'));
  assert.equal(index.size, 2);
  ids[slotOf('a')] = 'a2'; // the owner reused the slot for another id without telling the index
  assert.equal(index.get('a'), undefined);
  ids[slotOf('a')] = 'a';
  assert.equal(index.get('a'), 0);
  // The empty string and long ids are ordinary keys.
  const long = 'x'.repeat(200);
  index.set('', slotOf('')).set(long, slotOf(long));
  assert.equal(index.get(''), slotOf(''));
  assert.equal(index.get(long), slotOf(long));
  assert.equal(index.get('x'.repeat(199) + 'y'), undefined);
  // Moving entries to new slots, as the book's repack does: found through the old array, then the new one takes over.
  const moved = ['b', '', long, 'a'];
  for (const [i, key] of moved.entries()) index.setValueAt(index.find(key, SlotIndex.hashOf(key)), i);
  index.ids = moved;
  assert.deepEqual(moved.map((k) => index.get(k)), [0, 1, 2, 3]);
});

test('an empty position found by a lookup is reused only while no entry moved since', () => {
  const { index, slotOf } = keyed();
  index.set('keep', slotOf('keep'));
  index.set('gone', slotOf('gone'));
  slotOf('new');
  const missed = index.find('new', SlotIndex.hashOf('new'));
  assert.ok(missed < 0);
  const version = index.version;
  index.delete('gone'); // entries may shift: the position found above is no longer trustworthy
  index.insertAt(missed, version, SlotIndex.hashOf('new'), slotOf('new'));
  assert.equal(index.get('new'), slotOf('new'));
  assert.equal(index.get('keep'), slotOf('keep'));
  assert.equal(index.size, 2);
});
