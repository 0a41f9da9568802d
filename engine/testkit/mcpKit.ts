import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EngineConfig } from '../config.js';
import type { Engine } from '../engine.js';
import { startListeningEngine } from './clobClientKit.js';

/** One tool call's answer as a test reads it: whether it was a tool error, its one-line text and its structured result. */
export interface ToolCallResult {
  ok: boolean;
  text: string;
  data: Record<string, unknown>;
}

/** An operator route call with the engine's operator token. */
export type OperatorCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>;

export function operatorCall(host: string, engine: Engine): OperatorCall {
  return async (method, path, body) => {
    const res = await fetch(host + path, { method, headers: { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

/** The SDK's own client over Streamable HTTP at `<host>/mcp`, as an agent token. */
export async function connectMcp(host: string, token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(host + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { ok: r.isError !== true, text: (r.content[0] as { text: string }).text, data: (r.structuredContent ?? {}) as Record<string, unknown> };
}

export interface McpAgentRun {
  engine: Engine;
  host: string;
  op: OperatorCall;
  client: Client;
  agent: { id: string; token: string; address: string };
  call(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
}

/** A listening engine, an agent token issued by the operator route and the SDK's client connected as it; all closed after `body`. */
export async function withMcpAgent<T>(config: Partial<EngineConfig>, body: (run: McpAgentRun) => Promise<T>): Promise<T> {
  const { engine, host, close } = await startListeningEngine(config);
  const op = operatorCall(host, engine);
  try {
    const created = await op('POST', '/admin/agents', { name: 'tester' });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const agent = created.json as unknown as McpAgentRun['agent'];
    const client = await connectMcp(host, agent.token);
    try {
      return await body({ engine, host, op, client, agent, call: (name, args) => callTool(client, name, args) });
    } finally {
      await client.close();
    }
  } finally {
    await close();
  }
}
