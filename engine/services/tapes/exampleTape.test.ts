import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createEngine } from '../../engine.js';
import { runReplaysFast } from './fastReplay.js';
import { readTape } from './tapeReader.js';
import { examplesDir } from './tapeService.js';

const EXAMPLE = 'example-calm-market';

describe('the shipped example tape (scripts/recordExampleTape.ts)', () => {
  it('is a version 1 tape recorded from a local upstream: a market poll, a resync, then market channel events', () => {
    const tape = readTape(join(examplesDir(), `${EXAMPLE}.jsonl.gz`));
    assert.deepEqual(tape.problems, []);
    assert.ok(tape.entries.length > 100);
    assert.ok('market' in tape.entries[0]! && 'resync' in tape.entries[1]!);
    const kinds = new Set(tape.entries.flatMap((e) => ('e' in e ? [(e.e as { event_type: string }).event_type] : [])));
    assert.ok(kinds.has('price_change') && kinds.has('last_trade_price'), [...kinds].join());
  });

  it('in real time starts the exchange clock at the tape start and plays on timers', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'example-real-'));
    const wall0 = Date.now();
    const engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, simulation: false, serveRenderer: false, speed: 100, replays: [EXAMPLE] });
    try {
      const [replay] = engine.ctx.replays.list();
      const now = engine.ctx.clock.nowMs();
      assert.ok(now >= replay!.tapeStart && now <= replay!.tapeStart + (Date.now() - wall0) * 100, `exchange time ${now} ran from the tape's start ${replay!.tapeStart} at 100×`);
      const deadline = Date.now() + 15_000;
      while (engine.ctx.replays.get(replay!.replayId).phase !== 'finished' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(engine.ctx.replays.get(replay!.replayId).played, replay!.entries, 'the 30 s tape played at 100× within the wait');
    } finally {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('replays by its name in a fast run with every entry decoded and the public depth on the book', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'example-replay-'));
    const engine = await createEngine({ dataDir, chain: 'none', seedDemo: false, simulation: false, serveRenderer: false, clock: 'fast', seed: 1, replays: [EXAMPLE] });
    try {
      const [replay] = engine.ctx.replays.list();
      assert.equal(engine.ctx.clockService.status().now, replay!.tapeStart, "the run's clock starts at the tape's start");
      const out = await runReplaysFast(engine.ctx);
      const state = engine.ctx.replays.get(replay!.replayId);
      assert.equal(state.played, state.entries);
      assert.equal(state.problemCount, 0, state.problems.join('\n'));
      assert.ok(out.speedup > 1, `faster than real time: ${out.speedup}×`);
      const book = engine.ctx.orders.book(state.conditionId)!;
      assert.ok(book.bestBid() !== undefined && book.bestAsk() !== undefined && book.bestBid()! < book.bestAsk()!, 'a two-sided public book, not crossed');
      assert.equal(engine.ctx.markets.byCondition(state.conditionId)!.mirrorSource, `tape:${EXAMPLE}.jsonl.gz`);
    } finally {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
