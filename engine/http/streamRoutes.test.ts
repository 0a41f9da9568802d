import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { bookHashOf } from '../protocol/bookHash.js';
import { createSeededRandom } from '../book/seededRandom.js';
import { accounts, signedBody, units } from '../testkit/orderKit.js';
import { createL1Headers } from '../client/createL1Headers.js';
import { createL2Headers } from '../client/createL2Headers.js';
import { FLUSH_INTERVAL_MS } from '../services/streams/streamTransport.js';
import { StreamTestEngine, type HeaderBuilders, type TestSocket } from '../testkit/streamKit.js';

const HEADERS: HeaderBuilders = { l1: async (a, c, n, ts) => ({ ...(await createL1Headers(a, c, n, ts)) }), l2: (cr, addr, req) => ({ ...createL2Headers(cr, addr as `0x${string}`, req) }) };

const [alice, bob, carol] = accounts as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
type Msg = Record<string, unknown>;
type Level = { price: string; size: string };

/** A client's book as a bot keeps it from the market channel: the last `book`, then every change. */
class LocalBook {
  bids = new Map<string, string>();
  asks = new Map<string, string>();
  snapshot: Msg = {};
  seq = 0;
  hash = '';

  apply(m: Msg): void {
    assert.ok(typeof m.seq === 'number');
    if (m.event_type === 'book') {
      this.snapshot = m;
      this.bids = new Map((m.bids as Level[]).map((l) => [l.price, l.size]));
      this.asks = new Map((m.asks as Level[]).map((l) => [l.price, l.size]));
      this.seq = m.seq;
      this.hash = String(m.hash);
      return;
    }
    if (m.event_type === 'best_bid_ask') return;
    assert.equal(m.seq, this.seq + 1, `seq is contiguous (${JSON.stringify(m)})`);
    this.seq = m.seq;
    if (m.event_type === 'last_trade_price') this.snapshot = { ...this.snapshot, last_trade_price: m.price };
    if (m.event_type === 'tick_size_change') {
      this.snapshot = { ...this.snapshot, tick_size: m.new_tick_size, timestamp: m.timestamp };
      this.hash = String(m.hash);
      assert.equal(this.computedHash(), this.hash, 'the local book re-hashed on the new tick is the event hash');
    }
    if (m.event_type === 'price_change') {
      for (const c of m.price_changes as Array<{ price: string; size: string; side: string }>) {
        const side = c.side === 'BUY' ? this.bids : this.asks;
        if (c.size === '0') side.delete(c.price);
        else side.set(c.price, c.size);
      }
      this.snapshot = { ...this.snapshot, timestamp: m.timestamp };
      this.hash = String(m.hash);
      assert.equal(this.computedHash(), this.hash, 'the local book hashes to the event hash');
    }
  }

  levels(side: 'bids' | 'asks'): Level[] {
    const ls = [...this[side]].map(([price, size]) => ({ price, size }));
    // Wire order: best last (bids ascending, asks descending).
    return ls.sort((a, b) => (side === 'bids' ? Number(a.price) - Number(b.price) : Number(b.price) - Number(a.price)));
  }

  /** The GET /book snapshot this book stands for, hashed as the public clients hash it. */
  computedHash(): string {
    const s = this.snapshot;
    return bookHashOf({ market: s.market, asset_id: s.asset_id, timestamp: s.timestamp, hash: '', bids: this.levels('bids'), asks: this.levels('asks'), min_order_size: s.min_order_size, tick_size: s.tick_size, neg_risk: s.neg_risk, last_trade_price: s.last_trade_price });
  }
}

/** The asset an event is about (a price_change names it inside its changes). */
function assetOf(e: Msg): string {
  return String(e.asset_id ?? (e.price_changes as Array<{ asset_id: string }>)[0]!.asset_id);
}

describe('the market and user streams', () => {
  const t = new StreamTestEngine(HEADERS);
  let yes: string;
  let no: string;

  before(async () => {
    await t.start([alice, bob, carol]);
    [yes, no] = t.market.tokenIds;
  });
  after(() => t.close());

  async function marketSocket(assets: string[], extra: Msg = {}): Promise<TestSocket> {
    const s = await t.socket('market');
    s.send({ assets_ids: assets, type: 'market', ...extra });
    return s;
  }

  it('answers PING with PONG and sends a book per asset whose hash is the one GET /book gives', async () => {
    await t.place(alice, { side: 'BUY', price: 400_000n, size: units(10) });
    const s = await marketSocket([yes, no]);
    const got = (await s.drain()) as Msg[];
    assert.deepEqual(got.map((m) => [m.event_type, m.asset_id]), [['book', yes], ['book', no]]);
    const [book] = got as [Msg];
    assert.deepEqual(Object.keys(book), ['event_type', 'asset_id', 'market', 'bids', 'asks', 'timestamp', 'hash', 'min_order_size', 'tick_size', 'neg_risk', 'last_trade_price', 'seq']);
    assert.deepEqual(book.bids, [{ price: '0.4', size: '10' }]);
    assert.equal(book.market, t.market.conditionId);
    assert.match(String(book.timestamp), /^\d{13}$/);
    const local = new LocalBook();
    local.apply(book);
    assert.equal(local.computedHash(), book.hash);
    assert.equal((await t.book(yes)).hash, book.hash);
    // The NO token sees the YES bid mirrored as an ask.
    assert.deepEqual((got[1] as Msg).asks, [{ price: '0.6', size: '10' }]);
    s.close();
  });

  it('sends price_change with best prices and the hash, last_trade_price on a cross, and best_bid_ask with the custom feature', async () => {
    const s = await marketSocket([yes], { custom_feature_enabled: true, initial_dump: false });
    await s.drain();
    // Bob buys NO at 0.3: the YES book shows it as an ask at 0.7.
    await t.place(bob, { side: 'BUY', outcome: 1, price: 300_000n, size: units(5) });
    const [pc, bba] = (await s.drain()) as Msg[];
    assert.deepEqual(Object.keys(pc!), ['event_type', 'asset_id', 'market', 'timestamp', 'price_changes', 'hash', 'seq']);
    assert.deepEqual(pc!.price_changes, [{ asset_id: yes, price: '0.7', size: '5', side: 'SELL', hash: pc!.hash, best_bid: '0.4', best_ask: '0.7' }]);
    assert.equal((await t.book(yes)).hash, pc!.hash);
    assert.deepEqual(bba, { event_type: 'best_bid_ask', market: t.market.conditionId, asset_id: yes, best_bid: '0.4', best_ask: '0.7', spread: '0.3', timestamp: pc!.timestamp, seq: pc!.seq });

    await t.place(carol, { side: 'BUY', price: 700_000n, size: units(2) });
    const events = (await s.drain()) as Msg[];
    assert.deepEqual(events.map((m) => m.event_type), ['last_trade_price', 'price_change']);
    const ltp = events[0]!;
    assert.deepEqual(Object.keys(ltp), ['event_type', 'asset_id', 'market', 'price', 'size', 'side', 'fee_rate_bps', 'timestamp', 'transaction_hash', 'seq']);
    assert.equal(ltp.price, '0.7');
    assert.equal(ltp.size, '2');
    assert.equal(ltp.side, 'BUY');
    assert.equal(events[1]!.seq, (ltp.seq as number) + 1);
    assert.equal((await t.book(yes)).hash, events[1]!.hash);
    s.close();
  });

  it('keeps a client book equal to GET /book, hash included, after every event of a random order stream with mints and merges', async () => {
    const yesSock = await marketSocket([yes]);
    const noSock = await marketSocket([no]);
    const books = { [yes]: new LocalBook(), [no]: new LocalBook() };
    const feed = async (): Promise<void> => {
      for (const [sock, token] of [[yesSock, yes], [noSock, no]] as const) {
        // Each event with a hash is checked against the local book in apply(); after the events of one
        // change, the local book is the server's.
        for (const m of (await sock.drain()) as Msg[]) books[token]!.apply(m);
        const server = await t.book(token);
        // GET /book stamps the time of the request: hashed at the last event's timestamp, it is that event's hash.
        assert.equal(bookHashOf({ ...server, timestamp: books[token]!.snapshot.timestamp }), books[token]!.hash, 'the last event hash is the GET /book hash');
        assert.equal(books[token]!.computedHash(), books[token]!.hash);
        assert.deepEqual(books[token]!.levels('bids'), server.bids);
        assert.deepEqual(books[token]!.levels('asks'), server.asks);
      }
    };
    await feed();
    // The real flush interval, checked every third operation: conflated events must keep the book exact too.
    t.engine.ctx.streams.limits.flushIntervalMs = FLUSH_INTERVAL_MS;
    const rnd = createSeededRandom(12).next;
    const open: Array<{ id: string; who: PrivateKeyAccount }> = [];
    for (let i = 0; i < 60; i++) {
      const who = [alice, bob, carol][Math.floor(rnd() * 3)]!;
      if (open.length > 0 && rnd() < 0.25) {
        const [o] = open.splice(Math.floor(rnd() * open.length), 1);
        await t.engine.ctx.orders.cancel({ address: o!.who.address.toLowerCase() as `0x${string}`, apiKey: '' }, [o!.id]);
      } else {
        const side = rnd() < 0.5 ? 'BUY' : 'SELL';
        const outcome = rnd() < 0.5 ? 0 : 1;
        // SELLs need shares: sell only what a previous BUY (or mint) gave; BUYs on both outcomes mint.
        const price = BigInt(30 + Math.floor(rnd() * 40)) * 10_000n;
        const size = units(1 + Math.floor(rnd() * 5));
        const held = t.engine.ctx.orders.balanceOf(who.address, t.market.tokenIds[outcome]).available;
        const r = await t.place(who, { side: side === 'SELL' && held < size ? 'BUY' : side, outcome, price, size });
        if (r.success && r.status === 'live' && r.order_id) open.push({ id: r.order_id, who });
      }
      if (i % 10 === 9) t.clock.advance(1000);
      if (i % 3 === 2) await feed();
    }
    t.engine.ctx.streams.limits.flushIntervalMs = 0;
    assert.ok(books[yes]!.seq > 15, `many events seen (${books[yes]!.seq})`);
    yesSock.close();
    noSock.close();
  });

  it('sends order and trade events to the maker and the taker of a cross, MATCHED then CONFIRMED', async () => {
    for (const who of [alice, bob, carol]) assert.equal((await t.l2(who, 'DELETE', '/cancel-all')).statusCode, 200);
    const bobSock = await t.socket('user');
    const { key, secret, passphrase } = t.creds.get(bob.address)!;
    bobSock.send({ auth: { apiKey: key, secret, passphrase }, markets: [t.market.conditionId], type: 'user' });
    const aliceSock = await t.socket('user');
    const a = t.creds.get(alice.address)!;
    aliceSock.send({ auth: { apiKey: a.key, secret: a.secret, passphrase: a.passphrase }, type: 'USER' });
    await bobSock.drain();
    await aliceSock.drain();

    const maker = await t.place(bob, { side: 'BUY', outcome: 0, price: 450_000n, size: units(3) });
    const [placement] = (await bobSock.drain()) as Msg[];
    assert.deepEqual(Object.keys(placement!), ['event_type', 'type', 'id', 'owner', 'order_owner', 'market', 'asset_id', 'side', 'outcome', 'price', 'original_size', 'size_matched', 'associate_trades', 'timestamp', 'seq']);
    assert.equal(placement!.type, 'PLACEMENT');
    assert.equal(placement!.id, maker.order_id);
    assert.equal(placement!.owner, key);
    assert.match(String(placement!.timestamp), /^\d{10}$/);

    // Alice buys NO at 0.55: it crosses Bob's YES bid at 0.45 (a mint).
    await t.place(alice, { side: 'BUY', outcome: 1, price: 550_000n, size: units(1) });
    const bobEvents = (await bobSock.drain()) as Msg[];
    assert.deepEqual(bobEvents.map((m) => [m.event_type, m.type, m.status]), [['trade', 'TRADE', 'MATCHED'], ['trade', 'TRADE', 'CONFIRMED'], ['order', 'UPDATE', undefined]]);
    assert.equal(bobEvents[0]!.trader_side, 'MAKER');
    assert.equal((bobEvents[0]!.maker_orders as Msg[])[0]!.order_id, maker.order_id);
    assert.equal(bobEvents[2]!.size_matched, '1');
    assert.deepEqual(bobEvents.map((m) => m.seq), [placement!.seq as number + 1, placement!.seq as number + 2, placement!.seq as number + 3]);
    const aliceEvents = (await aliceSock.drain()) as Msg[];
    assert.deepEqual(aliceEvents.map((m) => [m.event_type, m.status, m.trader_side]), [['trade', 'MATCHED', 'TAKER'], ['trade', 'CONFIRMED', 'TAKER']]);
    assert.equal(aliceEvents[0]!.size, '1');
    assert.match(String(aliceEvents[0]!.matchtime), /^\d{10}$/);

    // Cancel-all tells Bob a CANCELLATION.
    const res = await t.l2(bob, 'DELETE', '/cancel-all');
    assert.equal(res.statusCode, 200, res.body);
    const cancels = (await bobSock.drain()) as Msg[];
    assert.ok(cancels.some((m) => m.type === 'CANCELLATION' && m.id === maker.order_id), JSON.stringify(cancels));
    bobSock.close();
    aliceSock.close();
  });

  it('sends a CANCELLATION when a GTD order expires', async () => {
    const s = await t.socket('user');
    const c = t.creds.get(carol.address)!;
    s.send({ auth: { apiKey: c.key, secret: c.secret, passphrase: c.passphrase }, type: 'user' });
    await s.drain();
    const r = await t.place(carol, { side: 'BUY', price: 100_000n, size: units(1), orderType: 'GTD', expiration: BigInt(t.nowSec() + 120) });
    assert.ok(r.success, r.error_msg);
    await s.drain();
    t.clock.advance(61_000);
    await t.engine.ctx.orders.expireDue();
    const got = (await s.drain()) as Msg[];
    assert.deepEqual(got.map((m) => [m.type, m.id]), [['CANCELLATION', r.order_id]]);
    s.close();
  });

  it('resumes after a dropped connection with the missed events, or a fresh book when they are gone', async () => {
    const s = await marketSocket([yes]);
    const [book] = (await s.drain()) as Msg[];
    const seen = book!.seq as number;
    s.close();
    await t.place(alice, { side: 'BUY', price: 200_000n, size: units(1) });
    await t.place(alice, { side: 'BUY', price: 210_000n, size: units(1) });
    const back = await marketSocket([yes], { resume_from: { [yes]: seen } });
    const missed = (await back.drain()) as Msg[];
    assert.deepEqual(missed.map((m) => [m.event_type, m.seq]), [['price_change', seen + 1], ['price_change', seen + 2]]);
    assert.equal(missed[1]!.hash, (await t.book(yes)).hash);
    back.close();

    t.engine.ctx.streams.limits.replayEvents = 1;
    await t.place(alice, { side: 'BUY', price: 220_000n, size: units(1) });
    await t.place(alice, { side: 'BUY', price: 230_000n, size: units(1) });
    const late = await marketSocket([yes], { resume_from: { [yes]: seen } });
    const fresh = (await late.drain()) as Msg[];
    assert.deepEqual(fresh.map((m) => [m.event_type, m.seq]), [['book', seen + 4]]);
    assert.equal(fresh[0]!.hash, (await t.book(yes)).hash);
    t.engine.ctx.streams.limits.replayEvents = 2048;
    late.close();
  });

  it('conflates a busy market: changes inside the flush interval go out as one frame with one price_change per asset, hashed as GET /book', async () => {
    const s = await marketSocket([yes, no], { initial_dump: false });
    await s.drain();
    t.engine.ctx.streams.limits.flushIntervalMs = 400;
    try {
      const frames: unknown[] = [];
      s.ws.on('message', (data) => frames.push(JSON.parse(String(data))));
      // After a quiet spell the first change goes out at once (one frame: both assets' events); the next four wait for the interval.
      await t.place(carol, { side: 'BUY', price: 110_000n, size: units(1) });
      await s.until(() => frames.length === 1);
      for (const p of [120_000n, 130_000n, 140_000n, 150_000n]) await t.place(carol, { side: 'BUY', price: p, size: units(1) });
      assert.equal(frames.length, 1, 'nothing more before the interval has passed');
      await s.until(() => frames.length === 2, 3000);
      const frame = frames[1] as Msg[];
      assert.ok(Array.isArray(frame), 'both assets’ events share one frame');
      const [pcYes, pcNo] = frame as [Msg, Msg];
      assert.deepEqual([pcYes.event_type, pcNo.event_type], ['price_change', 'price_change']);
      const changes = pcYes.price_changes as Array<{ asset_id: string; price: string }>;
      assert.deepEqual(changes.map((c) => c.price).sort(), ['0.12', '0.13', '0.14', '0.15']);
      assert.ok(changes.every((c) => c.asset_id === yes));
      assert.equal(pcYes.seq, ((frames[0] as Msg[])[0]!.seq as number) + 1, 'one event, one seq, for the four changes');
      assert.equal(pcYes.hash, (await t.book(yes)).hash);
      assert.equal(pcNo.hash, (await t.book(no)).hash);
    } finally {
      t.engine.ctx.streams.limits.flushIntervalMs = 0;
    }
    s.close();
  });

  it('answers malformed messages with an error event, refuses too many assets, and closes on an oversized message', async () => {
    const s = await t.socket('market');
    s.send('{not json');
    s.send({ assets_ids: 'x', type: 'market' });
    s.send({ assets_ids: ['123'], type: 'market' });
    const errors = (await s.drain()) as Msg[];
    assert.deepEqual(errors.map((m) => m.event_type), ['error', 'error', 'error']);
    assert.match(String(errors[2]!.message), /unknown asset ids/);
    t.engine.ctx.streams.limits.maxSubscriptions = 1;
    s.send({ assets_ids: [yes, no], type: 'market' });
    const [limit] = (await s.drain()) as Msg[];
    assert.match(String(limit!.message), /at most 1 assets per connection/);
    t.engine.ctx.streams.limits.maxSubscriptions = 500;
    s.send('x'.repeat(70 * 1024));
    await s.until(() => s.closed !== undefined);
    assert.equal(s.closed!.code, 1009);
  });

  it('closes a user socket whose key is revoked, and refuses bad credentials', async () => {
    const bad = await t.socket('user');
    bad.send({ auth: { apiKey: t.creds.get(carol.address)!.key, secret: 'nope', passphrase: 'nope' }, type: 'user' });
    await bad.until(() => bad.closed !== undefined);
    assert.equal(bad.closed!.code, 4003);

    const s = await t.socket('user');
    const c = t.creds.get(carol.address)!;
    s.send({ auth: { apiKey: c.key, secret: c.secret, passphrase: c.passphrase }, type: 'user' });
    await s.drain();
    const res = await t.l2(carol, 'DELETE', '/auth/api-key');
    assert.equal(res.statusCode, 200, res.body);
    await s.until(() => s.closed !== undefined);
    assert.deepEqual(s.closed, { code: 4004, reason: 'api key revoked' });
  });

  it('closes a consumer that stops reading, while another subscriber keeps receiving', async () => {
    // A deep book makes each `book` dump large; the slow client asks for one dump after another.
    for (let i = 0; i < 40; i++) await t.place(bob, { side: 'BUY', price: BigInt(10 + i) * 10_000n, size: units(1) });
    t.engine.ctx.streams.limits.maxBufferedBytes = 64 * 1024;
    // The slow client floods subscribes: lift the message budget so the backlog, not the rate, closes it.
    t.engine.ctx.streams.limits.messageBurst = 1e9;
    const healthy = await marketSocket([yes]);
    await healthy.drain();
    const slow = await marketSocket([yes]);
    await slow.drain();
    const before = t.engine.ctx.streams.connections;
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    for (let i = 0; i < 3000 && t.engine.ctx.streams.connections === before; i++) {
      slow.send({ operation: 'subscribe', assets_ids: [yes] });
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await healthy.until(() => t.engine.ctx.streams.connections < before, 10_000).catch(() => undefined);
    assert.equal(t.engine.ctx.streams.connections, before - 1, 'the slow consumer was closed');
    await t.place(alice, { side: 'BUY', price: 50_000n, size: units(1) });
    const got = (await healthy.drain()) as Msg[];
    assert.deepEqual(got.map((m) => m.event_type), ['price_change']);
    t.engine.ctx.streams.limits.maxBufferedBytes = 4 * 1024 * 1024;
    t.engine.ctx.streams.limits.messageBurst = 100;
    healthy.close();
  });

  it('lets a bot written for the public service run unmodified: subscribe message, array-or-object frames, PING keep-alive', async () => {
    const frames: string[] = [];
    const s = await marketSocket([yes, no]);
    s.ws.on('message', (d) => frames.push(d.toString()));
    await s.drain();
    for (const f of frames.filter((x) => x !== 'PONG')) {
      const parsed = JSON.parse(f) as Msg | Msg[];
      for (const e of Array.isArray(parsed) ? parsed : [parsed]) assert.ok(['book', 'price_change', 'last_trade_price', 'tick_size_change'].includes(String(e.event_type)));
    }
    s.send({ operation: 'unsubscribe', assets_ids: [no] });
    await t.place(alice, { side: 'BUY', price: 60_000n, size: units(1) });
    const got = (await s.drain()) as Msg[];
    assert.deepEqual(got.map((m) => (m.price_changes as Msg[])[0]!.asset_id), [yes]);
    s.close();
  });

  it('sends new_market and market_resolved to custom-feature subscribers only', async () => {
    const custom = await marketSocket([yes], { custom_feature_enabled: true });
    const plain = await marketSocket([yes]);
    await custom.drain();
    await plain.drain();
    const m = await t.engine.ctx.markets.create({ question: 'Will a second market open?', tickSize: 10_000n, minOrderSize: 1_000_000n, feeSchedule: { rate: '0.04', rebateRate: '0.25' } }, { waitForChain: false });
    const [created] = (await custom.drain()) as Msg[];
    assert.deepEqual(created, {
      event_type: 'new_market',
      id: m.conditionId,
      question: 'Will a second market open?',
      market: m.conditionId,
      slug: m.slug,
      description: m.description,
      assets_ids: [...m.tokenIds],
      outcomes: [...m.outcomes],
      taker_base_fee: 400,
      fees_enabled: true,
      fee_schedule: { rate: '0.04', exponent: 1, takerOnly: true, rebateRate: '0.25' },
      timestamp: String(t.clock.nowMs()),
    });
    custom.send({ operation: 'subscribe', assets_ids: [m.tokenIds[0]] });
    await custom.drain();
    await t.engine.ctx.markets.resolve(m.conditionId, 1);
    const [resolved] = (await custom.drain()) as Msg[];
    assert.equal(resolved!.event_type, 'market_resolved');
    assert.equal(resolved!.winning_asset_id, m.tokenIds[1]);
    assert.equal(resolved!.winning_outcome, m.outcomes[1]);
    assert.deepEqual(await plain.drain(), []);
    custom.close();
    plain.close();
  });

  it('sends tick_size_change on both tokens when the operator changes the tick, with the hash GET /book gives on the new tick', async () => {
    const s = await marketSocket([yes, no]);
    const books = (await s.drain()) as Msg[];
    const local = new Map(books.map((b) => [String(b.asset_id), new LocalBook()]));
    for (const b of books) local.get(String(b.asset_id))!.apply(b);
    const cid = t.market.conditionId;
    const auth = { authorization: `Bearer ${t.engine.ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
    const put = (tickSize: unknown) => t.engine.app.inject({ method: 'PUT', url: `/admin/markets/${cid}/tick-size`, headers: auth, payload: JSON.stringify({ tickSize }) });

    const res = await put('0.001');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().minimum_tick_size, 0.001);
    const events = (await s.drain()) as Msg[];
    assert.deepEqual(events.map((e) => [e.event_type, e.asset_id]), [['tick_size_change', yes], ['tick_size_change', no]]);
    for (const e of events) {
      assert.deepEqual(Object.keys(e), ['event_type', 'asset_id', 'market', 'old_tick_size', 'new_tick_size', 'timestamp', 'hash', 'seq']);
      assert.equal(e.old_tick_size, '0.01');
      assert.equal(e.new_tick_size, '0.001');
      local.get(String(e.asset_id))!.apply(e);
      const book = await t.book(String(e.asset_id));
      assert.equal(book.hash, e.hash, 'GET /book hashes the same book on the new tick');
    }
    // A 0.001-tick order is now accepted and streamed on the new tick; the local books keep up.
    await t.place(carol, { side: 'BUY', price: 401_000n, size: units(3) });
    for (const e of (await s.drain()) as Msg[]) local.get(assetOf(e))!.apply(e);
    assert.equal(local.get(yes)!.hash, (await t.book(yes)).hash);

    // The same tick again changes nothing and sends nothing; a bad tick is a 400 naming the field.
    assert.equal((await put('0.001')).statusCode, 200);
    assert.deepEqual(await s.drain(), []);
    for (const bad of ['0.5', 0.01, ['0.01'], null]) {
      const r = await put(bad);
      assert.equal(r.statusCode, 400, `${JSON.stringify(bad)}: ${r.body}`);
      assert.match(r.body, /tickSize/);
    }
    assert.equal((await put('0.01')).statusCode, 200);
    for (const e of (await s.drain()) as Msg[]) local.get(assetOf(e))!.apply(e);
    s.close();
  });

  async function userSocket(acct: PrivateKeyAccount, extra: Msg = {}): Promise<TestSocket> {
    const s = await t.socket('user');
    const { key, secret, passphrase } = t.creds.get(acct.address)!;
    s.send({ auth: { apiKey: key, secret, passphrase }, type: 'user', ...extra });
    await s.drain();
    return s;
  }

  it('names the asset on every seq-carrying event, also a price_change of a trade that left the levels as they were', async () => {
    for (const who of [alice, bob]) assert.equal((await t.l2(who, 'DELETE', '/cancel-all')).statusCode, 200);
    const s = await marketSocket([yes, no]);
    await s.drain();
    // Bob rests BUY NO 0.50x5 (a YES ask at 0.50); Alice's one batch buys it and offers the same 5 again.
    await t.place(bob, { side: 'BUY', outcome: 1, price: 500_000n, size: units(5) });
    await s.drain();
    const market = { ...t.market, winner: null };
    const bodies = [await signedBody(alice, { market, side: 'BUY', price: 500_000n, size: units(5) }), await signedBody(alice, { market, side: 'SELL', price: 500_000n, size: units(5) })];
    const placed = await t.engine.ctx.orders.placeBatch({ address: alice.address.toLowerCase() as `0x${string}`, apiKey: t.creds.get(alice.address)!.key }, bodies);
    assert.deepEqual(placed.map((p) => p.status), ['matched', 'live'], JSON.stringify(placed));
    const events = (await s.drain()) as Msg[];
    const changes = events.filter((e) => e.event_type === 'price_change');
    assert.ok(changes.some((e) => (e.price_changes as unknown[]).length === 0), `a change with no level changes: ${JSON.stringify(events)}`);
    for (const e of events) if (typeof e.seq === 'number') assert.ok(e.asset_id === yes || e.asset_id === no, `names its asset: ${JSON.stringify(e)}`);
    assert.deepEqual(new Set(changes.map((e) => e.asset_id)), new Set([yes, no]));
    s.close();
    for (const who of [alice, bob]) await t.l2(who, 'DELETE', '/cancel-all');
  });

  it('user channel: unsubscribing the last market stops its events (it does not mean every market)', async () => {
    const s = await userSocket(bob, { markets: [t.market.conditionId] });
    s.send({ operation: 'unsubscribe', markets: [t.market.conditionId] });
    await s.drain();
    const r = await t.place(bob, { side: 'BUY', price: 110_000n, size: units(1) });
    assert.deepEqual(await s.drain(), []);
    s.send({ operation: 'subscribe', markets: [t.market.conditionId] });
    await t.l2(bob, 'DELETE', '/cancel-all');
    assert.deepEqual(((await s.drain()) as Msg[]).map((m) => [m.type, m.id]), [['CANCELLATION', r.order_id]]);
    s.close();
    // With every market followed, an unsubscribe drops just that market.
    const all = await userSocket(bob);
    all.send({ operation: 'unsubscribe', markets: [t.market.conditionId] });
    await all.drain();
    await t.place(bob, { side: 'BUY', price: 110_000n, size: units(1) });
    assert.deepEqual(await all.drain(), []);
    all.close();
    await t.l2(bob, 'DELETE', '/cancel-all');
  });

  it("self-trade on the user channel: maker_orders[].owner is the subscriber's own key, and the UPDATE lists the trade as GET /data/orders does", async () => {
    for (const who of [alice, bob]) await t.l2(who, 'DELETE', '/cancel-all');
    const s = await userSocket(alice);
    const maker = await t.place(alice, { side: 'BUY', outcome: 0, price: 450_000n, size: units(3) });
    await s.drain();
    const taker = await t.place(alice, { side: 'BUY', outcome: 1, price: 550_000n, size: units(1) });
    assert.equal(taker.status, 'matched', JSON.stringify(taker));
    const events = (await s.drain()) as Msg[];
    const trades = events.filter((e) => e.event_type === 'trade');
    assert.ok(trades.length > 0, JSON.stringify(events));
    for (const tr of trades) assert.equal((tr.maker_orders as Msg[])[0]!.owner, t.creds.get(alice.address)!.key);
    const update = events.find((e) => e.type === 'UPDATE' && e.id === maker.order_id);
    assert.ok(update, JSON.stringify(events));
    const open = (await t.l2(alice, 'GET', '/data/orders')).json() as { data: Array<{ id?: string; order_id?: string; associate_trades?: string[]; associateTrades?: string[] }> };
    const listed = open.data.find((o) => (o.id ?? o.order_id) === maker.order_id)!;
    assert.deepEqual(update.associate_trades, listed.associate_trades ?? listed.associateTrades);
    assert.deepEqual(update.associate_trades, [trades[0]!.id]);
    s.close();
    await t.l2(alice, 'DELETE', '/cancel-all');
  });

  it('closes every open socket with 1001 when the engine shuts down', async () => {
    const own = await new StreamTestEngine(HEADERS).start([alice]);
    const m = await TestSocketOf(own, 'market', { assets_ids: [own.market.tokenIds[0]], type: 'market' });
    const u = await TestSocketOf(own, 'user', { auth: { apiKey: own.creds.get(alice.address)!.key, secret: own.creds.get(alice.address)!.secret, passphrase: own.creds.get(alice.address)!.passphrase }, type: 'user' });
    await own.close();
    await m.until(() => m.closed !== undefined);
    await u.until(() => u.closed !== undefined);
    assert.equal(m.closed!.code, 1001);
    assert.equal(u.closed!.code, 1001);
  });
});

async function TestSocketOf(e: StreamTestEngine, channel: 'market' | 'user', first: Msg): Promise<TestSocket> {
  const s = await e.socket(channel);
  s.send(first);
  await s.drain();
  return s;
}

describe('market channel resume across an engine restart', () => {
  const t = new StreamTestEngine(HEADERS);
  before(() => t.start([alice]));
  after(() => t.close());

  it('a resume_from seq of the previous run gets a fresh book, not the new run\'s events of the same numbers', async () => {
    const [yes] = t.market.tokenIds;
    const open = async () => {
      const s = await t.socket('market');
      return s;
    };
    const before = await open();
    before.send({ assets_ids: [yes], type: 'market' });
    const [book] = (await before.drain()) as Msg[];
    await t.place(alice, { side: 'BUY', price: 200_000n, size: units(1) });
    const [change] = (await before.drain()) as Msg[];
    const lastSeen = change!.seq as number;
    assert.equal(lastSeen, (book!.seq as number) + 1);
    before.close();

    await t.restart();
    // The new run follows the asset and changes it several times before the client comes back.
    const watcher = await open();
    watcher.send({ assets_ids: [yes], type: 'market' });
    await watcher.drain();
    for (const price of [210_000n, 220_000n, 230_000n]) await t.place(alice, { side: 'BUY', price, size: units(1) });
    await watcher.drain();
    const back = await open();
    back.send({ assets_ids: [yes], type: 'market', resume_from: { [yes]: lastSeen } });
    const got = (await back.drain()) as Msg[];
    assert.deepEqual(got.map((m) => m.event_type), ['book'], JSON.stringify(got));
    assert.equal(got[0]!.hash, (await t.book(yes)).hash);
    assert.ok((got[0]!.seq as number) > lastSeen, 'seqs of the new run are above the old run\'s');
    watcher.close();
    back.close();
  });
});
