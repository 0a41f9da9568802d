import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { bookHashOf } from '../engine/protocol/bookHash.js';
import { ONE, formatUnits, parseUnits } from '../engine/protocol/amounts.js';
import type { TapeEntry } from '../engine/services/mirror/mirrorTypes.js';
import { createMarketDecoder as decoderFor } from '../engine/services/mirror/marketDecoder.js';
import { SyntheticPublicMarkets, startMirrorUpstream } from './mirrorUpstream.js';
import { syntheticIdentity } from './mirrorTape.js';

/** The §2.3 hash recomputed from a book's fields in the server's key order (what a verifying client does). */
function rehash(b: Record<string, unknown>): string {
  return bookHashOf({ market: b.market, asset_id: b.asset_id, timestamp: b.timestamp, hash: '', bids: b.bids, asks: b.asks, min_order_size: b.min_order_size, tick_size: b.tick_size, neg_risk: b.neg_risk, last_trade_price: b.last_trade_price });
}

test('the same seed gives the same markets and the same frames', () => {
  const frames = (seed: number) => {
    const g = new SyntheticPublicMarkets({ seed, markets: 3, nowMs: 1_000 });
    return JSON.stringify(Array.from({ length: 50 }, (_, i) => g.next(2_000 + i)));
  };
  assert.equal(frames(5), frames(5));
  assert.notEqual(frames(5), frames(6));
});

test('every price_change hash is the hash of that token’s book after the change, and every book event verifies', () => {
  const g = new SyntheticPublicMarkets({ seed: 1, markets: 2, nowMs: 1_000 });
  let books = 0;
  let changes = 0;
  for (let i = 0; i < 400; i++) {
    for (const { event } of g.next(2_000 + i)) {
      if (event.event_type === 'book') {
        books++;
        assert.equal(event.hash, rehash(event));
      }
      if (event.event_type === 'price_change') {
        for (const c of event.price_changes as Array<{ asset_id: string; hash: string }>) {
          changes++;
          const t = g.token(c.asset_id)!;
          assert.equal(c.hash, g.bookSummary(t.market, t.outcome).hash);
        }
      }
    }
  }
  assert.ok(books > 20 && changes > 400, `${books} books, ${changes} changes`);
});

test('the book of one token is the other token’s book mirrored at 1 − p, best last on both sides', () => {
  const g = new SyntheticPublicMarkets({ seed: 2, markets: 1, nowMs: 1_000 });
  const m = g.markets[0]!;
  const yes = g.bookSummary(m, 0) as unknown as { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }> };
  const no = g.bookSummary(m, 1) as unknown as typeof yes;
  const flip = (l: { price: string; size: string }) => ({ price: formatUnits(ONE - parseUnits(l.price)!), size: l.size });
  assert.deepEqual(no.bids, yes.asks.map(flip));
  assert.deepEqual(no.asks, yes.bids.map(flip));
  assert.ok(Number(yes.bids.at(-1)!.price) > Number(yes.bids[0]!.price), 'bids ascending');
  assert.ok(Number(yes.asks.at(-1)!.price) < Number(yes.asks[0]!.price), 'asks descending');
});

test('the upstream serves verifying books over REST and in the WebSocket initial dump, answers PING, and sends only subscribed tokens', async () => {
  const up = await startMirrorUpstream({ seed: 3, markets: 4 });
  try {
    const [a, b] = up.markets.markets;
    const rest = (await (await fetch(`${up.clobUrl}/book?token_id=${a!.tokenIds[1]}`)).json()) as Record<string, unknown>;
    assert.equal(rest.hash, rehash(rest));
    const info = (await (await fetch(`${up.clobUrl}/markets/${a!.conditionId}`)).json()) as { tokens: Array<{ token_id: string }> };
    assert.deepEqual(info.tokens.map((t) => t.token_id), [...a!.tokenIds]);
    assert.equal((await fetch(`${up.clobUrl}/book?token_id=1`)).status, 404);
    assert.equal((await fetch(`${up.clobUrl}/book?token_id=x`)).status, 400);
    assert.deepEqual(await (await fetch(`${up.clobUrl}/fee-rate?token_id=${a!.tokenIds[0]}`)).json(), { base_fee: 0 });

    const ws = new WebSocket(up.wsUrl);
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(d.toString()));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ assets_ids: [...a!.tokenIds], type: 'market', initial_dump: true }));
    ws.send('PING');
    up.start(400);
    await new Promise((r) => setTimeout(r, 400));
    up.stop();
    await new Promise((r) => setTimeout(r, 100));
    ws.terminate();
    const dump = JSON.parse(frames[0]!) as Array<Record<string, unknown>>;
    assert.deepEqual(dump.map((d) => d.asset_id), [...a!.tokenIds]);
    for (const d of dump) assert.equal(d.hash, rehash(d));
    assert.ok(frames.includes('PONG'));
    const events = frames.slice(1).filter((f) => f !== 'PONG').map((f) => JSON.parse(f) as Record<string, unknown>);
    assert.ok(events.length > 0, 'some events of the subscribed market arrived');
    for (const e of events) assert.equal(e.market, a!.conditionId, `only market a, not ${b!.conditionId}`);
  } finally {
    await up.close();
  }
});

test('the mirror decoder reads every synthetic frame without a problem or a resync, and its outcome-0 book follows the generator', () => {
  const g = new SyntheticPublicMarkets({ seed: 4, markets: 1, nowMs: 1_000 });
  const m = g.markets[0]!;
  const decoder = decoderFor(syntheticIdentity(m));
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  let prints = 0;
  const feed = (entry: TapeEntry) => {
    const r = decoder.decode(entry);
    assert.deepEqual(r.problems, [], JSON.stringify(entry).slice(0, 200));
    assert.equal(r.needsResync, false);
    for (const e of r.events) {
      if (e.kind === 'snapshot') {
        bids.clear();
        asks.clear();
        for (const l of e.bids) bids.set(l.price, l.size);
        for (const l of e.asks) asks.set(l.price, l.size);
      } else if (e.kind === 'level') {
        const side = e.side === 'bid' ? bids : asks;
        if (e.size === 0) side.delete(e.price);
        else side.set(e.price, e.size);
      } else if (e.kind === 'print') prints++;
    }
  };
  feed({ t: 1_000, e: g.bookEvent(m, 0) });
  feed({ t: 1_000, e: g.bookEvent(m, 1) });
  feed({ t: 1_001, resync: g.bookSummary(m, 0) });
  feed({ t: 1_002, market: g.marketInfo(m) });
  for (let i = 0; i < 1_000; i++) for (const f of g.next(2_000 + i)) feed({ t: 2_000 + i, e: f.event });
  const sorted = (x: Map<number, number>) => [...x].sort((a, b) => a[0] - b[0]);
  assert.deepEqual(sorted(bids), sorted(m.bids));
  assert.deepEqual(sorted(asks), sorted(m.asks));
  assert.ok(prints > 100, `${prints} prints, one per match`);
});
