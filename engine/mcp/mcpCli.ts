#!/usr/bin/env node
// `npm run mcp -- [flags]`: the MCP server over stdio, for desktop agent apps (docs/agents.md).
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, ResourceUpdatedNotificationSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EngineConfig } from '../config.js';
import { createEngine } from '../engine.js';
import { auditTransport } from './auditTransport.js';
import { createMcpServer, MCP_SERVER_NAME } from './createMcpServer.js';

const USAGE = `usage: npm run mcp -- [--data-dir <dir>] [--port <n>] [--chain anvil|none] [--clock real|stepped] [--start <unix ms|ISO>] [--no-demo] [--agent <name>]
       npm run mcp -- --url http://127.0.0.1:<port>/mcp --token <agent token>     (a running engine)
stdout carries MCP only; the engine's ready line and messages go to stderr.`;

/** Stdio in front of a running engine's /mcp: tool and resource requests (and book subscriptions) are forwarded with the agent's token. */
async function proxy(url: string, token: string): Promise<void> {
  const remote = new Client({ name: `${MCP_SERVER_NAME}-stdio`, version: '0.1.0' });
  await remote.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const server = new Server({ name: MCP_SERVER_NAME, version: '0.1.0' }, { capabilities: { tools: {}, resources: { subscribe: true } } });
  server.setRequestHandler(ListToolsRequestSchema, (req) => remote.listTools(req.params));
  server.setRequestHandler(CallToolRequestSchema, (req) => remote.callTool(req.params));
  server.setRequestHandler(ListResourcesRequestSchema, (req) => remote.listResources(req.params));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (req) => remote.listResourceTemplates(req.params));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => remote.readResource(req.params));
  // Book subscriptions: the engine's updates (on the session's HTTP stream) go on to the stdio client.
  server.setRequestHandler(SubscribeRequestSchema, (req) => remote.subscribeResource(req.params));
  server.setRequestHandler(UnsubscribeRequestSchema, (req) => remote.unsubscribeResource(req.params));
  remote.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => server.sendResourceUpdated(n.params));
  server.onclose = () => void remote.close().then(() => process.exit(0));
  await server.connect(new StdioServerTransport());
}

/** An engine in this process (listening, so the terminal can watch it) and the MCP server on stdio. */
async function local(partial: Partial<EngineConfig>, agentName: string): Promise<void> {
  const engine = await createEngine(partial);
  const ready = await engine.listen();
  const agent = await engine.ctx.agents.local(agentName);
  console.error(JSON.stringify({ ...ready, agent: agent.info }));
  const server = createMcpServer(engine.ctx, agent);
  const transport = new StdioServerTransport();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void engine.close().then(() => process.exit(0), () => process.exit(1));
  };
  transport.onclose = stop;
  await server.connect(transport);
  auditTransport(transport, engine.ctx, agent);
  // The client closing stdin ends the session (the SDK's stdio transport does not watch for it).
  process.stdin.on('end', stop);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      agent: { type: 'string' },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      chain: { type: 'string' },
      clock: { type: 'string' },
      start: { type: 'string' },
      seed: { type: 'string' },
      'no-demo': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return void console.error(USAGE);
  if (values.url !== undefined || values.token !== undefined) {
    if (!values.url || !values.token) throw new Error('--url and --token go together: the engine\'s /mcp URL and an agent token from POST /admin/agents');
    return proxy(values.url, values.token);
  }
  const partial: Partial<EngineConfig> = {};
  if (values['data-dir']) partial.dataDir = values['data-dir'];
  if (values.port !== undefined) partial.port = Number(values.port);
  if (values.chain === 'anvil' || values.chain === 'none') partial.chain = values.chain;
  else if (values.chain !== undefined) throw new Error(`--chain must be anvil or none, not '${values.chain}'`);
  if (values.clock === 'real' || values.clock === 'stepped') partial.clock = values.clock;
  else if (values.clock !== undefined) throw new Error(`--clock must be real or stepped, not '${values.clock}'`);
  if (values.start !== undefined) partial.clockStart = /^\d+$/.test(values.start) ? Number(values.start) : Date.parse(values.start);
  if (values.seed !== undefined) partial.seed = Number(values.seed);
  if (values['no-demo']) partial.seedDemo = false;
  await local(partial, values.agent ?? 'stdio');
}

main().catch((e: unknown) => {
  console.error(`mcp: ${(e as Error).message}\n${USAGE}`);
  process.exit(1);
});
