import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HEALTHY_POLL_FACTOR, streamLabel, streamPollMs, useStreamHealth } from './streamHealth.js';

describe('the terminal stream health', () => {
  it('polls at the base interval while the market stream is down and far less often while it is open', () => {
    useStreamHealth.getState().setMarket(undefined);
    assert.equal(streamPollMs(1000), 1000);
    useStreamHealth.getState().setMarket({ state: 'reconnecting', lastMessageAt: 0, reconnects: 1 });
    assert.equal(streamPollMs(1000), 1000);
    useStreamHealth.getState().setMarket({ state: 'open', lastMessageAt: Date.now(), reconnects: 1 });
    assert.equal(streamPollMs(1000), 1000 * HEALTHY_POLL_FACTOR);
    assert.equal(streamLabel(useStreamHealth.getState().market), 'open');
    assert.equal(streamLabel(undefined), 'off');
  });
});
