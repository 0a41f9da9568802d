import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { isApiError } from '../../protocol/errors.js';
import { openDatabase, type Db } from '../../store/database.js';
import { WriteBatcher } from '../../store/writeBatcher.js';
import { ManualClock } from '../clock.js';
import { MarketService, type MarketDeps } from '../markets/marketService.js';
import { MirrorService, STALE_AFTER_MS, type MirrorFeed } from './mirrorService.js';
import type { DecodeResult, MarketDecoder, PublicBookEvent, PublicMarketIdentity, TapeEntry } from './mirrorTypes.js';
import { publicIdentity } from '../../testkit/mirrorKit.js';

// The service's own rules (states, close, resolve, resync, persistence) over a real registry on SQLite.
// The upstream side here is a scripted feed handing over entries whose decoding the test states outright;
// the real transport and decoder against a real upstream engine are in mirrorRoutes.test.ts.

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const IDENTITY = publicIdentity({
  conditionId: '0x' + '1a'.repeat(32),
  questionId: '0x' + '2b'.repeat(32),
  question: 'Will the mirror hold?',
  tokenIds: ['1001', '1002'],
});

/** Entries carry the decoding the test wants in `e`: `{events, needsResync?}`. */
const scriptedDecoder: MarketDecoder = {
  decode(entry: TapeEntry): DecodeResult {
    const body = ('e' in entry ? entry.e : 'resync' in entry ? entry.resync : entry.market) as { events: PublicBookEvent[]; needsResync?: boolean };
    return { events: body.events, problems: [], needsResync: body.needsResync === true };
  },
};

class ScriptedFeed implements MirrorFeed {
  readonly sinks = new Map<string, (e: TapeEntry) => void>();
  readonly resyncs: string[] = [];
  readonly last = new Map<string, number>();
  closed = false;
  follow(identity: PublicMarketIdentity, sink: (e: TapeEntry) => void): void {
    this.sinks.set(identity.conditionId, sink);
  }
  resync(conditionId: string): Promise<void> {
    this.resyncs.push(conditionId);
    return Promise.resolve();
  }
  unfollow(conditionId: string): void {
    this.sinks.delete(conditionId);
  }
  lastEventAt(conditionId: string): number | null {
    return this.last.get(conditionId) ?? null;
  }
  close(): void {
    this.closed = true;
  }
  emit(conditionId: string, t: number, kind: 'e' | 'resync' | 'market', events: PublicBookEvent[], needsResync = false): void {
    this.last.set(conditionId, t);
    this.sinks.get(conditionId)!({ t, [kind]: { events, needsResync } } as TapeEntry);
  }
}

async function setup(dir = mkdtempSync(join(tmpdir(), 'mirror-')), applyPublic?: (conditionId: string, events: readonly PublicBookEvent[]) => Promise<unknown>) {
  if (!dirs.includes(dir)) dirs.push(dir);
  const clock = new ManualClock(1_800_000_000_000);
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  dbs.push(db);
  const markets = new MarketService({ clock, db, writes: new WriteBatcher(db), chain: { enabled: false, operatorAddress: '0x' + '11'.repeat(20), contracts: { collateral: '0x' + '22'.repeat(20) } } } as unknown as MarketDeps);
  await markets.init();
  const applied: Array<{ conditionId: string; events: readonly PublicBookEvent[] }> = [];
  const dropped: string[] = [];
  const feed = new ScriptedFeed();
  const mirrors = new MirrorService({
    clock,
    wallClock: clock,
    markets,
    orders: {
      applyPublic: async (conditionId, events) => {
        applied.push({ conditionId, events });
        return applyPublic ? applyPublic(conditionId, events) : { fills: 0 };
      },
      dropPublic: (conditionId) => {
        dropped.push(conditionId);
      },
    },
    upstream: {
      resolveMarket: async (ref) => {
        if (ref !== IDENTITY.slug && ref !== IDENTITY.conditionId) throw new Error(`unknown ${ref}`);
        return IDENTITY;
      },
      search: async () => [],
    },
    feed,
    decoderFor: () => scriptedDecoder,
  });
  await mirrors.init();
  return { dir, clock, markets, mirrors, feed, applied, dropped };
}

const SNAPSHOT: PublicBookEvent = { kind: 'snapshot', bids: [{ price: 400_000, size: 10_000_000 }], asks: [{ price: 600_000, size: 10_000_000 }] };

test('start creates the market with the public identity, follows it and applies decoded book events in order', async () => {
  const { mirrors, feed, applied, clock, markets } = await setup();
  const m = await mirrors.start(IDENTITY.slug);
  assert.equal(m.conditionId, IDENTITY.conditionId);
  assert.equal(m.mirrorSource, 'public');
  assert.ok(feed.sinks.has(IDENTITY.conditionId));
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'resync', [SNAPSHOT]);
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'bid', price: 400_000, size: 4_000_000 }]);
  await mirrors.idle();
  assert.deepEqual(
    applied.flatMap((a) => a.events.map((e) => e.kind)),
    ['snapshot', 'level'],
  );
  assert.deepEqual(mirrors.status(m.conditionId), { source: 'public', upstreamState: 'live', lastEventAgeMs: 0 });
  assert.equal(mirrors.status('0x' + '00'.repeat(32)), undefined);
  // The same market again while followed is the same record; a local market has mirror null.
  assert.equal((await mirrors.start(IDENTITY.conditionId)).conditionId, m.conditionId);
  const local = await markets.create({ question: 'A local one?', tickSize: 10_000n, minOrderSize: 5_000_000n });
  assert.equal(mirrors.recordStatus(local), null);
  assert.deepEqual(
    mirrors.list().map((r) => [r.conditionId, r.upstreamState, r.recording]),
    [[m.conditionId, 'live', false]],
  );
});

test('the entries of one turn (one upstream frame) are applied as one change, later ones as the next', async () => {
  const { mirrors, feed, applied, clock } = await setup();
  await mirrors.start(IDENTITY.slug);
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'resync', [SNAPSHOT]);
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'bid', price: 400_000, size: 4_000_000 }]);
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'ask', price: 600_000, size: 6_000_000 }]);
  await mirrors.idle();
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'bid', price: 400_000, size: 0 }]);
  await mirrors.idle();
  assert.deepEqual(
    applied.map((a) => a.events.map((e) => e.kind)),
    [['snapshot', 'level', 'level'], ['level']],
  );
});

test('entries that arrive while a change is being applied wait for it and are applied after it as the next change', async () => {
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const { mirrors, feed, applied, clock } = await setup(undefined, (_cid, events) => (events[0]!.kind === 'snapshot' ? slow : Promise.resolve()));
  await mirrors.start(IDENTITY.slug);
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'resync', [SNAPSHOT]);
  await Promise.resolve();
  await Promise.resolve();
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'bid', price: 400_000, size: 4_000_000 }]);
  feed.emit(IDENTITY.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'ask', price: 600_000, size: 6_000_000 }]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(applied.map((a) => a.events.map((e) => e.kind)), [['snapshot']], 'the later entries wait while the snapshot is applied');
  let idle = false;
  const waited = mirrors.idle().then(() => (idle = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(idle, false, 'idle() waits for the change in flight');
  release();
  await waited;
  assert.deepEqual(applied.map((a) => a.events.map((e) => e.kind)), [['snapshot'], ['level', 'level']]);
});

test('a change the public layer refuses asks for a resync, and the entries after it are still applied', async () => {
  const { mirrors, feed, applied, clock } = await setup(undefined, (_cid, events) => (events[0]!.kind === 'snapshot' ? Promise.reject(new Error('refused')) : Promise.resolve()));
  const m = await mirrors.start(IDENTITY.slug);
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    feed.emit(m.conditionId, clock.nowMs(), 'resync', [SNAPSHOT]);
    await mirrors.idle();
    feed.emit(m.conditionId, clock.nowMs(), 'e', [{ kind: 'level', side: 'bid', price: 400_000, size: 4_000_000 }]);
    await mirrors.idle();
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(feed.resyncs, [m.conditionId]);
  assert.deepEqual(applied.map((a) => a.events.map((e) => e.kind)), [['snapshot'], ['level']]);
});

test('two starts of one market at once create it once and answer the same market', async () => {
  const { mirrors, markets } = await setup();
  const [a, b] = await Promise.all([mirrors.start(IDENTITY.slug), mirrors.start(IDENTITY.conditionId)]);
  assert.equal(a.conditionId, b.conditionId);
  assert.equal(markets.list().length, 1);
});

test('30 s without an upstream event makes the market stale with its age; an event makes it live again', async () => {
  const { mirrors, feed, clock } = await setup();
  const m = await mirrors.start(IDENTITY.slug);
  feed.emit(m.conditionId, clock.nowMs(), 'resync', [SNAPSHOT]);
  await mirrors.idle();
  clock.advance(STALE_AFTER_MS);
  assert.equal(mirrors.status(m.conditionId)!.upstreamState, 'live');
  clock.advance(1);
  assert.deepEqual(mirrors.status(m.conditionId), { source: 'public', upstreamState: 'stale', lastEventAgeMs: STALE_AFTER_MS + 1 });
  // A heartbeat counts as an event (the feed's lastEventAt).
  feed.last.set(m.conditionId, clock.nowMs());
  assert.equal(mirrors.status(m.conditionId)!.upstreamState, 'live');
});

test('an entry that needs a resync asks the feed for one and stays stale until a good snapshot arrives', async () => {
  const { mirrors, feed, clock } = await setup();
  const m = await mirrors.start(IDENTITY.slug);
  feed.emit(m.conditionId, clock.nowMs(), 'e', [], true);
  await mirrors.idle();
  assert.deepEqual(feed.resyncs, [m.conditionId]);
  assert.equal(mirrors.status(m.conditionId)!.upstreamState, 'stale');
  feed.emit(m.conditionId, clock.nowMs(), 'resync', [SNAPSHOT]);
  await mirrors.idle();
  assert.equal(mirrors.status(m.conditionId)!.upstreamState, 'live');
});

test('a public close drops the public depth and closes the market; the resolution resolves it with the public winner and unfollows', async () => {
  const { mirrors, feed, clock, markets, dropped, applied } = await setup();
  const m = await mirrors.start(IDENTITY.slug);
  feed.emit(m.conditionId, clock.nowMs(), 'market', [{ kind: 'closed' }]);
  await mirrors.idle();
  assert.deepEqual(dropped, [m.conditionId]);
  assert.equal(markets.byCondition(m.conditionId)!.closed, true);
  assert.equal(mirrors.status(m.conditionId)!.upstreamState, 'closed');
  // Book events after the close are not applied: the public book is gone.
  feed.emit(m.conditionId, clock.nowMs(), 'e', [SNAPSHOT]);
  await mirrors.idle();
  assert.equal(applied.length, 0);
  feed.emit(m.conditionId, clock.nowMs(), 'market', [{ kind: 'resolved', winner: 1 }]);
  await mirrors.idle();
  const r = markets.byCondition(m.conditionId)!;
  assert.equal(r.winner, 1);
  assert.equal(r.mirrorFollowing, false);
  assert.equal(feed.sinks.has(m.conditionId), false);
  assert.equal(mirrors.status(m.conditionId)!.upstreamState, 'closed');
});

test('stopFollowing unfollows, drops the depth and closes the market; a stopped mirror cannot be started again and a local market is not a mirror', async () => {
  const { mirrors, feed, markets, dropped } = await setup();
  const m = await mirrors.start(IDENTITY.slug);
  const stopped = await mirrors.stopFollowing(m.conditionId);
  assert.equal(stopped.closed, true);
  assert.equal(stopped.mirrorFollowing, false);
  assert.deepEqual(dropped, [m.conditionId]);
  assert.equal(feed.sinks.has(m.conditionId), false);
  await assert.rejects(mirrors.start(IDENTITY.slug), (e) => isApiError(e) && /stopped; a stopped mirror stays closed/.test(e.message));
  const local = await markets.create({ question: 'Local?', tickSize: 10_000n, minOrderSize: 5_000_000n });
  await assert.rejects(mirrors.stopFollowing(local.conditionId), (e) => isApiError(e) && e.code === 'market_not_found');
});

test('mirrors persist: a restart follows again what was followed, not what was stopped', async () => {
  const first = await setup();
  await first.mirrors.start(IDENTITY.slug);
  await first.mirrors.stop();
  assert.equal(first.feed.closed, true);
  const again = await setup(first.dir);
  assert.ok(again.feed.sinks.has(IDENTITY.conditionId));
  await again.mirrors.stopFollowing(IDENTITY.conditionId);
  await again.mirrors.stop();
  const third = await setup(first.dir);
  assert.equal(third.feed.sinks.size, 0);
  await third.mirrors.stop();
});

test('entries reach the onEntry listeners as received, before decoding', async () => {
  const { mirrors, feed, clock } = await setup();
  const seen: Array<[string, number]> = [];
  mirrors.onEntry.add((conditionId, _identity, entry) => seen.push([conditionId, entry.t]));
  const m = await mirrors.start(IDENTITY.slug);
  feed.emit(m.conditionId, clock.nowMs(), 'e', [SNAPSHOT]);
  assert.deepEqual(seen, [[m.conditionId, clock.nowMs()]]);
  await mirrors.stop();
});
