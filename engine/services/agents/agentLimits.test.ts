import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkedLimits, DEFAULT_LIMITS, PlacementWindow } from './agentLimits.js';

describe('agent limits', () => {
  it('fills in defaults, normalises the notional and refuses malformed limits with the field named', () => {
    assert.deepEqual(checkedLimits(undefined), DEFAULT_LIMITS);
    assert.deepEqual(checkedLimits({ maxOrderNotional: '250.50', maxOpenOrders: 3 }), { maxOrderNotional: '250.5', maxOpenOrders: 3, maxOrdersPerMinute: DEFAULT_LIMITS.maxOrdersPerMinute });
    assert.throws(() => checkedLimits({ maxOrderNotional: 250 }), /limits.maxOrderNotional must be a positive decimal string/);
    assert.throws(() => checkedLimits({ maxOpenOrders: 0 }), /limits.maxOpenOrders must be an integer from 1/);
    assert.throws(() => checkedLimits([]), /limits must be an object/);
  });

  it('the placement window admits N per sliding minute and says when the next one fits', () => {
    const w = new PlacementWindow();
    assert.equal(w.take(0, 2), true);
    assert.equal(w.take(30_000, 2), true);
    assert.equal(w.take(59_999, 2), false);
    assert.equal(w.retryAfter(59_999), 1);
    assert.equal(w.take(60_000, 2), true, 'the first placement left the window');
  });
});
