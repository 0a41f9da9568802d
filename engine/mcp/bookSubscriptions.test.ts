import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BookSubscriptions } from './bookSubscriptions.js';

describe('book subscriptions (MCP resources/subscribe)', () => {
  it('notifies a change at once, holds the next ones to one at the end of the window, and only for the subscribed market', async () => {
    let now = 1_000;
    const sent: Array<[string, number]> = [];
    const subs = new BookSubscriptions((uri) => sent.push([uri, now]), () => now, 50);
    subs.subscribe('sandbox://books/a', 'M1');
    subs.subscribe('sandbox://books/b', 'M2');
    subs.changed('M1');
    subs.changed('M1');
    subs.changed('M1');
    assert.deepEqual(sent, [['sandbox://books/a', 1_000]]);
    now = 1_050;
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(sent, [['sandbox://books/a', 1_000], ['sandbox://books/a', 1_050]], 'the trailing change is not lost');
    subs.unsubscribe('sandbox://books/a');
    now = 2_000;
    subs.changed('M1');
    subs.changed('M2');
    assert.deepEqual(sent.at(-1), ['sandbox://books/b', 2_000]);
    assert.equal(sent.length, 3);
    subs.close();
    assert.equal(subs.size, 0);
  });
});
