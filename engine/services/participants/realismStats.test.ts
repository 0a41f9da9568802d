import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../../book/seededRandom.js';
import { realismStats, varianceRatio } from './realismStats.js';

describe('realism statistics', () => {
  it('reads a random walk as VR ≈ 1 and a price bouncing between two quotes as VR ≪ 1, even from a few hundred trades', () => {
    const rng = createSeededRandom(1);
    const walks = Array.from({ length: 200 }, () => {
      const p = [0];
      for (let i = 0; i < 200; i++) p.push(p[i]! + (rng.next() < 0.5 ? -1 : 1));
      return [varianceRatio(p, 10), varianceRatio(p, 50)];
    });
    const mean = (k: 0 | 1) => walks.reduce((a, w) => a + w[k]!, 0) / walks.length;
    assert.ok(Math.abs(mean(0) - 1) < 0.05, `VR(10) of random walks ${mean(0)}`);
    assert.ok(Math.abs(mean(1) - 1) < 0.1, `VR(50) of random walks ${mean(1)}`);
    const bounce = Array.from({ length: 201 }, () => (rng.next() < 0.5 ? 0 : 1));
    assert.ok(varianceRatio(bounce, 10) < 0.2);
  });

  it('counts one-tick spreads, mid changes, jumps and size percentiles from samples and trades', () => {
    const t = 10_000;
    const samples = [
      { bid: 38 * t, ask: 39 * t },
      { bid: 38 * t, ask: 39 * t },
      { bid: 39 * t, ask: 40 * t },
      { bid: 43 * t, ask: 45 * t },
      { bid: undefined, ask: 45 * t },
    ];
    const s = realismStats(samples, [5, 8, 20, 74].map((n) => ({ price: 40 * t, size: n * 1e6 })), t);
    assert.equal(s.oneTickSpreadShare, 3 / 5);
    assert.equal(s.distinctMids, 3);
    assert.equal(s.secondsPerMidChange, 5 / 2);
    assert.equal(s.jumps, 1);
    assert.deepEqual(s.tradeShares, { p10: 5, p50: 20, p90: 74, max: 74 });
  });
});
