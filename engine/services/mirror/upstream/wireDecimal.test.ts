import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../../../book/seededRandom.js';
import { FLOOR, microOf, microOfGrammar } from './wireDecimal.js';

describe('upstream decimals', () => {
  it('reads decimal text to micro-units: trailing zeros are the same number, beyond 6 decimals floored on request or refused', () => {
    assert.equal(microOf('0.43'), 430_000);
    assert.equal(microOf('0.430'), 430_000);
    assert.equal(microOf('5'), 5_000_000);
    assert.equal(microOf('2260866.89'), 2_260_866_890_000);
    assert.equal(microOf('0.1234567'), undefined);
    assert.equal(microOf('0.1234567', FLOOR), 123_456);
    assert.equal(microOf('0.1234560'), 123_456, 'zeros beyond the sixth decimal say nothing more');
    assert.equal(microOf('9007199254.740991'), Number.MAX_SAFE_INTEGER);
    assert.equal(microOf('9007199254.740992'), undefined, 'beyond a safe integer');
    for (const bad of ['', '.5', '5.', '-1', '+1', '1e5', ' 1', '1 ', '0x10', '1.2.3', '١', '12345678901234567']) assert.equal(microOf(bad), undefined, bad);
  });

  it('agrees with the decimal grammar on every text, with and without flooring (the one-pass reader is a fast path of it)', () => {
    const rng = createSeededRandom(7);
    const alphabet = '0123456789.0123456789.x -e';
    const texts = ['0', '00.000', '999999999', '1000000000', '1000000000.5', '9999999999999999', '0.000000', '0.0000001', '0.0000000'];
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      for (let n = rng.int(0, 20); n > 0; n--) s += alphabet[rng.int(0, alphabet.length - 1)];
      texts.push(s, `${rng.int(0, 2_000_000_000)}.${String(rng.int(0, 999_999_999)).padStart(rng.int(0, 12), '0')}`);
    }
    for (const t of texts) {
      assert.equal(microOf(t), microOfGrammar(t), t);
      assert.equal(microOf(t, FLOOR), microOfGrammar(t, FLOOR), t);
    }
  });
});
