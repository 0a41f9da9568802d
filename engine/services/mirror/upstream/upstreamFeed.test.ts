import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { bookHashOf } from '../../../protocol/bookHash.js';
import { GAMMA_FIXTURE_SLUG, GammaKit } from '../../../testkit/gammaKit.js';
import { UpstreamKit } from '../../../testkit/upstreamKit.js';
import { systemClock } from '../../clock.js';
import { createMarketDecoder } from '../marketDecoder.js';
import type { PublicBookEvent, PublicMarketIdentity, TapeEntry } from '../mirrorTypes.js';
import { UpstreamClient } from './upstreamClient.js';
import { UpstreamFeed, type UpstreamFeedOptions } from './upstreamFeed.js';
import { until } from '../../../testkit/untilKit.js';

const FAST = { backoff: { initialMs: 50, maxMs: 400, factor: 2, jitter: 0 }, pingIntervalMs: 200, marketPollMs: 0 } as const;

/** The outcome-0 public book as the decoded events leave it (what the order service's public layer would hold). */
class DecodedBook {
  bids = new Map<number, number>();
  asks = new Map<number, number>();
  snapshots = 0;
  apply(events: readonly PublicBookEvent[]): void {
    for (const ev of events) {
      if (ev.kind === 'snapshot') {
        this.snapshots++;
        this.bids = new Map(ev.bids.map((l) => [l.price, l.size]));
        this.asks = new Map(ev.asks.map((l) => [l.price, l.size]));
      } else if (ev.kind === 'level') {
        const side = ev.side === 'bid' ? this.bids : this.asks;
        if (ev.size === 0) side.delete(ev.price);
        else side.set(ev.price, ev.size);
      }
    }
  }
  /** In GET /book terms: decimal strings, best last. */
  wire(): { bids: Array<[string, string]>; asks: Array<[string, string]> } {
    const fmt = (m: Map<number, number>, asc: boolean) =>
      [...m].sort((a, b) => (asc ? a[0] - b[0] : b[0] - a[0])).map(([p, s]) => [String(p / 1e6), String(s / 1e6)] as [string, string]);
    return { bids: fmt(this.bids, true), asks: fmt(this.asks, false) };
  }
}

/** Follows one market and decodes everything it receives. */
function follower(feed: UpstreamFeed, identity: PublicMarketIdentity) {
  const decoder = createMarketDecoder(identity);
  const entries: TapeEntry[] = [];
  const problems: string[] = [];
  const events: PublicBookEvent[] = [];
  const book = new DecodedBook();
  feed.follow(identity, (entry) => {
    entries.push(entry);
    const r = decoder.decode(entry);
    problems.push(...r.problems);
    events.push(...r.events);
    book.apply(r.events);
    if (r.needsResync) void feed.resync(identity.conditionId);
  });
  return { entries, problems, events, book };
}

async function upstreamBook(kit: UpstreamKit, token: string): Promise<{ bids: Array<[string, string]>; asks: Array<[string, string]> }> {
  const b = (await (await fetch(`${kit.base}/book?token_id=${token}`)).json()) as { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }> };
  const norm = (ls: Array<{ price: string; size: string }>) => ls.map((l) => [String(Number(l.price)), String(Number(l.size))] as [string, string]);
  return { bids: norm(b.bids), asks: norm(b.asks) };
}

describe('the upstream feed against a second engine (the public exchange of the tests)', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('follows a market with participants trading: snapshot first, then deltas and prints, and the decoded book is the upstream book', async () => {
    const kit = await UpstreamKit.start();
    cleanup.push(() => kit.close());
    const identity = await kit.identity();
    const feed = new UpstreamFeed({ wsUrl: kit.wsUrl, client: new UpstreamClient({ clobBase: kit.base, gammaBase: kit.base }), clock: systemClock, ...FAST });
    cleanup.push(() => feed.close());
    const f = follower(feed, identity);
    await until('a resync entry', () => f.entries.some((e) => 'resync' in e));
    await kit.trade(identity.conditionId, '0.5', '7');
    await until('deltas and a print', () => f.events.some((e) => e.kind === 'level') && f.events.some((e) => e.kind === 'print'));
    kit.stopParticipants();
    await kit.buy(identity.conditionId, 0, '0.02', '11');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(f.events[0]!.kind, 'snapshot', 'the first decoded event is a snapshot');
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.book.wire(), await upstreamBook(kit, identity.tokenIds[0]));
    assert.ok(f.book.bids.get(20_000)! >= 11_000_000, 'our own order is in the mirrored depth');
    // One print per match: as many decoded prints as outcome-0 last_trade_price events received.
    const yesPrints = f.entries.filter((x) => 'e' in x && (x.e as Record<string, unknown>).event_type === 'last_trade_price' && (x.e as Record<string, unknown>).asset_id === identity.tokenIds[0]);
    const noPrints = f.entries.filter((x) => 'e' in x && (x.e as Record<string, unknown>).event_type === 'last_trade_price' && (x.e as Record<string, unknown>).asset_id === identity.tokenIds[1]);
    assert.ok(noPrints.length > 0, 'the upstream printed on both tokens');
    assert.equal(f.events.filter((e) => e.kind === 'print').length, yesPrints.length);
    assert.ok(feed.lastEventAt(identity.conditionId)! > Date.now() - 5_000);
  });

  it('survives the upstream dying: reconnects with backoff, resyncs from GET /book, and the book is right again', async () => {
    const kit = await UpstreamKit.start({ simulation: false });
    cleanup.push(() => kit.close());
    const identity = await kit.identity();
    const problems: string[] = [];
    const feed = new UpstreamFeed({ wsUrl: kit.wsUrl, client: new UpstreamClient({ clobBase: kit.base, gammaBase: kit.base, timeoutMs: 1_000 }), clock: systemClock, ...FAST, onProblem: (p) => problems.push(p) });
    cleanup.push(() => feed.close());
    const f = follower(feed, identity);
    await until('the first resync', () => f.entries.some((e) => 'resync' in e));
    await until('connected', () => feed.connected);
    await kit.kill();
    await until('the close noticed', () => !feed.connected && problems.some((p) => /closed/.test(p)));
    const resyncsBefore = f.entries.filter((e) => 'resync' in e).length;
    await kit.restart();
    await kit.buy(identity.conditionId, 0, '0.03', '9'); // a change made while the mirror was away
    await until('a resync after the reconnect', () => f.entries.filter((e) => 'resync' in e).length > resyncsBefore, 15_000);
    await until('the change seen', () => f.book.bids.get(30_000) === 9_000_000);
    assert.deepEqual(f.book.wire(), await upstreamBook(kit, identity.tokenIds[0]));
    assert.ok(problems.some((p) => /socket (error|closed)/.test(p)), 'the outage is reported, not thrown');
    // And it keeps following: a delta after the reconnect arrives as a level.
    await kit.buy(identity.conditionId, 0, '0.04', '6');
    await until('a delta after the reconnect', () => f.book.bids.get(40_000) === 6_000_000);
  });

  it('follows a market resolved by its public URL through Gamma: the identity Gamma gives is the one the book streams under', async () => {
    const kit = await UpstreamKit.start({ simulation: false });
    cleanup.push(() => kit.close());
    const gamma = await GammaKit.start(await kit.identity());
    cleanup.push(() => gamma.close());
    const client = new UpstreamClient({ clobBase: kit.base, gammaBase: gamma.base });
    const identity = await client.resolveMarket(`https://polymarket.com/event/fed-decision-in-july/${GAMMA_FIXTURE_SLUG}`);
    const feed = new UpstreamFeed({ wsUrl: kit.wsUrl, client, clock: systemClock, ...FAST });
    cleanup.push(() => feed.close());
    const f = follower(feed, identity);
    await until('a snapshot', () => f.book.snapshots > 0);
    await kit.buy(identity.conditionId, 0, '0.05', '8');
    await until('the new level', () => f.book.bids.get(50_000) === 8_000_000);
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.book.wire(), await upstreamBook(kit, identity.tokenIds[0]));
  });

  it('polls GET /markets/{cid}: the upstream resolution reaches the decoder as `resolved`', async () => {
    const kit = await UpstreamKit.start({ simulation: false });
    cleanup.push(() => kit.close());
    const identity = await kit.identity();
    const feed = new UpstreamFeed({ wsUrl: kit.wsUrl, client: new UpstreamClient({ clobBase: kit.base, gammaBase: kit.base }), clock: systemClock, ...FAST, marketPollMs: 100 });
    cleanup.push(() => feed.close());
    const f = follower(feed, identity);
    await until('a market entry', () => f.entries.some((e) => 'market' in e));
    await kit.resolve(identity.conditionId, 1);
    await until('resolved', () => f.events.some((e) => e.kind === 'resolved'));
    assert.deepEqual(
      f.events.filter((e) => e.kind === 'resolved' || e.kind === 'closed'),
      [{ kind: 'resolved', winner: 1 }],
    );
  });
});

/** A tiny market channel that says what the test tells it to, with a REST /book beside it. */
class RawUpstream {
  readonly received: string[] = [];
  connections = 0;
  private wss!: WebSocketServer;
  private http!: Server;
  sockets: WebSocket[] = [];
  book: Record<string, unknown> = {};
  wsUrl = '';
  base = '';
  /** What to send after a subscribe message. */
  script: (ws: WebSocket) => void = () => undefined;
  answerPings = true;
  /** GET /book answers after this long (a resync in flight while the socket talks). */
  bookDelayMs = 0;

  async start(): Promise<void> {
    this.http = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      const isBook = req.url?.startsWith('/book') ?? false;
      const body = JSON.stringify(isBook ? this.book : {});
      setTimeout(() => res.end(body), isBook ? this.bookDelayMs : 0);
    });
    await new Promise<void>((r) => this.http.listen(0, '127.0.0.1', r));
    const port = (this.http.address() as AddressInfo).port;
    this.base = `http://127.0.0.1:${port}`;
    this.wss = new WebSocketServer({ server: this.http, path: '/ws/market' });
    this.wsUrl = `ws://127.0.0.1:${port}/ws/market`;
    this.wss.on('connection', (ws) => {
      this.connections++;
      this.sockets.push(ws);
      ws.on('message', (d) => {
        const text = d.toString();
        this.received.push(text);
        if (text === 'PING') {
          if (this.answerPings) ws.send('PONG');
          return;
        }
        if (text.includes('"type":"market"')) this.script(ws);
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.wss.clients) s.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
    this.http.closeAllConnections();
    await new Promise<void>((r) => this.http.close(() => r()));
  }
}

describe('the upstream feed against a lying, broken or silent upstream', () => {
  const YES = '1111111111111111111111111111111111111111111111111111111111111111111111111';
  const NO = '2222222222222222222222222222222222222222222222222222222222222222222222222';
  const CID = '0x' + 'c'.repeat(64);
  const identity: PublicMarketIdentity = {
    conditionId: CID, questionId: '0x' + 'd'.repeat(64), question: 'Q?', description: '', slug: 'q', outcomes: ['Yes', 'No'], tokenIds: [YES, NO],
    tickSize: 10_000, minOrderSize: 5_000_000, negRisk: false, negRiskMarketId: '', endDate: null,
    feeSchedule: { rate: 0n, exponent: 1, takerOnly: true, rebateRate: 0n }, image: '', closed: false, acceptingOrders: true, winner: null,
  };
  const hashed = (b: Record<string, unknown>) => ({ ...b, hash: bookHashOf({ ...b, hash: '' }) });
  const goodBook = hashed({ market: CID, asset_id: YES, timestamp: '1000', hash: '', bids: [{ price: '0.4', size: '10' }], asks: [{ price: '0.6', size: '10' }], min_order_size: '5', tick_size: '0.01', neg_risk: false, last_trade_price: '0.5' });

  async function raw(opts: Partial<UpstreamFeedOptions> = {}) {
    const up = new RawUpstream();
    await up.start();
    up.book = goodBook;
    const problems: string[] = [];
    const feed = new UpstreamFeed({ wsUrl: up.wsUrl, client: new UpstreamClient({ clobBase: up.base, gammaBase: up.base, timeoutMs: 1_000 }), clock: { nowMs: () => 42_000 }, ...FAST, onProblem: (p) => problems.push(p), ...opts });
    return { up, feed, problems, async close() { await feed.close(); await up.close(); } };
  }

  it('turns garbage, lies and disorder into problems and keeps going (no throw, no crash)', async () => {
    const { up, feed, problems, close } = await raw();
    try {
      up.script = (ws) => {
        ws.send('garbage that is not JSON');
        ws.send('[1,2');
        ws.send(JSON.stringify([{ event_type: 'book', ...goodBook, hash: 'f'.repeat(40) }, 7, null]));
        ws.send(JSON.stringify({ event_type: 'book', ...goodBook, timestamp: '2000', hash: bookHashOf({ ...goodBook, timestamp: '2000', hash: '' }) }));
        ws.send(JSON.stringify({ event_type: 'price_change', market: CID, timestamp: '3000', price_changes: [{ asset_id: YES, price: '1.5', size: '3', side: 'BUY' }] }));
        ws.send(JSON.stringify({ event_type: 'price_change', market: CID, timestamp: '4000', price_changes: [{ asset_id: YES, price: '0.45', size: '3', side: 'BUY' }] }));
        ws.send(JSON.stringify({ event_type: 'price_change', market: CID, timestamp: '3500', price_changes: [{ asset_id: YES, price: '0.41', size: '2', side: 'BUY' }] }));
        ws.send(JSON.stringify({ event_type: 'last_trade_price', asset_id: '999', price: '0.5', size: '1', side: 'BUY' }));
        ws.send('NO NEW ASSETS');
      };
      const f = follower(feed, identity);
      await until('the scripted frames', () => f.entries.filter((e) => 'e' in e).length >= 5 && problems.some((p) => /no followed market/.test(p)));
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(problems.some((p) => /non-JSON upstream frame ignored: garbage/.test(p)));
      assert.ok(problems.some((p) => /non-JSON upstream frame ignored: \[1,2/.test(p)));
      assert.ok(problems.some((p) => /not an object: 7/.test(p)));
      assert.ok(f.problems.some((p) => /hash f+ does not match/.test(p)), 'the lying book is refused');
      assert.ok(f.problems.some((p) => /price "1.5" is outside \(0, 1\)/.test(p)));
      assert.ok(f.problems.some((p) => /out of order/.test(p)));
      assert.ok(f.entries.every((e) => e.t === 42_000), 'stamped with the exchange clock at receive');
      // The lies asked for resyncs; the book is the honest one plus the one good delta.
      await until('the resync after the lies', () => f.entries.filter((e) => 'resync' in e).length >= 2);
      assert.equal(f.book.bids.get(400_000), 10_000_000);
      assert.equal(f.book.bids.has(1_500_000), false);
      assert.equal(feed.lastEventAt(CID), 42_000);
    } finally {
      await close();
    }
  });

  it('subscribes with initial dump and custom features, pings every interval, and subscribes/unsubscribes later markets by operation', async () => {
    const { up, feed, close } = await raw();
    try {
      follower(feed, identity);
      await until('a PING', () => up.received.filter((t) => t === 'PING').length >= 2);
      const first = JSON.parse(up.received.find((t) => t.startsWith('{'))!) as Record<string, unknown>;
      assert.deepEqual(first, { assets_ids: [YES, NO], type: 'market', initial_dump: true, custom_feature_enabled: true });
      const other = { ...identity, conditionId: '0x' + 'a'.repeat(64), tokenIds: ['3', '4'] as const };
      follower(feed, other);
      feed.unfollow(other.conditionId);
      await until('the operations', () => up.received.some((t) => t.includes('"unsubscribe"')));
      const ops = up.received.filter((t) => t.includes('operation')).map((t) => JSON.parse(t) as Record<string, unknown>);
      assert.deepEqual(ops, [
        { operation: 'subscribe', assets_ids: ['3', '4'], custom_feature_enabled: true },
        { operation: 'unsubscribe', assets_ids: ['3', '4'] },
      ]);
      assert.equal(feed.lastEventAt(other.conditionId), null);
    } finally {
      await close();
    }
  });

  it('drops a silent connection (no PONG) and reconnects', async () => {
    const { up, feed, problems, close } = await raw({ deadAfterMs: 300, pingIntervalMs: 100 });
    try {
      up.answerPings = false;
      follower(feed, identity);
      await until('a second connection', () => up.connections >= 2, 5_000);
      assert.ok(problems.some((p) => /silent for 300 ms/.test(p)));
    } finally {
      await close();
    }
  });

  it('holds socket events that arrive while a resync is in flight and plays them after it: newer ones apply, ones the book holds drop', async () => {
    const { up, feed, close } = await raw();
    try {
      up.bookDelayMs = 300;
      up.book = hashed({ ...goodBook, timestamp: '5000' });
      up.script = (ws) => {
        ws.send(JSON.stringify({ event_type: 'price_change', market: CID, timestamp: '4000', price_changes: [{ asset_id: YES, price: '0.3', size: '1', side: 'BUY' }] }));
        ws.send(JSON.stringify({ event_type: 'price_change', market: CID, timestamp: '6000', price_changes: [{ asset_id: YES, price: '0.45', size: '2', side: 'BUY' }] }));
      };
      const f = follower(feed, identity);
      await until('the resync', () => f.entries.some((e) => 'resync' in e));
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(f.entries.map((e) => ('resync' in e ? 'resync' : 'e' in e ? (e.e as { timestamp: string }).timestamp : 'market')), ['resync', '4000', '6000']);
      assert.deepEqual(f.problems, []);
      assert.deepEqual([...f.book.bids], [[400_000, 10_000_000], [450_000, 2_000_000]], 'the 4000 delta is in the book already; the 6000 one is applied');
    } finally {
      await close();
    }
  });

  it('stops delivering a market once unfollowed', async () => {
    const { up, feed, close } = await raw();
    try {
      let sendLater: (() => void) | undefined;
      up.script = (ws) => {
        sendLater = () => ws.send(JSON.stringify({ event_type: 'price_change', market: CID, timestamp: '9000', price_changes: [{ asset_id: YES, price: '0.45', size: '2', side: 'BUY' }] }));
      };
      const f = follower(feed, identity);
      await until('subscribed', () => sendLater && f.entries.some((e) => 'resync' in e));
      feed.unfollow(CID);
      sendLater!();
      await until('the unsubscribe', () => up.received.some((t) => t.includes('unsubscribe')));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(f.entries.filter((e) => 'e' in e).length, 0);
      assert.equal(feed.lastEventAt(CID), null);
    } finally {
      await close();
    }
  });

  it('backs off exponentially from an upstream that accepts and hangs up at once', async () => {
    const { up, feed, close } = await raw({ backoff: { initialMs: 40, maxMs: 10_000, factor: 2, jitter: 0 } });
    try {
      const at: number[] = [];
      up.script = (ws) => {
        at.push(Date.now());
        ws.close();
      };
      follower(feed, identity);
      await until('five connections', () => at.length >= 5, 5_000);
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      // 40, 80, 160, 320 ms (plus connect time): each gap at least the backoff, and growing.
      gaps.forEach((g, i) => assert.ok(g >= 40 * 2 ** i, `gap ${i} is ${g} ms`));
      assert.ok(gaps[3]! > gaps[0]! * 3, `gaps grow: ${gaps.join(', ')}`);
    } finally {
      await close();
    }
  });

  it('marks a failed resync (REST down) as false, reported, and keeps the socket', async () => {
    const { up, feed, problems, close } = await raw();
    try {
      const f = follower(feed, identity);
      await until('the first resync', () => f.entries.some((e) => 'resync' in e));
      const dead = new UpstreamFeed({ wsUrl: up.wsUrl, client: new UpstreamClient({ clobBase: 'http://127.0.0.1:1', gammaBase: 'http://127.0.0.1:1', timeoutMs: 500 }), clock: systemClock, ...FAST, onProblem: (p) => problems.push(p) });
      dead.follow(identity, () => undefined);
      assert.equal(await dead.resync(CID), false);
      assert.ok(problems.some((p) => /resync of 0xc+ failed: .*unreachable/.test(p)));
      await dead.close();
      assert.equal(await feed.resync(CID), true);
    } finally {
      await close();
    }
  });
});
