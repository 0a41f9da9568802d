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

  it('spells a seeded random part exactly as 16 base32 characters of its 80 bits, carrying across the halves within one millisecond', () => {
    // The reference spelling: the 80-bit value, five bits a character, most significant first.
    const spell = (v: bigint): string => {
      let out = '';
      for (let i = 15; i >= 0; i--) out += '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Number((v >> BigInt(5 * i)) & 31n)];
      return out;
    };
    const draws = [(1n << 40n) - 2n, 0xfedcba9876543210abcdn, (1n << 80n) - 1n];
    const f = new UlidFactory(() => draws.shift()!);
    const t = Date.UTC(2030, 0, 1);
    assert.equal(f.next(t).slice(10), spell((1n << 40n) - 2n));
    assert.equal(f.next(t).slice(10), spell((1n << 40n) - 1n));
    assert.equal(f.next(t).slice(10), spell(1n << 40n), 'the low half carries into the high half');
    assert.equal(f.next(t + 1).slice(10), spell(0xfedcba9876543210abcdn));
    assert.equal(f.next(t + 2).slice(10), spell((1n << 80n) - 1n));
    assert.throws(() => f.next(t + 2), RangeError, 'the random part is exhausted within that millisecond');
  });

  it('draws a fresh random part for each new millisecond (no two factories agree)', () => {
    const a = new UlidFactory();
    const b = new UlidFactory();
    const t = Date.UTC(2030, 0, 1);
    const ids = Array.from({ length: 200 }, (_, i) => [a.next(t + i), b.next(t + i)]).flat();
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every(isUlid));
  });

  it('accepts ids in any case and rejects non-ULIDs', () => {
    const id = new UlidFactory().next(Date.UTC(2030, 0, 1));
    assert.ok(isUlid(normalizeUlid(id.toLowerCase())));
    assert.ok(!isUlid('01ARZ3NDEKTSV4RRFFQ69G5FAU!'));
    assert.ok(!isUlid('81ARZ3NDEKTSV4RRFFQ69G5FAV'), 'time part overflows 48 bits');
  });
});
