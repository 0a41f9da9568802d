import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AgentSession } from '../services/agents/agentService.js';
import type { EngineContext } from './engineContext.js';
import { auditTransport } from '../mcp/auditTransport.js';
import { createMcpServer } from '../mcp/createMcpServer.js';

/** Most MCP sessions kept at once; past it the least recently used is closed (its client re-initialises). */
const MAX_SESSIONS = 256;
/** A session unused this long (wall time) is closed when the next one opens. */
const IDLE_MS = 30 * 60_000;

interface Entry {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly agentId: string;
  lastUsed: number;
}

function jsonRpcError(reply: FastifyReply, status: number, message: string): void {
  void reply.code(status).header('content-type', 'application/json').send({ jsonrpc: '2.0', error: { code: -32001, message }, id: null });
}

/**
 * MCP sessions of the Streamable HTTP transport: `initialize` opens one (a server with its tools, bound to
 * the token's agent, built once: building the tools costs milliseconds, a call well under one), later
 * requests name it with `Mcp-Session-Id`. The token is checked on every request (a revoked token is
 * refused at once) and must be the session's agent's. Tools answer in their responses (JSON); a GET
 * naming the session opens its notification stream (SSE), which carries `resources/updated` for the
 * books the agent subscribed to (agentResources.ts).
 */
export class McpSessions {
  private readonly sessions = new Map<string, Entry>();

  constructor(private readonly ctx: EngineContext) {}

  private now(): number {
    return (this.ctx.wallClock ?? this.ctx.clock).nowMs();
  }

  async handle(req: FastifyRequest, reply: FastifyReply, agent: AgentSession): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    let entry: Entry | undefined;
    if (typeof sid === 'string') {
      entry = this.sessions.get(sid);
      if (!entry || entry.agentId !== agent.info.id) return jsonRpcError(reply, 404, 'Session not found: send initialize again (without Mcp-Session-Id) to open a new one.');
    } else if (req.method === 'GET') {
      return jsonRpcError(reply, 400, 'GET /mcp opens the notification stream of a session: send initialize first, then name the session with Mcp-Session-Id.');
    } else entry = await this.open(agent);
    entry.lastUsed = this.now();
    // The transport writes the answer itself; the headers set so far (rate limits) go with it.
    reply.hijack();
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string);
    await entry.transport.handleRequest(req.raw, reply.raw, req.body);
    // A first request that was not an initialize opened nothing: drop its server.
    if (typeof sid !== 'string' && entry.transport.sessionId === undefined) await this.close(entry);
  }

  private async open(agent: AgentSession): Promise<Entry> {
    this.evict();
    const server = createMcpServer(this.ctx, agent);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void this.sessions.set(id, entry),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    // Read by onsessioninitialized, which runs during the first handleRequest, after this line.
    const entry: Entry = { transport, server, agentId: agent.info.id, lastUsed: this.now() };
    await server.connect(transport);
    auditTransport(transport, this.ctx, agent);
    return entry;
  }

  private evict(): void {
    const now = this.now();
    for (const [id, e] of this.sessions) if (now - e.lastUsed > IDLE_MS) this.drop(id, e);
    while (this.sessions.size >= MAX_SESSIONS) {
      let oldest: [string, Entry] | undefined;
      for (const kv of this.sessions) if (!oldest || kv[1].lastUsed < oldest[1].lastUsed) oldest = kv;
      this.drop(oldest![0], oldest![1]);
    }
  }

  private drop(id: string, e: Entry): void {
    this.sessions.delete(id);
    void this.close(e);
  }

  private async close(e: Entry): Promise<void> {
    await e.transport.close().catch(() => undefined);
    await e.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((e) => this.close(e)));
  }

  get size(): number {
    return this.sessions.size;
  }
}
