import { existsSync, readdirSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MAX_SPEED } from '../config.js';
import { TAPE_SUFFIX } from '../services/tapes/tapeFormat.js';
import type { ReplayState } from '../services/tapes/replayTypes.js';
import { examplesDir } from '../services/tapes/tapeService.js';
import { defineTool, ToolRefusal, type ToolDeps } from './toolKit.js';

const replayId = z.string().trim().min(1).max(100).describe('The replay id start_replay answered (e.g. "replay-1")');

function progress(s: ReplayState): string {
  return `${s.replayId} of ${s.question}: ${s.phase}, ${s.played}/${s.entries} tape entries played, ${s.printFills} fill(s) from public prints`;
}

/** The shipped example tapes (resources/tapes): replayable by name like the data directory's. */
function exampleTapes(): string[] {
  const dir = examplesDir();
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(TAPE_SUFFIX)).sort() : [];
}

/** Recorded public markets (tapes) and their replays as backtests (decisions §10, docs/tapes.md). */
export function registerReplayTools(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps;

  defineTool(server, deps, 'list_tapes', {
    title: 'Recorded tapes',
    description: "The tapes recorded from mirrored public markets in this engine's data directory (market, UTC day, entries, size), the shipped example tapes, and whether recording is on. start_replay replays one by name.",
    input: {},
  }, () => {
    const { recording, tapes } = ctx.tapes.list();
    const examples = exampleTapes();
    return { summary: `${tapes.length} recorded tape(s), ${examples.length} example tape(s); recording is ${recording ? 'on' : 'off'}.`, data: { recording, tapes: tapes as unknown as Record<string, unknown>[], examples } };
  });

  defineTool(server, deps, 'start_replay', {
    title: 'Replay a tape',
    description:
      "Replays a recorded tape as a backtest: creates the tape's market (a mirrored market with source tape:<name>) and plays its public book and prints on the exchange clock, `speed` tape ms per exchange ms. Under a stepped clock the tape plays as you advance (advance, run_until with stop_on replay_end): observe → act → advance, deterministically. Orders on the market fill against the recorded public depth and prints. replay_report gives your PnL, fees, fills and what other latencies would have filled.",
    write: true,
    input: {
      tape: z.string().trim().min(1).max(300).describe('A tape name from list_tapes (with or without .jsonl.gz); several of one market comma-separated play as one'),
      speed: z.number().positive().max(MAX_SPEED).optional().describe('Tape ms per exchange ms (default 1)'),
    },
  }, async ({ tape, speed }) => {
    // Names only: an agent reads tapes the engine lists, never a path of its choosing on the engine's disk.
    if (/[/\\]/.test(tape)) throw new ToolRefusal(`tape must be a tape name from list_tapes, not a path; got ${JSON.stringify(tape)}.`);
    const s = await ctx.replays.start({ tape, ...(speed === undefined ? {} : { speed }) });
    const stepped = ctx.clockService.mode === 'stepped';
    return { summary: `started ${progress(s)}; market ${s.conditionId}${stepped ? '. The tape plays as you advance the clock' : ''}.`, data: s as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'list_replays', {
    title: 'Replays',
    description: 'Every replay started in this engine and how far each got.',
    input: {},
  }, () => {
    const replays = ctx.replays.list();
    return { summary: `${replays.length} replay(s)${replays.length ? `: ${replays.map(progress).join('; ')}` : ''}.`, data: { replays: replays as unknown as Record<string, unknown>[] } };
  });

  defineTool(server, deps, 'replay_report', {
    title: "A replay's report",
    description:
      "A replay's progress and this agent's results on its market: PnL (realised, unrealised, net of fees; positions marked at the mid, the last trade where a side is empty, the payout once resolved), fees, fills, and the fillable view: what the same orders would have filled at 0, 150 and 500 ms of latency against the same tape.",
    input: { replay_id: replayId },
  }, ({ replay_id }) => {
    const r = ctx.replays.report(replay_id);
    const me = deps.agent.info.address.toLowerCase();
    // Other accounts' results on the market are theirs: an agent sees its own.
    const mine = r.accounts.find((a) => a.account.toLowerCase() === me) ?? null;
    const fillable = { method: r.fillable.method, latencies: r.fillable.latencies.map((l) => ({ latencyMs: l.latencyMs, account: l.accounts.find((a) => a.account.toLowerCase() === me) ?? null })) };
    const { accounts: _all, fillable: _fillable, ...state } = r;
    const result = mine ? `your PnL ${mine.pnl} (fees ${mine.fees}, ${mine.fills} fill(s))` : 'no fills of yours';
    return { summary: `${progress(r)}; ${result}.`, data: { ...state, account: mine, fillable } };
  });
}
