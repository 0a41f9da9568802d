// The book's "no node:*" purity rule is for production code; tests need the test runner and assert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdIndex } from './idIndex.js';
import { createSeededRandom } from './seededRandom.js';

/** Checks every key of `model` is found with its value and the sizes agree. */
function assertSame(index: IdIndex<number>, model: Map<string, number>, at: string): void {
  assert.equal(index.size, model.size, `${at}: size`);
  for (const [k, v] of model) assert.equal(index.get(k), v, `${at}: get ${k}`);
}

test('IdIndex behaves like a Map over 200,000 random sets, deletes and lookups, while it grows and shrinks', () => {
  const rnd = createSeededRandom(99);
  const index = new IdIndex<number>();
  const model = new Map<string, number>();
  const keys: string[] = [];
  let maxSize = 0;
  for (let op = 0; op < 200_000; op++) {
    // Phases: fill up to ~20,000 keys, then drain to a handful, so both growth and shrinking happen.
    const filling = Math.floor(op / 50_000) % 2 === 0;
    const roll = rnd.next();
    if (roll < (filling ? 0.6 : 0.25)) {
      const key = rnd.next() < 0.9 || keys.length === 0 ? `01JD${op.toString(32).toUpperCase().padStart(8, '0')}X${rnd.int(0, 1e9)}` : keys[rnd.int(0, keys.length - 1)]!;
      index.set(key, op);
      model.set(key, op);
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

test('IdIndex finds keys whose hashes collide and whose probe runs wrap around the table end', () => {
  const index = new IdIndex<number>();
  // Ids that differ only before their last 16 characters hash alike (only the tail is hashed): every one
  // collides, so lookups, deletions from the middle of a run and re-insertions must compare keys in full.
  const tail = 'ABCDEFGHJKMNPQRS';
  const ids = Array.from({ length: 40 }, (_, i) => `${i}-${tail}`);
  ids.forEach((id, i) => index.set(id, i));
  ids.forEach((id, i) => assert.equal(index.get(id), i));
  for (let i = 0; i < ids.length; i += 3) assert.equal(index.delete(ids[i]!), true);
  ids.forEach((id, i) => assert.equal(index.get(id), i % 3 === 0 ? undefined : i, id));
  for (let i = 0; i < ids.length; i += 3) index.set(ids[i]!, -i);
  ids.forEach((id, i) => assert.equal(index.get(id), i % 3 === 0 ? -i : i, id));
  assert.equal(index.size, ids.length);
});

test('IdIndex set overwrites an existing key, delete reports whether a key was there, size follows', () => {
  const index = new IdIndex<string>();
  assert.equal(index.get('a'), undefined);
  assert.equal(index.delete('a'), false);
  index.set('a', 'one').set('b', 'two');
  index.set('a', 'uno');
  assert.equal(index.size, 2);
  assert.equal(index.get('a'), 'uno');
  assert.equal(index.delete('a'), true);
  assert.equal(index.has('a'), false);
  assert.equal(index.size, 1);
  // The empty string and long ids are ordinary keys.
  const long = 'x'.repeat(200);
  index.set('', 'empty').set(long, 'long');
  assert.equal(index.get(''), 'empty');
  assert.equal(index.get(long), 'long');
  assert.equal(index.get('x'.repeat(199) + 'y'), undefined);
});

test('an empty slot found by a lookup is reused only while no entry moved since', () => {
  const index = new IdIndex<number>();
  index.set('keep', 1);
  index.set('gone', 2);
  const missed = index.find('new', IdIndex.hashOf('new'));
  assert.ok(missed < 0);
  const version = index.version;
  index.delete('gone'); // entries may shift: the slot found above is no longer trustworthy
  index.insertAt(missed, version, 'new', IdIndex.hashOf('new'), 3);
  assert.equal(index.get('new'), 3);
  assert.equal(index.get('keep'), 1);
  assert.equal(index.size, 2);
});
