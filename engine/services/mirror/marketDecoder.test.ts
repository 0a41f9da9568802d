import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { bookHashOf } from '../../protocol/bookHash.js';
import { NO_FEE } from '../../protocol/feeSchedule.js';
import { canonicalHash, canonicalHashByObject, createMarketDecoder } from './marketDecoder.js';
import type { DecodeResult, PublicBookEvent, PublicMarketIdentity, TapeEntry } from './mirrorTypes.js';
import { identityFromClob } from './upstream/publicIdentity.js';

type Obj = Record<string, unknown>;
/** Frames captured from this project's engine in the polymarket profile (see the fixture's note). */
const capture = JSON.parse(readFileSync(new URL('./fixtures/upstreamCapture.json', import.meta.url), 'utf8')) as { market: Obj; book: Obj; frames: unknown[] };
const built = identityFromClob(capture.market, NO_FEE);
if ('problem' in built) throw new Error(built.problem);
const identity: PublicMarketIdentity = built;
const [YES, NO] = identity.tokenIds;
const CID = identity.conditionId;
const events = capture.frames.flatMap((f) => (Array.isArray(f) ? f : [f])) as Obj[];
const firstOf = (type: string, asset = YES) => events.find((e) => e.event_type === type && (e.asset_id === asset || (e.price_changes as Obj[] | undefined)?.[0]?.asset_id === asset))!;

function run(entries: TapeEntry[], id = identity): DecodeResult[] {
  const d = createMarketDecoder(id);
  return entries.map((e) => d.decode(e));
}
const e = (ev: unknown, t = 1): TapeEntry => ({ t, e: ev });

/** A book in the GET /book key order with its py-clob-client hash. */
function hashedBook(over: Obj = {}): Obj {
  const b: Obj = { market: CID, asset_id: YES, timestamp: '1000', hash: '', bids: [{ price: '0.3', size: '10' }, { price: '0.4', size: '20' }], asks: [{ price: '0.6', size: '5' }, { price: '0.5', size: '7' }], min_order_size: '5', tick_size: '0.01', neg_risk: false, last_trade_price: '0.45', ...over };
  return { ...b, hash: bookHashOf(b) };
}

describe('the market decoder', () => {
  it('decodes the captured GET /book answer into a snapshot, best level first, after checking its hash', () => {
    const [r] = run([{ t: 1, resync: capture.book }]);
    assert.deepEqual(r!.problems, []);
    assert.equal(r!.needsResync, false);
    const snap = r!.events[0] as Extract<PublicBookEvent, { kind: 'snapshot' }>;
    assert.equal(snap.kind, 'snapshot');
    const wireBids = (capture.book.bids as Array<{ price: string }>).map((l) => Math.round(Number(l.price) * 1e6));
    assert.deepEqual(snap.bids.map((l) => l.price), [...wireBids].sort((a, b) => b - a));
    assert.ok(snap.asks.every((l, i) => i === 0 || l.price > snap.asks[i - 1]!.price), 'asks ascending');
    assert.ok(snap.bids.every((l) => Number.isSafeInteger(l.size) && l.size > 0));
  });

  it('decodes the captured WS book then price_change deltas as levels on the outcome-0 book', () => {
    const book = events.find((x) => x.event_type === 'book' && x.asset_id === YES)!;
    const change = firstOf('price_change');
    const [b, c, tampered] = run([e(book), e(change), e({ ...book, bids: [...(book.bids as Obj[]).slice(1)] })]);
    assert.deepEqual(b!.problems, []);
    assert.equal(tampered!.needsResync, true, 'the same book less one level no longer matches its hash');
    assert.equal(b!.events.at(-1)!.kind, 'snapshot');
    assert.deepEqual(c!.problems, []);
    const rows = (change.price_changes as Obj[]).filter((r) => r.asset_id === YES);
    assert.deepEqual(
      c!.events,
      rows.map((r) => ({ kind: 'level', side: r.side === 'BUY' ? 'bid' : 'ask', price: Math.round(Number(r.price) * 1e6), size: Math.round(Number(r.size) * 1e6) })),
    );
  });

  it('ignores the outcome-1 book and outcome-1 price changes (the mirror image)', () => {
    const noBook = events.find((x) => x.event_type === 'book' && x.asset_id === NO)!;
    const noChange = firstOf('price_change', NO);
    const [b, c] = run([e(noBook), e(noChange)]);
    assert.deepEqual(b, { events: [], problems: [], needsResync: false });
    assert.deepEqual(c!.events, []);
  });

  it('emits one print per captured match: the outcome-0 print kept, its outcome-1 twin dropped', () => {
    const prints = events.filter((x) => x.event_type === 'last_trade_price');
    const out = run(prints.map((p) => e(p))).flatMap((r) => r.events);
    const yesPrints = prints.filter((p) => p.asset_id === YES);
    assert.equal(out.length, yesPrints.length);
    assert.deepEqual(
      out,
      yesPrints.map((p) => ({ kind: 'print', aggressor: p.side === 'BUY' ? 'bid' : 'ask', price: Math.round(Number(p.price) * 1e6), size: Math.round(Number(p.size) * 1e6) })),
    );
  });

  it('converts an outcome-1 print that arrives first (1 − p, taker side flipped) and drops the outcome-0 twin after it', () => {
    const pair = events.filter((x) => x.event_type === 'last_trade_price').slice(0, 2);
    const [no, yes] = pair[0]!.asset_id === NO ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
    const [first, second] = run([e(no), e(yes)]);
    assert.deepEqual(first!.events, [{ kind: 'print', aggressor: yes.side === 'BUY' ? 'bid' : 'ask', price: Math.round(Number(yes.price) * 1e6), size: Math.round(Number(yes.size) * 1e6) }]);
    assert.deepEqual(second!.events, []);
  });

  it('keeps two outcome-0 prints of one transaction (one taker, two makers)', () => {
    const p = { event_type: 'last_trade_price', asset_id: YES, market: CID, price: '0.4', size: '10', side: 'BUY', fee_rate_bps: '0', timestamp: '5', transaction_hash: '0xabc' };
    const out = run([e(p), e({ ...p, price: '0.41' })]).flatMap((r) => r.events);
    assert.equal(out.length, 2);
  });

  it('reads the pre-2025-09-15 price_change form (one asset, changes[])', () => {
    const old = { event_type: 'price_change', asset_id: YES, market: CID, hash: 'x', timestamp: '2000', changes: [{ price: '0.45', side: 'BUY', size: '12.5' }, { price: '0.55', side: 'SELL', size: '0' }] };
    const [, r] = run([{ t: 1, resync: hashedBook() }, e(old)]);
    assert.deepEqual(r!.events, [
      { kind: 'level', side: 'bid', price: 450_000, size: 12_500_000 },
      { kind: 'level', side: 'ask', price: 550_000, size: 0 },
    ]);
  });

  it('accepts a book hashed by py-clob-client 0.34.5 generate_orderbook_summary_hash (vector computed with the stock library)', () => {
    const id = { ...identity, conditionId: '0x' + 'c'.repeat(64), tokenIds: ['1'.repeat(73), '2'.repeat(73)] as const };
    const book = { market: '0x' + 'c'.repeat(64), asset_id: '1'.repeat(73), timestamp: '1786385407185', hash: '02fdfedab7592d0d7061f89df29c5fab0cdda1e6', bids: [{ price: '0.01', size: '2260866.89' }, { price: '0.430', size: '812.5' }], asks: [{ price: '0.99', size: '2253252.59' }, { price: '0.44', size: '400' }], min_order_size: '5', tick_size: '0.01', neg_risk: true, last_trade_price: '0.430' };
    const [ok, tampered] = run([{ t: 1, resync: book }, { t: 2, resync: { ...book, last_trade_price: '0.43' } }], id);
    assert.deepEqual(ok!.problems, []);
    assert.deepEqual(ok!.events, [{ kind: 'snapshot', bids: [{ price: 430_000, size: 812_500_000 }, { price: 10_000, size: 2_260_866_890_000 }], asks: [{ price: 440_000, size: 400_000_000 }, { price: 990_000, size: 2_253_252_590_000 }] }]);
    assert.equal(tampered!.needsResync, true, '"0.43" for "0.430" is another text, so another hash');
  });

  it('sorts a resync book explicitly whatever its order', () => {
    const shuffled = hashedBook({ bids: [{ price: '0.4', size: '20' }, { price: '0.3', size: '10' }] });
    const [r] = run([{ t: 1, resync: shuffled }]);
    assert.deepEqual(r!.events, [{ kind: 'snapshot', bids: [{ price: 400_000, size: 20_000_000 }, { price: 300_000, size: 10_000_000 }], asks: [{ price: 500_000, size: 7_000_000 }, { price: 600_000, size: 5_000_000 }] }]);
  });

  it('turns tick_size_change into one tick event (per market, not per token) and drops deltas until the next snapshot', () => {
    const tc = (asset: string) => ({ event_type: 'tick_size_change', asset_id: asset, market: CID, old_tick_size: '0.01', new_tick_size: '0.001', timestamp: '3000' });
    const delta = { event_type: 'price_change', market: CID, timestamp: '3001', price_changes: [{ asset_id: YES, price: '0.455', size: '3', side: 'BUY' }] };
    const [, t0, t1, d, s, d2] = run([{ t: 1, resync: hashedBook() }, e(tc(YES)), e(tc(NO)), e(delta), { t: 2, resync: hashedBook({ timestamp: '3002', tick_size: '0.001' }) }, e({ ...delta, timestamp: '3003' })]);
    assert.deepEqual(t0!.events, [{ kind: 'tick', tickSize: 1_000 }]);
    assert.equal(t0!.needsResync, true);
    assert.deepEqual(t1!.events, []);
    assert.deepEqual(d!.events, []);
    assert.equal(d!.needsResync, true);
    assert.equal(s!.events[0]!.kind, 'snapshot');
    assert.deepEqual(d2!.events, [{ kind: 'level', side: 'bid', price: 455_000, size: 3_000_000 }]);
  });

  it('resolves from market_resolved and from a CLOB market with a winner token, once', () => {
    const resolvedEv = { event_type: 'market_resolved', id: '1', market: CID, assets_ids: [YES, NO], winning_asset_id: NO, winning_outcome: 'No', timestamp: '9' };
    const [a, b] = run([e(resolvedEv), e(resolvedEv)]);
    assert.deepEqual(a!.events, [{ kind: 'resolved', winner: 1 }]);
    assert.deepEqual(b!.events, []);
    const tokens = (capture.market.tokens as Obj[]).map((tk, i) => ({ ...tk, winner: i === 0 }));
    const [c] = run([{ t: 1, market: { ...capture.market, closed: true, accepting_orders: false, tokens } }]);
    assert.deepEqual(c!.events, [{ kind: 'resolved', winner: 0 }]);
  });

  it('says closed once when the CLOB market stops accepting orders, even when it still says accepting (closed wins)', () => {
    const [a, b] = run([{ t: 1, market: capture.market }, { t: 2, market: { ...capture.market, accepting_orders: false } }]);
    assert.deepEqual(a!.events, []);
    assert.deepEqual(b!.events, [{ kind: 'closed' }]);
    const [c, d] = run([{ t: 1, market: { ...capture.market, closed: true, accepting_orders: true, minimum_tick_size: 0.001 } }, { t: 2, market: { ...capture.market, closed: true } }]);
    assert.deepEqual(c!.events, [{ kind: 'closed' }], 'a (possibly stale) tick in the market object is not a tick change');
    assert.deepEqual(d!.events, []);
  });

  it('infers a winner from a closed Gamma market whose prices are 1 and 0 (reference §4)', () => {
    const [r] = run([{ t: 1, market: { conditionId: CID, closed: true, outcomePrices: '["0", "1"]' } }]);
    assert.deepEqual(r!.events, [{ kind: 'resolved', winner: 1 }]);
    const [s] = run([{ t: 1, market: { conditionId: CID, closed: true, outcomePrices: '["0.5", "0.5"]' } }]);
    assert.deepEqual(s!.events, [{ kind: 'closed' }]);
  });

  it('ignores a socket book older than the snapshot in force, but always applies a resync', () => {
    const [, older, resync] = run([{ t: 1, resync: hashedBook({ timestamp: '5000' }) }, e({ event_type: 'book', ...hashedBook({ timestamp: '4000' }) }), { t: 2, resync: hashedBook({ timestamp: '3000' }) }]);
    assert.deepEqual(older, { events: [], problems: [], needsResync: false });
    assert.equal(resync!.events[0]!.kind, 'snapshot');
  });

  it('stops checking hashes after three mismatching books in a row (an upstream that hashes differently), but refuses one liar between honest books', () => {
    const liar = (ts: string) => ({ t: 1, resync: { ...hashedBook({ timestamp: ts }), hash: 'bad' } });
    const [a, honest, b, c, d] = run([liar('1'), { t: 1, resync: hashedBook({ timestamp: '2' }) }, liar('3'), liar('4'), liar('5')]);
    assert.deepEqual(a!.events, []);
    assert.equal(honest!.events[0]!.kind, 'snapshot');
    assert.deepEqual(b!.events, []);
    assert.deepEqual(c!.events, []);
    assert.equal(d!.events[0]!.kind, 'snapshot');
    assert.match(d!.problems[0]!, /3 books in a row did not match their hash/);
    assert.equal(d!.needsResync, false);
  });

  it('drops a price_change that arrives before any snapshot and asks for a resync', () => {
    const [r] = run([e(firstOf('price_change'))]);
    assert.deepEqual(r!.events, []);
    assert.equal(r!.needsResync, true);
  });

  it('drops a delta older than the snapshot silently (already in it) and an out-of-order one with a resync', () => {
    const delta = (ts: string) => ({ event_type: 'price_change', market: CID, timestamp: ts, price_changes: [{ asset_id: YES, price: '0.45', size: '3', side: 'BUY' }] });
    const [, older, newer, backwards] = run([{ t: 1, resync: hashedBook({ timestamp: '5000' }) }, e(delta('4000')), e(delta('6000')), e(delta('5500'))]);
    assert.deepEqual(older, { events: [], problems: [], needsResync: false });
    assert.equal(newer!.events.length, 1);
    assert.deepEqual(backwards!.events, []);
    assert.equal(backwards!.needsResync, true);
    assert.match(backwards!.problems[0]!, /out of order/);
  });

  // The reference's example frames (websocket.md §2.2, public-market-data.md §3.2), with this market's ids.
  const referenceFrames: Array<[string, unknown, PublicBookEvent[]]> = [
    ['book (no min_order_size: hash not recomputable, accepted)', { event_type: 'book', asset_id: YES, market: CID, bids: [{ price: '0.48', size: '30' }, { price: '0.49', size: '20' }], asks: [{ price: '0.52', size: '25' }, { price: '0.51', size: '10' }], timestamp: '1786385407185', hash: '0x0', tick_size: '0.01', last_trade_price: '0.50' },
      [{ kind: 'snapshot', bids: [{ price: 490_000, size: 20_000_000 }, { price: 480_000, size: 30_000_000 }], asks: [{ price: 510_000, size: 10_000_000 }, { price: 520_000, size: 25_000_000 }] }]],
    ['price_change of both tokens (docs example: token A BUY 0.5, token B SELL 0.5)', { event_type: 'price_change', market: CID, timestamp: '1786385407186', price_changes: [{ asset_id: YES, price: '0.5', size: '200', side: 'BUY', hash: 'h1', best_bid: '0.5', best_ask: '0.51' }, { asset_id: NO, price: '0.5', size: '200', side: 'SELL', hash: 'h2', best_bid: '0.49', best_ask: '0.5' }] },
      [{ kind: 'level', side: 'bid', price: 500_000, size: 200_000_000 }]],
    ['last_trade_price', { event_type: 'last_trade_price', asset_id: YES, market: CID, price: '0.456', size: '219.217767', side: 'BUY', fee_rate_bps: '0', timestamp: '1786385407187', transaction_hash: '0x' + 'ab'.repeat(32) },
      [{ kind: 'print', aggressor: 'bid', price: 456_000, size: 219_217_767 }]],
    ['best_bid_ask (a summary: nothing to do)', { event_type: 'best_bid_ask', market: CID, asset_id: YES, best_bid: '0.5', best_ask: '0.51', spread: '0.01', timestamp: '1786385407188' }, []],
    ['tick_size_change', { event_type: 'tick_size_change', asset_id: YES, market: CID, old_tick_size: '0.01', new_tick_size: '0.001', timestamp: '1786385407189' }, [{ kind: 'tick', tickSize: 1_000 }]],
    ['market_resolved', { event_type: 'market_resolved', id: '612345', market: CID, assets_ids: [YES, NO], winning_asset_id: YES, winning_outcome: 'Yes', timestamp: '1786385407190', tags: [] }, [{ kind: 'resolved', winner: 0 }]],
  ];
  it('decodes the reference example frames in sequence', () => {
    const d = createMarketDecoder(identity);
    for (const [what, ev, expected] of referenceFrames) {
      const r = d.decode({ t: 1, e: ev });
      assert.deepEqual(r.problems, [], what);
      assert.deepEqual(r.events, expected, what);
    }
  });

  /** [what, event, problem, needsResync, the rest of the book still decodes] */
  const bad: Array<[string, unknown, RegExp, boolean?, boolean?]> = [
    ['a book whose hash lies', { ...hashedBook(), hash: 'deadbeef' }, /hash deadbeef does not match/, true],
    ['a crossed book', hashedBook({ bids: [{ price: '0.6', size: '1' }] }), /crossed book/, true],
    ['a book level priced 1.5', hashedBook({ bids: [{ price: '1.5', size: '1' }] }), /outside \(0, 1\)/, false, true],
    ['an off-tick book level', hashedBook({ bids: [{ price: '0.305', size: '1' }] }), /off the 0.01 tick/, false, true],
    ['a negative size', hashedBook({ asks: [{ price: '0.6', size: '-5' }] }), /size "-5" is not a non-negative decimal/, false, true],
    ['a number where a decimal string belongs', hashedBook({ bids: [{ price: 0.3, size: '1' }] }), /must be \{price: string, size: string\}/, false, true],
    ['an unknown asset', { ...hashedBook(), asset_id: '123' }, /unknown asset 123/],
    ['a non-JSON frame', 'hello', /non-JSON/],
    ['an array of events', [hashedBook()], /an array of events/],
    ['an event of another market', { ...hashedBook(), market: '0x' + '1'.repeat(64) }, /another market/],
    ['an event with no event_type', { asset_id: YES }, /without a string event_type/],
    ['an unknown event_type', { event_type: 'mystery', market: CID }, /unknown event_type mystery/],
    ['a print priced 1.5', { event_type: 'last_trade_price', asset_id: YES, market: CID, price: '1.5', size: '1', side: 'BUY', timestamp: '1' }, /outside \(0, 1\)/],
    ['a print of size 0', { event_type: 'last_trade_price', asset_id: YES, market: CID, price: '0.5', size: '0', side: 'BUY', timestamp: '1' }, /positive decimal/],
    ['a print with side HOLD', { event_type: 'last_trade_price', asset_id: YES, market: CID, price: '0.5', size: '1', side: 'HOLD', timestamp: '1' }, /BUY or SELL/],
    ['a tick change to 2', { event_type: 'tick_size_change', asset_id: YES, market: CID, new_tick_size: '2', timestamp: '1' }, /not a decimal in \(0, 1\)/],
    ['a resolution for a stranger', { event_type: 'market_resolved', market: CID, winning_asset_id: '42', winning_outcome: 'Maybe' }, /not an outcome/],
    ['a price_change with a timestamp number', { event_type: 'price_change', market: CID, timestamp: 12, price_changes: [] }, /not unix ms text/],
  ];
  for (const [what, ev, problem, resync, keepsBook] of bad) {
    it(`reports ${what} as a problem without throwing or emitting it`, () => {
      const entry: TapeEntry = ev !== null && typeof ev === 'object' && 'bids' in ev ? { t: 1, e: { event_type: 'book', ...ev } } : { t: 1, e: ev };
      const [r] = run([entry]);
      assert.ok(r!.problems.some((p) => problem.test(p)), `problems: ${JSON.stringify(r!.problems)}`);
      assert.ok(!r!.events.some((x) => x.kind === 'snapshot' && JSON.stringify(x).includes('1500000')));
      if (keepsBook) assert.equal(r!.events.length, 1, 'the rest of the book is kept');
      else assert.deepEqual(r!.events, []);
      assert.equal(r!.needsResync, resync ?? false);
    });
  }

  it('hashes a book from its direct text exactly as from the canonical object, whatever its levels hold', () => {
    const books: Obj[] = [
      hashedBook(),
      hashedBook({ neg_risk: true, last_trade_price: '', bids: [], asks: [] }),
      // Extra level fields are not hashed; a missing one, numbers, escapes and non-ASCII take the canonical path.
      hashedBook({ bids: [{ price: '0.3', size: '10', extra: 1 }] }),
      hashedBook({ bids: [{ price: '0.3' }], asks: [{ size: '1', price: '0.6' }] }),
      hashedBook({ bids: [{ price: 0.3, size: 10 }], asks: [null, 5, ['0.6', '1']] }),
      hashedBook({ bids: [{ price: 'a"b\\c', size: '\u0001' }], asks: [{ price: '0.6é', size: '1\ud800' }] }),
      hashedBook({ market: CID.toUpperCase().replace('0X', '0x'), timestamp: '1786385407185', min_order_size: 5, tick_size: 0.01, last_trade_price: null }),
    ];
    for (const b of books) assert.equal(canonicalHash(b), canonicalHashByObject(b), JSON.stringify(b));
    assert.equal(canonicalHash(books[0]!), books[0]!.hash, 'the py-clob-client hash of a plain book');
    assert.equal(canonicalHash({ ...hashedBook(), neg_risk: undefined }), undefined, 'a book without every field of the GET /book form is not recomputable');
  });

  it('accepts a book whose level objects carry extra fields (hashed as {price, size}) and refuses it once a size is changed', () => {
    const unhashed = hashedBook({ bids: [{ price: '0.3', size: '10', note: 'x' }, { price: '0.4', size: '20' }] });
    const book = { ...unhashed, hash: canonicalHashByObject(unhashed) };
    const [ok, lying] = run([{ t: 1, resync: book }, { t: 2, resync: { ...book, bids: [{ price: '0.3', size: '11', note: 'x' }, { price: '0.4', size: '20' }] } }]);
    assert.deepEqual(ok!.problems, []);
    assert.equal(ok!.events[0]!.kind, 'snapshot');
    assert.equal(lying!.needsResync, true);
    assert.match(lying!.problems[0]!, /does not match the book/);
  });

  it('decodes a side listed best last, best first or shuffled to the same levels, best first; a price listed twice keeps the last and says so', () => {
    const bids = [{ price: '0.2', size: '1' }, { price: '0.3', size: '2' }, { price: '0.4', size: '3' }];
    const asks = [{ price: '0.7', size: '4' }, { price: '0.6', size: '0' }, { price: '0.5', size: '5' }];
    const want = { kind: 'snapshot', bids: [{ price: 400_000, size: 3_000_000 }, { price: 300_000, size: 2_000_000 }, { price: 200_000, size: 1_000_000 }], asks: [{ price: 500_000, size: 5_000_000 }, { price: 700_000, size: 4_000_000 }] };
    for (const [b, a] of [[bids, asks], [[...bids].reverse(), [...asks].reverse()], [[bids[1]!, bids[0]!, bids[2]!], [asks[2]!, asks[0]!, asks[1]!]]]) {
      const [r] = run([{ t: 1, resync: hashedBook({ bids: b, asks: a }) }]);
      assert.deepEqual(r!.problems, []);
      assert.deepEqual(r!.events, [want]);
    }
    const [dup] = run([{ t: 1, resync: hashedBook({ bids: [{ price: '0.2', size: '1' }, { price: '0.3', size: '2' }, { price: '0.3', size: '7' }], asks }) }]);
    assert.deepEqual(dup!.problems, ['resync: bid level 0.3 listed twice; the last one kept']);
    assert.deepEqual((dup!.events[0] as Extract<PublicBookEvent, { kind: 'snapshot' }>).bids, [{ price: 300_000, size: 7_000_000 }, { price: 200_000, size: 1_000_000 }]);
  });

  it('never throws on garbage entries', () => {
    const d = createMarketDecoder(identity);
    for (const g of [null, 1, 'x', [], {}, { t: 1 }, { t: 1, e: null }, { t: 1, resync: null }, { t: 1, market: [] }, { t: 1, e: { event_type: 'price_change', market: CID, timestamp: '1', price_changes: [null, 1, { asset_id: YES }] } }]) {
      const r = d.decode(g as TapeEntry);
      assert.ok(r.problems.length > 0, JSON.stringify(g));
    }
  });
});
