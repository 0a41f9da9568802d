import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import WebSocket from 'ws';
import { createL1Headers } from '../client/createL1Headers.js';
import { createL2Headers } from '../client/createL2Headers.js';
import { MarketStream, type MarketStreamOptions } from '../client/marketStream.js';
import type { WebSocketConstructor } from '../client/streamSocket.js';
import { UserStream } from '../client/userStream.js';
import type { MarketEvent, UserEvent } from '../protocol/streamEvents.js';
import { accounts, units } from '../testkit/orderKit.js';
import { StreamTestEngine, type HeaderBuilders } from '../testkit/streamKit.js';

const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];
const HEADERS: HeaderBuilders = { l1: async (a, c, n, ts) => ({ ...(await createL1Headers(a, c, n, ts)) }), l2: (cr, addr, req) => ({ ...createL2Headers(cr, addr as `0x${string}`, req) }) };
const WS = WebSocket as unknown as WebSocketConstructor;

/** A market stream whose connection a test can cut (as a network drop would). */
class DroppableStream extends MarketStream {
  constructor(opts: MarketStreamOptions) {
    super(opts);
  }
  drop(): void {
    this.reconnect();
  }
}

async function until(pred: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the client stream API against a real engine', () => {
  const t = new StreamTestEngine(HEADERS);
  let yes: string;
  before(async () => {
    await t.start([alice, bob]);
    yes = t.market.tokenIds[0];
  });
  after(() => t.close());

  it('keeps a hash-verified local book equal to GET /book, and resumes after a dropped connection without a fresh book', async () => {
    const stream = new DroppableStream({ url: `ws://127.0.0.1:${t.port}/ws/market`, WebSocket: WS, assets: [yes], backoffMs: () => 150 });
    const seen: MarketEvent[] = [];
    stream.on((e) => seen.push(e));
    await until(() => stream.book(yes) !== undefined);
    const first = stream.book(yes)!.seq;
    await t.place(alice, { side: 'BUY', price: 400_000n, size: units(3) });
    await t.place(bob, { side: 'BUY', outcome: 1, price: 500_000n, size: units(2) });
    const server = async () => t.book(yes);
    await until(() => stream.book(yes)!.seq === first + 2);
    assert.deepEqual(stream.book(yes)!.bidLevels(), (await server()).bids);
    assert.deepEqual(stream.book(yes)!.askLevels(), (await server()).asks);
    await until(() => stream.stats.verified >= 3);
    assert.equal(stream.stats.mismatches, 0);

    stream.drop();
    await t.place(alice, { side: 'BUY', price: 410_000n, size: units(1) });
    await t.place(alice, { side: 'BUY', price: 420_000n, size: units(1) });
    seen.length = 0;
    await until(() => stream.book(yes)?.seq === first + 4);
    assert.deepEqual(seen.map((e) => e.event_type), ['price_change', 'price_change'], 'the missed events, no fresh book');
    assert.deepEqual(stream.book(yes)!.bidLevels(), (await server()).bids);
    assert.equal(stream.status.reconnects, 1);
    assert.equal(stream.stats.resyncs, 0);
    const events: MarketEvent[] = [];
    const iterate = (async () => {
      for await (const e of stream) events.push(e);
    })();
    await t.place(alice, { side: 'BUY', price: 430_000n, size: units(1) });
    await until(() => events.length === 1);
    stream.close();
    await iterate;
    assert.equal(stream.status.state, 'closed');
  });

  it('delivers the key owner\'s order and trade events through the user stream', async () => {
    const c = t.creds.get(bob.address)!;
    const stream = new UserStream({ url: `ws://127.0.0.1:${t.port}/ws/user`, WebSocket: WS, creds: c });
    const got: UserEvent[] = [];
    stream.on((e) => got.push(e));
    await until(() => stream.status.state === 'open');
    await new Promise((r) => setTimeout(r, 50));
    await t.place(bob, { side: 'BUY', price: 450_000n, size: units(2) });
    await t.place(alice, { side: 'BUY', outcome: 1, price: 550_000n, size: units(1) });
    await until(() => got.length >= 4);
    assert.deepEqual(got.map((e) => (e.event_type === 'order' ? e.type : e.event_type === 'trade' ? e.status : e.event_type)), ['PLACEMENT', 'MATCHED', 'CONFIRMED', 'UPDATE']);
    stream.close();
  });
});
