/**
 * MCP reads (issue 24): a tool call that reads, over Streamable HTTP with the SDK's own client, beside the
 * same REST read with fetch, on one listening engine, sequential calls, alternated in rounds so a
 * neighbour's burst on a shared machine hits both. Target: the tool's p99 ≤ 2× the REST read's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createEngine } from '../engine/engine.js';
import { fastRun, HOUR, withEngine } from './clockBench.js';

export interface ReadPair {
  name: string;
  restP50Ms: number;
  restP99Ms: number;
  toolP50Ms: number;
  toolP99Ms: number;
}

const ROUNDS = 4;
const PER_ROUND = 150;

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function timeEach(n: number, run: () => Promise<unknown>, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    into.push(performance.now() - t0);
  }
}

export async function runMcpBench(): Promise<ReadPair[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'));
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation: false });
  try {
    const ready = await engine.listen();
    const agent = await engine.ctx.agents.create({ name: 'bench' });
    const market = engine.ctx.markets.list()[0]!;
    const token = market.tokenIds[0];
    const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${ready.trading}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agent.token}` } } }));
    // The agent holds a position, so both position reads have a row to value.
    await client.callTool({ name: 'place_order', arguments: { token_id: token, side: 'BUY', size: '10', type: 'FOK' } });
    const pairs = [
      { name: 'book', rest: () => fetch(`${ready.trading}/book?token_id=${token}`).then((r) => r.text()), tool: () => client.callTool({ name: 'get_book', arguments: { token_id: token, depth: 100 } }) },
      { name: 'positions', rest: () => fetch(`${ready.data}/positions?user=${agent.address}`).then((r) => r.text()), tool: () => client.callTool({ name: 'get_positions', arguments: {} }) },
    ];
    const out: ReadPair[] = [];
    for (const p of pairs) {
      const rest: number[] = [];
      const tool: number[] = [];
      await timeEach(20, p.rest, []);
      await timeEach(20, p.tool, []);
      for (let r = 0; r < ROUNDS; r++) {
        await timeEach(PER_ROUND, p.rest, rest);
        await timeEach(PER_ROUND, p.tool, tool);
      }
      out.push({ name: p.name, restP50Ms: pct(rest, 50), restP99Ms: pct(rest, 99), toolP50Ms: pct(tool, 50), toolP99Ms: pct(tool, 99) });
    }
    await client.close();
    return out;
  } finally {
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
        await client.connect(new StreamableHTTPClientTransport(new URL(`${ready.trading}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agent.token}` } } }));
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
