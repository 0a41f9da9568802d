import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createEngine } from '../../engine.js';
import { startListeningEngine } from '../../testkit/clobClientKit.js';
import { UpstreamKit } from '../../testkit/upstreamKit.js';
import { runReplaysFast } from './fastReplay.js';
import { readTape } from './tapeReader.js';

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('recording a live mirror (decisions §10)', () => {
  it('--record writes what the mirror received from a live upstream with participants, and the tape replays to the same public book', async () => {
    const kit = await UpstreamKit.start();
    const cid = kit.market().conditionId;
    const { engine, host, close } = await startListeningEngine({ simulation: false, upstreamClob: kit.base, upstreamGamma: kit.base, upstreamWs: kit.wsUrl, mirrors: [cid], record: true });
    const replayDir = mkdtempSync(join(tmpdir(), 'record-replay-'));
    try {
      const op = async (method: string, path: string, body?: unknown) =>
        (await fetch(host + path, { method, headers: { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).json();
      const mirrors = (await op('GET', '/admin/mirrors')) as Array<{ conditionId: string; recording: boolean }>;
      assert.deepEqual(mirrors.map((m) => [m.conditionId, m.recording]), [[cid, true]]);
      // The participants trade upstream: wait for a tape with prints on it.
      await kit.trade(cid, '0.5', '10');
      await until('a tape with 30 entries', async () => (((await op('GET', '/admin/tapes')) as { tapes: Array<{ events: number }> }).tapes[0]?.events ?? 0) >= 30);
      // Stop the upstream, let the mirror apply what it received, and keep its public book.
      await kit.kill();
      await new Promise((r) => setTimeout(r, 300));
      const live = engine.ctx.orders.book(cid)!;
      const liveBook = { bids: live.levels('bid'), asks: live.levels('ask') };
      assert.ok(liveBook.bids.length > 0 && liveBook.asks.length > 0);
      const { tapes } = (await op('GET', '/admin/tapes')) as { tapes: Array<{ name: string; conditionId: string; events: number }> };
      assert.equal(tapes.length, 1);
      assert.equal(tapes[0]!.conditionId, cid);
      const tapePath = join(engine.ctx.config.dataDir, 'tapes', tapes[0]!.name);

      const replay = await createEngine({ dataDir: replayDir, chain: 'none', seedDemo: false, simulation: false, serveRenderer: false, clock: 'fast', seed: 1, replays: [tapePath] });
      try {
        await runReplaysFast(replay.ctx);
        const state = replay.ctx.replays.list()[0]!;
        assert.equal(state.played, state.entries);
        assert.equal(state.entries, tapes[0]!.events);
        const book = replay.ctx.orders.book(cid)!;
        assert.deepEqual({ bids: book.levels('bid'), asks: book.levels('ask') }, liveBook, 'the replayed public book is the one the live mirror had');
      } finally {
        await replay.close();
      }
    } finally {
      await close();
      await kit.close();
      rmSync(replayDir, { recursive: true, force: true });
    }
  });

  it('switched on mid-stream (POST /admin/tapes/recording), a tape asks the feed for a resync, so it holds a full book near its start', async () => {
    const kit = await UpstreamKit.start();
    const cid = kit.market().conditionId;
    const { engine, host, close } = await startListeningEngine({ simulation: false, upstreamClob: kit.base, upstreamGamma: kit.base, upstreamWs: kit.wsUrl, mirrors: [cid] });
    try {
      const op = async (method: string, path: string, body?: unknown) =>
        (await fetch(host + path, { method, headers: { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).json();
      // The mirror has its book and is following deltas when recording starts.
      await until('the public book', () => (engine.ctx.orders.book(cid)?.bestBid() ?? undefined) !== undefined);
      assert.deepEqual(await op('POST', '/admin/tapes/recording', { enabled: true }), { recording: true });
      await kit.trade(cid, '0.5', '5');
      await until('a tape with 10 entries', async () => (((await op('GET', '/admin/tapes')) as { tapes: Array<{ events: number }> }).tapes[0]?.events ?? 0) >= 10);
      assert.deepEqual(await op('POST', '/admin/tapes/recording', { enabled: false }), { recording: false });
      const { tapes } = (await op('GET', '/admin/tapes')) as { tapes: Array<{ name: string }> };
      const tape = readTape(join(engine.ctx.config.dataDir, 'tapes', tapes[0]!.name));
      const firstFull = tape.entries.findIndex((e) => 'resync' in e || ('e' in e && (e.e as { event_type?: string }).event_type === 'book'));
      assert.ok(firstFull >= 0 && firstFull < 10, `a full book among the first entries (at ${firstFull})`);
    } finally {
      await close();
      await kit.close();
    }
  });
});
