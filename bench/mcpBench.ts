/**
 * MCP reads (issue 24): a tool call that reads, over Streamable HTTP with the SDK's own client, beside the
 * same REST read, on one listening engine. Like with like: both sides go through node's fetch (undici, its
 * global keep-alive pool), one call at a time, and both end with the answer parsed (the SDK client parses
 * the JSON-RPC answer; the REST side `r.json()`s). Rounds alternate REST and tool so a neighbour's burst on
 * a shared machine hits both; each round's p99 is kept and the figure is the median of the rounds'.
 * Target: the tool's p99 ≤ 2× the REST read's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createEngine } from '../engine/engine.js';
import { fastRun, HOUR, withEngine } from './clockBench.js';

export interface ReadRound {
  restP99Ms: number;
  toolP99Ms: number;
  rpcP99Ms: number;
}

/** Garbage collections (any kind) while one side's calls ran: how many per 1,000 calls, and their pause total. */
export interface GcShare {
  perThousandCalls: number;
  pauseMsPerThousandCalls: number;
}

export interface ReadPair {
  name: string;
  restP50Ms: number;
  /** Median of the rounds' p99s. */
  restP99Ms: number;
  toolP50Ms: number;
  toolP99Ms: number;
  /**
   * The same tools/call POSTed as JSON-RPC with plain fetch (no SDK client) on the SDK client's session:
   * the server's share of a tool call.
   */
  rpcP50Ms: number;
  rpcP99Ms: number;
  rounds: ReadRound[];
  restGc: GcShare;
  toolGc: GcShare;
  rpcGc: GcShare;
}

/** Rounds × calls per round per side; `MCP_BENCH_CALLS` shortens a run (e.g. 500). */
const ROUNDS = 5;
const PER_ROUND = Number(process.env.MCP_BENCH_CALLS ?? 2000);
const WARM_UP = 200;

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Client and engine share this process, so these are both sides' collections. */
const gcs: PerformanceEntry[] = [];
const gcObserver = new PerformanceObserver((list) => void gcs.push(...list.getEntries()));

async function timeEach(n: number, run: () => Promise<unknown>, gc?: { count: number; ms: number }): Promise<number[]> {
  const into: number[] = [];
  const from = gcs.length;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    into.push(performance.now() - t0);
  }
  // Entries are delivered after the calls' turn: wait one macrotask so the last ones are in.
  await new Promise((r) => setImmediate(r));
  if (gc) {
    for (const e of gcs.slice(from)) gc.ms += e.duration;
    gc.count += gcs.length - from;
  }
  return into;
}

const share = (gc: { count: number; ms: number }, calls: number): GcShare => ({ perThousandCalls: (1000 * gc.count) / calls, pauseMsPerThousandCalls: (1000 * gc.ms) / calls });

/**
 * fetch for the SDK's client transport with a signal per request. The transport (SDK 1.32.2) hands every
 * POST the same long-lived AbortSignal (its `_abortController`, aborted by `close()`); node's fetch adds
 * an abort listener to it per request and removes it only when that request is garbage-collected, so
 * the list grows between collections and each call walks it (node warns past 1,500 listeners). A
 * per-request signal, linked to the shared one until the response arrives, keeps `close()` aborting what
 * is in flight and the shared signal's list at one.
 */
export const fetchWithOwnSignal: FetchLike = async (url, init) => {
  const shared = init?.signal;
  if (!shared) return fetch(url, init);
  const own = new AbortController();
  const abort = () => own.abort(shared.reason);
  if (shared.aborted) abort();
  else shared.addEventListener('abort', abort, { once: true });
  try {
    return await fetch(url, { ...init, signal: own.signal });
  } finally {
    shared.removeEventListener('abort', abort);
  }
};

/** `MCP_BENCH_SDK_FETCH=1` measures the SDK's own fetch (the shared signal) instead. */
export function mcpClientTransport(url: string, token: string): StreamableHTTPClientTransport {
  const own = process.env.MCP_BENCH_SDK_FETCH ? undefined : fetchWithOwnSignal;
  return new StreamableHTTPClientTransport(new URL(url), { fetch: own, requestInit: { headers: { authorization: `Bearer ${token}` } } });
}

export async function runMcpBench(): Promise<ReadPair[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'));
  gcObserver.observe({ entryTypes: ['gc'] });
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation: false });
  try {
    const ready = await engine.listen();
    const agent = await engine.ctx.agents.create({ name: 'bench' });
    const market = engine.ctx.markets.list()[0]!;
    const token = market.tokenIds[0];
    const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
    const transport = mcpClientTransport(`${ready.trading}/mcp`, agent.token);
    await client.connect(transport);
    const rpcHeaders = { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': transport.protocolVersion! };
    let rpcId = 1_000_000;
    const rpc = (params: { name: string; arguments: Record<string, unknown> }) => () =>
      fetch(`${ready.trading}/mcp`, { method: 'POST', headers: rpcHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method: 'tools/call', params }) }).then((r) => r.json());
    // The agent holds a position, so both position reads have a row to value.
    await client.callTool({ name: 'place_order', arguments: { token_id: token, side: 'BUY', size: '10', type: 'FOK' } });
    const reads = [
      { name: 'book', rest: () => fetch(`${ready.trading}/book?token_id=${token}`).then((r) => r.json()), call: { name: 'get_book', arguments: { token_id: token, depth: 100 } } },
      { name: 'positions', rest: () => fetch(`${ready.data}/positions?user=${agent.address}`).then((r) => r.json()), call: { name: 'get_positions', arguments: {} } },
    ];
    const pairs = reads.map((r) => ({ ...r, tool: () => client.callTool(r.call), rpc: rpc(r.call) }));
    const out: ReadPair[] = [];
    for (const p of pairs) {
      const rest: number[] = [];
      const tool: number[] = [];
      const rpcs: number[] = [];
      const rounds: ReadRound[] = [];
      const restGc = { count: 0, ms: 0 };
      const toolGc = { count: 0, ms: 0 };
      const rpcGc = { count: 0, ms: 0 };
      await timeEach(WARM_UP, p.rest);
      await timeEach(WARM_UP, p.tool);
      await timeEach(WARM_UP, p.rpc);
      for (let r = 0; r < ROUNDS; r++) {
        const re = await timeEach(PER_ROUND, p.rest, restGc);
        const to = await timeEach(PER_ROUND, p.tool, toolGc);
        const rp = await timeEach(PER_ROUND, p.rpc, rpcGc);
        rpcs.push(...rp);
        rest.push(...re);
        tool.push(...to);
        rounds.push({ restP99Ms: pct(re, 99), toolP99Ms: pct(to, 99), rpcP99Ms: pct(rp, 99) });
      }
      out.push({
        name: p.name,
        restP50Ms: pct(rest, 50),
        restP99Ms: pct(rounds.map((x) => x.restP99Ms), 50),
        toolP50Ms: pct(tool, 50),
        toolP99Ms: pct(rounds.map((x) => x.toolP99Ms), 50),
        rpcP50Ms: pct(rpcs, 50),
        rpcP99Ms: pct(rounds.map((x) => x.rpcP99Ms), 50),
        rounds,
        restGc: share(restGc, rest.length),
        toolGc: share(toolGc, tool.length),
        rpcGc: share(rpcGc, rpcs.length),
      });
    }
    await client.close();
    return out;
  } finally {
    gcObserver.disconnect();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface McpAdvanceResult {
  /** Wall seconds of one simulated hour: the MCP `advance` tool, and --clock fast, best of two each. */
  toolWallSeconds: number;
  fastWallSeconds: number;
  /** tool rate ÷ fast rate. */
  ratio: number;
}

/** The clock bench's hour of the calm preset, stepped by an agent's `advance` call over MCP, beside --clock fast. */
export async function runMcpAdvanceBench(): Promise<McpAdvanceResult> {
  const tool: number[] = [];
  const fast: number[] = [];
  for (let i = 0; i < 2; i++) {
    fast.push(await fastRun());
    tool.push(
      await withEngine({ clock: 'stepped' }, async (e) => {
        const ready = await e.listen();
        const agent = await e.ctx.agents.create({ name: 'bench' });
        const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
        await client.connect(mcpClientTransport(`${ready.trading}/mcp`, agent.token));
        // Timed from the scenario's start, as the fast run is.
        const t0 = performance.now();
        await e.ctx.scenarios.start({ scenario: HOUR });
        const r = await client.callTool({ name: 'advance', arguments: { seconds: HOUR.durationSeconds } });
        const wall = (performance.now() - t0) / 1000;
        if (r.isError) throw new Error(`advance refused: ${JSON.stringify(r.content)}`);
        await client.close();
        return wall;
      }),
    );
  }
  const toolWallSeconds = Math.min(...tool);
  const fastWallSeconds = Math.min(...fast);
  return { toolWallSeconds, fastWallSeconds, ratio: fastWallSeconds / toolWallSeconds };
}
