import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TapeEntry } from '../services/mirror/mirrorTypes.js';
import { TapeWriter } from '../services/tapes/tapeWriter.js';
import { withMcpAgent } from '../testkit/mcpKit.js';
import { publicIdentity } from '../testkit/mirrorKit.js';

const EXAMPLE = 'example-calm-market.jsonl.gz';
const START = Date.UTC(2030, 0, 1);
// The tape's market is a demo market of the engine that recorded it: no demo markets here, so its ids are the tape's alone.
const STEPPED = { clock: 'stepped', clockStart: START, seed: 21, seedDemo: false, simulation: false } as const;

type Level = { price: string; size: string };

const T0 = Date.UTC(2029, 5, 1, 12);
const identity = publicIdentity({
  conditionId: '0x' + 'd5'.repeat(32),
  questionId: '0x' + '03'.repeat(32),
  question: 'Will the agent backtest end in a resolution?',
  tokenIds: ['8101', '8102'],
});
const [YES, NO] = identity.tokenIds;
const cid = identity.conditionId;
/** A public market's minutes as the market channel sent them: a book, a public seller printing through 0.50, then the resolution (Yes). */
const ENTRIES: TapeEntry[] = [
  { t: T0, e: { event_type: 'book', asset_id: YES, market: cid, bids: [{ price: '0.40', size: '100' }], asks: [{ price: '0.55', size: '80' }], timestamp: String(T0) } },
  { t: T0 + 90_000, e: { event_type: 'last_trade_price', asset_id: YES, market: cid, price: '0.45', size: '60', side: 'SELL', timestamp: String(T0 + 90_000) } },
  { t: T0 + 200_000, market: { condition_id: cid, closed: true, accepting_orders: false, tokens: [{ token_id: YES, winner: true }, { token_id: NO, winner: false }] } },
];

describe('MCP tapes and replays (issues 22 and 24)', () => {
  it('an agent lists the tapes, replays the example tape in a stepped engine, sees the market as a mirror of the tape, takes the recorded public depth, runs until the tape ends and reads its replay report', async () => {
    await withMcpAgent(STEPPED, async ({ client, call, agent }) => {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const t of ['search_public_markets', 'mirror_market', 'stop_mirror', 'list_tapes', 'start_replay', 'list_replays', 'replay_report']) assert.ok(tools.includes(t), `tool ${t} is listed`);
      const tapes = await call('list_tapes');
      assert.equal(tapes.ok, true, tapes.text);
      assert.equal(tapes.data.recording, false);
      assert.deepEqual(tapes.data.tapes, []);
      assert.ok((tapes.data.examples as string[]).includes(EXAMPLE), tapes.text);

      const started = await call('start_replay', { tape: 'example-calm-market', speed: 1 });
      assert.equal(started.ok, true, started.text);
      const replayId = started.data.replayId as string;
      const conditionId = started.data.conditionId as string;
      assert.equal(started.data.startedAt, START, "the replay starts at the engine's exchange time");
      assert.match(started.text, /plays as you advance/);

      const market = await call('get_market', { market: conditionId });
      assert.equal(market.ok, true, market.text);
      assert.deepEqual(market.data.mirror, { source: `tape:${EXAMPLE}`, upstreamState: 'live', lastEventAgeMs: null }, 'a replayed market is a mirror of its tape; nothing played before the first advance');
      assert.match(market.text, /mirrored from tape:example-calm-market\.jsonl\.gz \(live, no event yet\)/);
      assert.deepEqual(Object.keys(market.data.feeSchedule as object).sort(), ['exponent', 'rate', 'rebateRate', 'takerOnly']);
      const mirrored = await call('list_markets', { kind: 'mirrored' });
      assert.deepEqual((mirrored.data.markets as Array<{ conditionId: string }>).map((m) => m.conditionId), [conditionId]);
      assert.equal((await call('list_markets', { kind: 'local' })).data.total, 0);

      // The tape's first two entries (a market poll, then the book) play within its first tenth of a second.
      const adv = await call('advance', { seconds: 1 });
      assert.ok((adv.data.processed as { tapeEvents: number }).tapeEvents >= 2, adv.text);
      assert.match(adv.text, /tape entry/);
      const yes = (market.data.outcomes as Array<{ tokenId: string }>)[0]!.tokenId;
      const book = await call('get_book', { token_id: yes, depth: 3 });
      const asks = book.data.asks as Level[];
      assert.ok(asks.length > 0 && (book.data.bids as Level[]).length > 0, book.text);
      assert.equal(typeof ((await call('get_market', { market: yes })).data.mirror as { lastEventAgeMs: unknown }).lastEventAgeMs, 'number');

      const quote = await call('quote_order', { token_id: yes, side: 'BUY', size: '10' });
      assert.equal(quote.ok, true, quote.text);
      assert.equal(quote.data.averagePrice, asks[0]!.price, 'ten shares fit in the best public level');
      const take = await call('place_order', { token_id: yes, side: 'BUY', size: '10', type: 'FAK' });
      assert.equal(take.ok, true, take.text);
      assert.equal(take.data.status, 'matched');
      const trades = await call('get_trade_history');
      assert.equal((trades.data.trades as unknown[]).length, 1, trades.text);

      const ran = await call('run_until', { time: START + 3_600_000, stop_on: ['replay_end'] });
      assert.equal(ran.ok, true, ran.text);
      assert.equal(ran.data.stoppedBy, 'replay_end', ran.text);
      assert.equal(ran.data.now, START + 61_000, 'the 30 s tape ends in the first exchange minute after the call (which began 1 s in)');
      const closed = await call('get_market', { market: conditionId });
      assert.equal(closed.data.state, 'closed', 'a played-out tape takes no more orders');
      assert.equal((closed.data.mirror as { upstreamState: string }).upstreamState, 'closed');

      const report = await call('replay_report', { replay_id: replayId });
      assert.equal(report.ok, true, report.text);
      assert.equal(report.data.phase, 'finished');
      assert.equal(report.data.played, report.data.entries);
      const mine = report.data.account as { account: string; fills: number; fees: string };
      assert.equal(mine.account, agent.address);
      assert.equal(mine.fills, 1);
      const fillable = report.data.fillable as { latencies: Array<{ latencyMs: number; account: { filled: string } | null }> };
      assert.deepEqual(fillable.latencies.map((l) => l.latencyMs), [0, 150, 500]);
      assert.equal(fillable.latencies[0]!.account?.filled, '10', 'at 0 ms the FAK fills what it filled');
      assert.match(report.text, /finished, \d+\/\d+ tape entries played.*your PnL/);
      const replays = await call('list_replays');
      assert.deepEqual((replays.data.replays as Array<{ replayId: string; phase: string }>).map((r) => [r.replayId, r.phase]), [[replayId, 'finished']]);
    });
  });

  it('refuses a tape path, an unknown tape, a bad speed, an unknown replay and run_until replay_end with no replay running, as tool errors that say what to do', async () => {
    await withMcpAgent(STEPPED, async ({ call }) => {
      const path = await call('start_replay', { tape: '../../etc/passwd' });
      assert.equal(path.ok, false);
      assert.match(path.text, /tape must be a tape name from list_tapes, not a path/);
      const unknown = await call('start_replay', { tape: 'no-such-tape' });
      assert.equal(unknown.ok, false);
      assert.match(unknown.text, /^tape_not_found: /);
      const speed = await call('start_replay', { tape: 'example-calm-market', speed: 0 });
      assert.equal(speed.ok, false);
      assert.match(speed.text, /speed/);
      const report = await call('replay_report', { replay_id: 'replay-9' });
      assert.match(report.text, /^replay_not_found: /);
      const until = await call('run_until', { time: START + 60_000, stop_on: ['replay_end'] });
      assert.equal(until.ok, false);
      assert.match(until.text, /no replay is running.*start_replay/);
      assert.equal((await call('list_markets')).data.total, 0, 'no refused replay left a market behind');
    });
  });

  it('a tape written to the data directory is listed and replayed: a resting bid fills from a recorded print (run_until own_fill), the tape resolves the market (run_until resolution), and the report has the payout', async () => {
    await withMcpAgent(STEPPED, async ({ engine, call, agent }) => {
      const writer = new TapeWriter(engine.ctx.tapes.dir, identity, { clob: 'http://127.0.0.1:1', ws: 'ws://127.0.0.1:1/ws/market' });
      for (const e of ENTRIES) writer.write(e);
      writer.flush();
      const listed = await call('list_tapes');
      const tapes = listed.data.tapes as Array<{ name: string; conditionId: string; events: number }>;
      assert.deepEqual(tapes.map((t) => [t.conditionId, t.events]), [[cid, 3]], listed.text);

      const started = await call('start_replay', { tape: tapes[0]!.name });
      assert.equal(started.ok, true, started.text);
      await call('advance', { seconds: 1 });
      const bid = await call('place_order', { token_id: YES, side: 'BUY', size: '10', price: '0.5', type: 'GTC' });
      assert.equal(bid.data.status, 'live', bid.text);

      const filled = await call('run_until', { time: START + 3_600_000, stop_on: ['own_fill'] });
      assert.equal(filled.data.stoppedBy, 'own_fill', filled.text);
      assert.equal(filled.data.now, START + 121_000, 'the print at 90 s falls in the second minute after the call');
      assert.equal(((await call('list_open_orders')).data.orders as unknown[]).length, 0, 'the print took the whole bid');

      const resolved = await call('run_until', { time: START + 3_600_000, stop_on: ['resolution'] });
      assert.equal(resolved.data.stoppedBy, 'resolution', resolved.text);
      const market = await call('get_market', { market: cid });
      assert.equal(market.data.state, 'resolved');
      assert.equal(market.data.winner, 'Yes');

      const report = await call('replay_report', { replay_id: started.data.replayId });
      const mine = report.data.account as { account: string; fills: number; pnl: string };
      assert.deepEqual([mine.account, mine.fills, mine.pnl], [agent.address, 1, '5'], 'ten shares bought at 0.5 pay 1 each');
    });
  });

  it('the same stepped backtest on the example tape run twice gives identical replay reports and get_report answers', async () => {
    const run = () =>
      withMcpAgent(STEPPED, async ({ call }) => {
        const started = await call('start_replay', { tape: 'example-calm-market' });
        await call('advance', { seconds: 1 });
        const yes = ((await call('get_market', { market: started.data.conditionId })).data.outcomes as Array<{ tokenId: string }>)[0]!.tokenId;
        assert.equal((await call('place_order', { token_id: yes, side: 'BUY', size: '20', type: 'FAK' })).data.status, 'matched');
        assert.equal((await call('place_order', { token_id: yes, side: 'SELL', size: '10', price: '0.45', type: 'GTC' })).data.status, 'live');
        assert.equal((await call('run_until', { time: START + 3_600_000, stop_on: ['replay_end'] })).data.stoppedBy, 'replay_end');
        return { replay: (await call('replay_report', { replay_id: started.data.replayId })).data, report: (await call('get_report')).data };
      });
    const a = await run();
    const b = await run();
    assert.ok(((a.replay.account as { fills: number }).fills) >= 1);
    assert.deepEqual(a, b);
  });
});
