import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startListeningEngine } from '../testkit/clobClientKit.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/mcp.mjs', import.meta.url));

async function stdioClient(args: string[]): Promise<Client> {
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPT, ...args], stderr: 'ignore' }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ ok: boolean; text: string; data: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { ok: r.isError !== true, text: (r.content[0] as { text: string }).text, data: (r.structuredContent ?? {}) as Record<string, unknown> };
}

describe('npm run mcp: the MCP server over stdio (issue 24)', () => {
  it('starts its own stepped engine, trades as its stdio agent, advances the clock, reports, and logs every call in the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
    const client = await stdioClient(['--chain', 'none', '--data-dir', dir, '--clock', 'stepped', '--start', '2030-01-01T00:00:00Z']);
    try {
      assert.ok((await client.listTools()).tools.length >= 24);
      const clock = await call(client, 'get_clock');
      assert.equal(clock.data.mode, 'stepped');
      assert.equal(clock.data.now, Date.UTC(2030, 0, 1));
      const markets = await call(client, 'list_markets', { state: 'open' });
      const token = (markets.data.markets as Array<{ outcomes: Array<{ tokenId: string }> }>)[0]!.outcomes[0]!.tokenId;
      // Time stands still until the first advance, and the demo markets' liquidity is the participants' quotes.
      const opened = await call(client, 'advance', { seconds: 60 });
      assert.equal(opened.data.now, Date.UTC(2030, 0, 1, 0, 1));
      const placed = await call(client, 'place_order', { token_id: token, side: 'BUY', size: '5', type: 'FOK' });
      assert.equal(placed.ok, true, placed.text);
      const adv = await call(client, 'advance', { seconds: 60 });
      assert.equal(adv.data.now, Date.UTC(2030, 0, 1, 0, 2));
      const report = await call(client, 'get_report');
      assert.equal(report.data.trades, 1);
      assert.equal(report.data.source, 'run');
    } finally {
      await client.close();
    }
    const lines = readFileSync(join(dir, 'agents', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; token: string; agentId: string });
    assert.deepEqual(lines.map((l) => l.tool), ['get_clock', 'list_markets', 'advance', 'place_order', 'advance', 'get_report']);
    assert.ok(lines.every((l) => l.token === 'stdio' && l.agentId === 'agent-1'));
    assert.equal(statSync(join(dir, 'agents')).mode & 0o777, 0o700);
    for (const f of ['agents.json', 'audit.jsonl']) assert.equal(statSync(join(dir, 'agents', f)).mode & 0o777, 0o600, `${f} is private`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('with --url and --token forwards to a running engine\'s /mcp as that token\'s agent, book subscriptions included', async () => {
    const { engine, host, close } = await startListeningEngine({ seedDemo: true, simulation: false });
    try {
      const agent = await engine.ctx.agents.create({ name: 'remote' });
      const client = await stdioClient(['--url', `${host}/mcp`, '--token', agent.token]);
      try {
        const balance = await call(client, 'get_balance');
        assert.equal(balance.ok, true, balance.text);
        assert.equal(balance.data.address, agent.address);
        assert.equal(balance.data.balance, '10000');
        const refused = await call(client, 'advance', { seconds: 1 });
        assert.match(refused.text, /clock_not_stepped/);
        const token = engine.ctx.markets.list()[0]!.tokenIds[0];
        const uri = `sandbox://books/${token}`;
        let updated = false;
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void (updated ||= n.params.uri === uri));
        await client.subscribeResource({ uri });
        await new Promise((r) => setTimeout(r, 200));
        assert.equal((await call(client, 'place_order', { token_id: token, side: 'BUY', size: '5', price: '0.1' })).ok, true);
        for (let i = 0; i < 100 && !updated; i++) await new Promise((r) => setTimeout(r, 50));
        assert.ok(updated, 'the book update reached the stdio client');
      } finally {
        await client.close();
      }
      assert.deepEqual(engine.ctx.agents.audit.read({ agentId: agent.id, limit: 10 }).map((e) => e.tool), ['get_balance', 'advance', 'subscribe', 'place_order']);
    } finally {
      await close();
    }
  });
});
