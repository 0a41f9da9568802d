import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.js';
import { ExpiryTimer } from './expiryTimer.js';

describe('expiry timer', () => {
  it('reports due ids earliest first and tracks the next deadline through adds and removes', () => {
    const t = new ExpiryTimer(new ManualClock(0), () => undefined);
    t.add('b', 2_000);
    t.add('a', 1_000);
    t.add('c', 3_000);
    assert.equal(t.next(), 1_000);
    assert.deepEqual(t.due(2_500), ['a', 'b']);
    t.remove('a');
    assert.equal(t.next(), 2_000);
    t.remove('b');
    t.remove('c');
    assert.equal(t.next(), undefined);
    t.stop();
  });

  it('fires once for the earliest deadline with a single timer', async () => {
    let fired = 0;
    const t = new ExpiryTimer(new ManualClock(Date.now()), () => fired++);
    const now = Date.now();
    t.add('x', now + 5);
    t.add('y', now + 10_000);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(fired, 1);
    t.stop();
  });
});
