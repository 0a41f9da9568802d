import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUlid, normalizeUlid, ulidTime, UlidFactory } from './ulid.js';

describe('ulid', () => {
  it('encodes the millisecond time in the first 10 characters (spec example time)', () => {
    const id = new UlidFactory().next(1469918176385);
    assert.equal(id.slice(0, 10), '01ARYZ6S41');
    assert.equal(ulidTime(id), 1469918176385);
    assert.ok(isUlid(id));
  });

  it('stays strictly increasing within one millisecond and when the clock steps back', () => {
    const f = new UlidFactory();
    const ids = [f.next(1000), f.next(1000), f.next(1000), f.next(999), f.next(1001)];
    const sorted = [...ids].sort();
    assert.deepEqual(ids, sorted);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('accepts ids in any case and rejects non-ULIDs', () => {
    const id = new UlidFactory().next(Date.UTC(2030, 0, 1));
    assert.ok(isUlid(normalizeUlid(id.toLowerCase())));
    assert.ok(!isUlid('01ARZ3NDEKTSV4RRFFQ69G5FAU!'));
    assert.ok(!isUlid('81ARZ3NDEKTSV4RRFFQ69G5FAV'), 'time part overflows 48 bits');
  });
});
