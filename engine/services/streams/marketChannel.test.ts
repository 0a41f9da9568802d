import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { OrderBook } from '../../book/orderBook.js';
import { createSeededRandom } from '../../book/seededRandom.js';
import type { BookSide, OrderHandle } from '../../book/types.js';
import { LocalBook } from '../../client/localBook.js';
import type { MarketEvent } from '../../protocol/streamEvents.js';
import { MidHistory } from '../markets/midHistory.js';
import type { Market } from '../markets/marketService.js';
import type { MarketSubscriber } from './marketChannel.js';
import type { StreamDeps } from './streamDeps.js';
import { StreamService } from './streamService.js';

const CONDITION = '0x' + 'c1'.repeat(32);
const TOKENS = ['1111', '2222'] as const;

/**
 * One market's book changed level by level, with the streams told as the order service tells them:
 * `touched` and `capture` right after each change, `committed` when the test says its write is durable.
 * Two clients keep the book of each token from the market channel (the client library's LocalBook).
 */
class Harness {
  readonly book = new OrderBook();
  private readonly handles = new Map<string, OrderHandle>();
  readonly streams: StreamService;
  readonly clients = TOKENS.map((t) => new LocalBook(t));
  now = 1_800_000_000_000;

  constructor() {
    const market = { conditionId: CONDITION, tokenIds: [...TOKENS], minOrderSize: 5_000_000n, tickSize: 10_000n, negRisk: false } as unknown as Market;
    const deps = {
      clock: { nowMs: () => this.now },
      config: {},
      auth: { onRevoke: new Set(), verifyCredentials: () => undefined },
      markets: { onChange: new Set(), byCondition: (c: string) => (c === CONDITION ? market : undefined), byToken: (t: string) => (t === TOKENS[0] || t === TOKENS[1] ? { market, outcomeIndex: t === TOKENS[0] ? 0 : 1 } : undefined) },
      orders: { events: undefined, get: () => undefined, book: (c: string) => (c === CONDITION ? this.book : undefined), lastTrade: () => undefined },
      mids: new MidHistory(),
    } as unknown as StreamDeps;
    this.streams = new StreamService(deps);
    // Flushed only where the test says (a scheduled flush finds nothing left).
    this.streams.limits.flushIntervalMs = 0;
    const subscriber = {
      // Only what the channel uses of a connection.
      custom: false,
      closed: false,
      sendFrame: (frame: Buffer) => {
        const parsed = JSON.parse(frame.toString()) as MarketEvent | MarketEvent[];
        for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
          const client = this.clients[TOKENS.indexOf(String((e as { asset_id?: string }).asset_id) as (typeof TOKENS)[number])]!;
          assert.ok(client.apply(e), `events follow each other: ${JSON.stringify(e)}`);
        }
      },
    } as unknown as MarketSubscriber;
    for (const t of TOKENS) this.streams.market.subscribe(t, subscriber, { initialDump: true });
  }

  /** Sets a level of the book (size 0 removes it) and captures the change; the capture awaits `commit`. */
  change(side: BookSide, price: number, size: number): unknown {
    const key = side + price;
    const old = this.handles.get(key);
    if (old !== undefined) this.book.cancel(old);
    if (size > 0) this.handles.set(key, this.book.restore({ side, price, remaining: size }));
    else this.handles.delete(key);
    this.now += 5;
    this.streams.touched(CONDITION);
    return this.streams.capture([]);
  }

  commit(captured: unknown): void {
    this.streams.committed(captured);
  }

  flush(): void {
    this.streams.market.flush();
  }

  /** The book as it is now (outcome 0, micro-units), as text to compare. */
  state(): string {
    return JSON.stringify([this.book.levels('bid'), this.book.levels('ask')]);
  }

  /** The book outcome 0's client shows, in the same form. */
  published(): string {
    const micro = (levels: Array<{ price: string; size: string }>) => levels.map((l) => ({ price: Math.round(Number(l.price) * 1e6), size: Math.round(Number(l.size) * 1e6) })).reverse();
    return JSON.stringify([micro(this.clients[0]!.bidLevels()), micro(this.clients[0]!.askLevels())]);
  }

  /** Both clients' books hash to the last event's hash (as a stock client checks them). */
  async verify(): Promise<void> {
    for (const c of this.clients) assert.ok(await c.verify(), `the book of ${c.assetId} hashes to its last event's hash`);
  }
}

describe('market channel captures', () => {
  it('publishes a change only while the book is still as it was captured: a later change being committed holds it back until that one is durable', async () => {
    const h = new Harness();
    h.commit(h.change('bid', 400_000, 10_000_000));
    h.commit(h.change('ask', 450_000, 7_000_000));
    h.flush();
    const durable = h.state();
    assert.equal(h.published(), durable);

    // Told at once (nothing being committed), then a change whose write is not durable yet.
    h.commit(h.change('bid', 410_000, 3_000_000));
    const afterFirst = h.state();
    const inFlight = h.change('ask', 440_000, 2_000_000);
    const notDurable = h.state();
    h.flush();
    assert.notEqual(h.published(), notDurable, 'a change is never streamed before its write is durable');
    assert.ok([durable, afterFirst].includes(h.published()), 'the client shows a durable book');

    h.commit(inFlight);
    h.flush();
    assert.equal(h.published(), notDurable, 'once durable, the change goes out (with the one held back)');
    await h.verify();
  });

  it('keeps publishing while every change is captured before the previous one is durable: each book goes out at most one change late', async () => {
    const h = new Harness();
    const rnd = createSeededRandom(11);
    const states: string[] = [h.state()];
    let waiting = h.change('bid', 300_000, 1_000_000);
    states.push(h.state());
    for (let k = 0; k < 60; k++) {
      const side: BookSide = rnd.next() < 0.5 ? 'bid' : 'ask';
      const next = h.change(side, (side === 'bid' ? 300_000 : 600_000) + rnd.int(0, 9) * 10_000, rnd.int(0, 5) * 1_000_000);
      states.push(h.state());
      h.commit(waiting);
      h.flush();
      // states[k + 1] was just committed; states[k + 2] is not durable yet.
      assert.ok([states[k]!, states[k + 1]!].includes(h.published()), `after commit ${k + 1} the client shows it or the one before`);
      waiting = next;
    }
    h.commit(waiting);
    h.flush();
    assert.equal(h.published(), h.state());
    await h.verify();
  });

  it('on any order of changes, commits and flushes, a client shows only durable books, each hashed as GET /book would, and ends with the book', async () => {
    const h = new Harness();
    const rnd = createSeededRandom(5);
    const durable = new Set([h.state()]);
    const inFlight: Array<{ captured: unknown; state: string }> = [];
    for (let step = 0; step < 400; step++) {
      const roll = rnd.next();
      if (roll < 0.45) {
        const side: BookSide = rnd.next() < 0.5 ? 'bid' : 'ask';
        const price = side === 'bid' ? 200_000 + rnd.int(0, 19) * 10_000 : 500_000 + rnd.int(0, 19) * 10_000;
        const captured = h.change(side, price, rnd.next() < 0.2 ? 0 : rnd.int(1, 500) * 10_000);
        // Told at once when nothing is being committed (as publishUncommitted does), else after the writes before it.
        if (inFlight.length === 0 && rnd.next() < 0.5) {
          h.commit(captured);
          durable.add(h.state());
        } else inFlight.push({ captured, state: h.state() });
      } else if (roll < 0.8 && inFlight.length > 0) {
        const done = inFlight.shift()!;
        h.commit(done.captured);
        durable.add(done.state);
      } else {
        h.flush();
        assert.ok(durable.has(h.published()), `step ${step}: the client shows a durable book`);
        await h.verify();
      }
    }
    for (const w of inFlight) h.commit(w.captured);
    h.flush();
    assert.equal(h.published(), h.state());
    await h.verify();
  });

  it('a flush sends what it publishes itself: it schedules no further flush for it', () => {
    const h = new Harness();
    h.commit(h.change('bid', 400_000, 10_000_000));
    const immediates = mock.method(globalThis, 'setImmediate');
    const timeouts = mock.method(globalThis, 'setTimeout');
    try {
      h.flush();
      assert.equal(immediates.mock.callCount() + timeouts.mock.callCount(), 0);
    } finally {
      immediates.mock.restore();
      timeouts.mock.restore();
    }
    assert.equal(h.published(), h.state());
  });
});
