import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Wallet } from '@ethersproject/wallet';
import { ClobClient, OrderType, Side, type SignedOrder } from '@polymarket/clob-client';
import { createEngine } from '../../engine.js';
import { openDatabase } from '../../store/database.js';
import { MarketRepo } from '../../store/marketRepo.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';
import type { TapeEntry } from '../mirror/mirrorTypes.js';
import { runReplaysFast } from './fastReplay.js';
import type { ReplayReport } from './replayReport.js';
import { TapeWriter } from './tapeWriter.js';
import { publicIdentity } from '../../testkit/mirrorKit.js';

const T0 = Date.UTC(2030, 0, 1, 12);
const ALICE = new Wallet('0x' + '11'.repeat(32));
const identity = publicIdentity({
  conditionId: '0x' + 'c4'.repeat(32),
  questionId: '0x' + '02'.repeat(32),
  question: 'Will the replay fill the same twice?',
  tokenIds: ['7001', '7002'],
});
const YES = identity.tokenIds[0];
const NO = identity.tokenIds[1];

/** A small public market day as the market channel sends it: a book, changes, prints on both tokens, a close. */
const ENTRIES: TapeEntry[] = [
  { t: T0, e: { event_type: 'book', asset_id: YES, market: identity.conditionId, bids: [{ price: '0.40', size: '100' }, { price: '0.45', size: '50' }], asks: [{ price: '0.55', size: '80' }, { price: '0.50', size: '40' }], timestamp: String(T0) } },
  { t: T0, e: { event_type: 'book', asset_id: NO, market: identity.conditionId, bids: [{ price: '0.50', size: '40' }], asks: [{ price: '0.55', size: '50' }], timestamp: String(T0) } },
  { t: T0 + 1_000, e: { event_type: 'price_change', market: identity.conditionId, price_changes: [{ asset_id: YES, price: '0.50', size: '30', side: 'SELL' }, { asset_id: NO, price: '0.50', size: '30', side: 'BUY' }], timestamp: String(T0 + 1_000) } },
  { t: T0 + 60_000, e: { event_type: 'last_trade_price', asset_id: YES, market: identity.conditionId, price: '0.45', size: '60', side: 'SELL', timestamp: String(T0 + 60_000) } },
  { t: T0 + 60_000, e: { event_type: 'last_trade_price', asset_id: NO, market: identity.conditionId, price: '0.55', size: '60', side: 'BUY', timestamp: String(T0 + 60_000) } },
  { t: T0 + 60_005, e: { event_type: 'price_change', market: identity.conditionId, price_changes: [{ asset_id: YES, price: '0.45', size: '0', side: 'BUY' }], timestamp: String(T0 + 60_005) } },
  { t: T0 + 120_000, e: 'not an event' },
  { t: T0 + 240_000, market: { condition_id: identity.conditionId, closed: false, accepting_orders: true, tokens: [{ token_id: YES, winner: false }, { token_id: NO, winner: false }] } },
];

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function writeTape(entries: readonly TapeEntry[] = ENTRIES): string {
  const dir = mkdtempSync(join(tmpdir(), 'replay-tape-'));
  dirs.push(dir);
  const w = new TapeWriter(dir, identity, { clob: 'http://127.0.0.1:1', ws: 'ws://127.0.0.1:1/ws/market' });
  for (const e of entries) w.write(e);
  w.flush();
  return w.state!.path;
}

describe('replaying a tape (decisions §10)', () => {
  it('in stepped mode a stock client trades between advances, the report has its PnL and fillable view, and two runs give byte-identical trade records', async () => {
    const tape = writeTape();
    let bid: SignedOrder | undefined;
    let take: SignedOrder | undefined;
    const run = async () => {
      const { engine, host, close } = await startListeningEngine({ profile: 'polymarket', clock: 'stepped', seed: 3, simulation: false, replays: [tape] });
      try {
        const token = engine.ctx.secrets.operatorToken;
        const op = async (method: string, path: string, body?: unknown) => {
          const res = await fetch(host + path, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
          return { status: res.status, json: (await res.json()) as Record<string, unknown> };
        };
        assert.equal((await op('GET', '/admin/clock')).json.now, T0, "the run's clock starts at the tape's start");
        const first = await op('POST', '/admin/clock/advance', { seconds: 2 });
        assert.equal((first.json.processed as { tapeEvents: number }).tapeEvents, 3, 'the two books and the change are tape jobs');
        const market = (await (await fetch(`${host}/markets/${identity.conditionId}`)).json()) as { tokens: Array<{ token_id: string }>; mirror: { source: string; upstreamState: string } };
        assert.equal(market.tokens[0]!.token_id, YES, 'the market keeps its public identity');
        assert.deepEqual([market.mirror.source, market.mirror.upstreamState], [`tape:${tape.split('/').pop()}`, 'live']);
        const book = (await (await fetch(`${host}/book?token_id=${YES}`)).json()) as { asks: Array<{ price: string; size: string }> };
        assert.deepEqual(book.asks.at(-1), { price: '0.5', size: '30' }, 'public depth after the change');

        const client = new ClobClient(host, 137, ALICE, await new ClobClient(host, 137, ALICE).createOrDeriveApiKey());
        bid ??= await client.createOrder({ tokenID: YES, price: 0.45, side: Side.BUY, size: 20 }, { tickSize: '0.01', negRisk: false });
        take ??= await client.createOrder({ tokenID: YES, price: 0.5, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false });
        const rested = await client.postOrder(bid, OrderType.GTC);
        assert.equal(rested.status, 'live', JSON.stringify(rested));
        const taken = await client.postOrder(take, OrderType.FOK);
        assert.equal(taken.status, 'matched', JSON.stringify(taken));

        const rest = await op('POST', '/admin/clock/advance', { seconds: 300 });
        assert.equal((rest.json.processed as { tapeEvents: number }).tapeEvents, 5);
        const order = await client.getOrder(rested.orderID);
        assert.equal(order.size_matched, '10', 'the 60-share print passed the 50 public shares ahead of the bid and filled 10 of it');

        const replays = (await op('GET', '/admin/replays')).json as unknown as Array<{ replayId: string; phase: string }>;
        assert.equal(replays[0]!.phase, 'finished');
        const ended = (await (await fetch(`${host}/markets/${identity.conditionId}`)).json()) as { mirror: { upstreamState: string } };
        assert.equal(ended.mirror.upstreamState, 'closed', 'the tape has played: closed');
        const report = (await op('GET', `/admin/replays/${replays[0]!.replayId}`)).json as unknown as ReplayReport;
        assert.equal(report.played, ENTRIES.length);
        assert.equal(report.printFills, 1);
        assert.ok(report.problems.some((p) => p.includes('non-JSON frame')), 'the bad line is reported, not fatal');
        const alice = report.accounts.find((a) => a.account === ALICE.address.toLowerCase())!;
        assert.equal(alice.fills, 2);
        assert.equal(alice.positions[0]!.size, '20');
        assert.equal(report.accounts.length, 1, 'public-market is not a user account');
        const byLatency = new Map(report.fillable.latencies.map((l) => [l.latencyMs, l.accounts[0]!]));
        assert.deepEqual([...byLatency.keys()], [0, 150, 500]);
        assert.equal(byLatency.get(0)!.filled, '20', 'at the engine latency (0) the in-memory re-run gives the engine fills');
        assert.equal(byLatency.get(0)!.filledOrders, 2);
        assert.equal((await op('GET', '/admin/replays/nope')).status, 404);

        const runDir = (await op('GET', '/admin/clock')).json.runDir as string;
        const written = JSON.parse(readFileSync(join(runDir, `${replays[0]!.replayId}.json`), 'utf8')) as ReplayReport;
        assert.equal(written.played, ENTRIES.length, 'the finished replay wrote its report beside the run report');
        const trades = JSON.stringify(engine.ctx.db.prepare('SELECT * FROM trades ORDER BY id').all());
        const orders = JSON.stringify(engine.ctx.db.prepare('SELECT * FROM orders ORDER BY id').all());
        const exported = readFileSync(join(runDir, 'trades.jsonl'), 'utf8') + readFileSync(join(runDir, 'trades.csv'), 'utf8');
        assert.ok(exported.includes(ALICE.address.toLowerCase()));
        return { trades, orders, exported };
      } finally {
        await close();
      }
    };
    const a = await run();
    const b = await run();
    assert.equal(b.trades, a.trades, 'byte-identical trade rows');
    assert.equal(b.orders, a.orders, 'byte-identical order rows');
    assert.equal(b.exported, a.exported, 'byte-identical trade export of the run');
  });

  it('with --latency-ms 150 the orders meet the tape 150 ms after arrival, and the fillable view at 150 ms gives what the engine filled', async () => {
    const tape = writeTape();
    const { engine, host, close } = await startListeningEngine({ profile: 'polymarket', clock: 'stepped', seed: 3, simulation: false, replays: [tape], latencyMs: 150 });
    try {
      await engine.ctx.clockService.advance({ seconds: 2 });
      const client = new ClobClient(host, 137, ALICE, await new ClobClient(host, 137, ALICE).createOrDeriveApiKey());
      const bid = await client.postOrder(await client.createOrder({ tokenID: YES, price: 0.45, side: Side.BUY, size: 20 }, { tickSize: '0.01', negRisk: false }), OrderType.GTC);
      const take = await client.postOrder(await client.createOrder({ tokenID: YES, price: 0.5, side: Side.BUY, size: 10 }, { tickSize: '0.01', negRisk: false }), OrderType.FOK);
      assert.equal(bid.status, 'delayed', JSON.stringify(bid));
      assert.equal(take.status, 'delayed', JSON.stringify(take));
      await engine.ctx.clockService.advance({ seconds: 300 });
      assert.equal((await client.getOrder(bid.orderID)).size_matched, '10');
      assert.equal((await client.getOrder(take.orderID)).size_matched, '10');
      const report = engine.ctx.replays.report(engine.ctx.replays.list()[0]!.replayId);
      assert.equal(report.latencyMs, 150);
      const at150 = report.fillable.latencies.find((l) => l.latencyMs === 150)!.accounts[0]!;
      assert.deepEqual([at150.filled, at150.filledOrders], ['20', 2]);
      assert.equal(report.accounts[0]!.fills, 2);
    } finally {
      await close();
    }
  });

  it('in fast mode plays the whole tape without waiting, closes the market at the end and writes the report', async () => {
    const tape = writeTape();
    const dataDir = mkdtempSync(join(tmpdir(), 'replay-fast-'));
    dirs.push(dataDir);
    const engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, simulation: false, serveRenderer: false, clock: 'fast', seed: 1, replays: [tape] });
    try {
      const out = await runReplaysFast(engine.ctx);
      assert.equal(out.replays.length, 1);
      assert.equal(out.replays[0]!.entries, ENTRIES.length);
      assert.equal(out.simulatedSeconds, 240);
      assert.equal(engine.ctx.markets.byCondition(identity.conditionId)!.closed, true);
      assert.equal(engine.ctx.clockService.status().now, T0 + 240_000);
      assert.ok(readFileSync(out.replays[0]!.report, 'utf8').includes('"phase": "finished"'));
    } finally {
      await engine.close();
    }
  });

  it('an entry still playing when the engine closes ends before the stores close: its market closes, its report is written, and nothing touches the data directory after close resolves', async () => {
    // One entry: playing it plays the tape out, so the same job also closes the market and writes the report.
    const tape = writeTape(ENTRIES.slice(0, 1));
    const dataDir = mkdtempSync(join(tmpdir(), 'replay-close-'));
    dirs.push(dataDir);
    const engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, simulation: false, serveRenderer: false, clock: 'fast', seed: 1, replays: [tape] });
    const playing = engine.ctx.sim.scheduler.runNext();
    await engine.close();
    const files = readdirSync(dataDir, { recursive: true }).map(String).sort();
    const touched: string[] = [];
    const watcher = watch(dataDir, { recursive: true }, (event, name) => touched.push(`${event} ${name}`));
    try {
      await playing;
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      watcher.close();
    }
    const [replay] = engine.ctx.replays.list();
    assert.deepEqual([replay!.phase, replay!.problems], ['finished', []]);
    assert.ok(files.some((f) => f.endsWith('replay-1.json')), `the replay's report was written before close resolved: ${files.join(', ')}`);
    assert.deepEqual(touched, [], 'no file of the data directory changed after close resolved');
    assert.deepEqual(readdirSync(dataDir, { recursive: true }).map(String).sort(), files);
    const reopened = openDatabase(join(dataDir, 'exchange.sqlite'));
    try {
      assert.equal(new MarketRepo(reopened).all().find((m) => m.conditionId === identity.conditionId)?.closed, true, 'the market\'s close is durable');
    } finally {
      reopened.close();
    }
  });

  it('in real time plays a POST /admin/replays tape on timers at its speed; refuses an unknown tape (404 tape_not_found), a bad speed and a second replay of the same market (400)', async () => {
    const { engine, host, close } = await startListeningEngine({ simulation: false });
    try {
      const post = (body: unknown) => fetch(host + '/admin/replays', { method: 'POST', headers: { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const missing = await post({ tape: 'no-such-tape' });
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as { error: string }).error, 'tape_not_found');
      const tape = writeTape();
      assert.equal((await post({ tape, speed: 0 })).status, 400);
      const started = await post({ tape, speed: 1000 });
      assert.equal(started.status, 201);
      const state = (await started.json()) as { conditionId: string; replayId: string; phase: string };
      assert.equal(state.conditionId, identity.conditionId);
      assert.equal(state.phase, 'running');
      // Real time at 1000×: the 240 s tape plays in about a quarter of a second on timers.
      const deadline = Date.now() + 10_000;
      while (engine.ctx.replays.get(state.replayId).phase !== 'finished' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const done = engine.ctx.replays.get(state.replayId);
      assert.equal(done.phase, 'finished');
      assert.equal(done.played, ENTRIES.length);
      const record = (await (await fetch(`${host}/markets/${identity.conditionId}`)).json()) as { closed: boolean };
      assert.equal(record.closed, true, 'the market closes when its tape has played');
      assert.equal((await post({ tape })).status, 400, 'the same market cannot be replayed twice in one engine');
    } finally {
      await close();
    }
  });
});
