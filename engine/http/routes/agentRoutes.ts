import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../../services/context.js';
import { auditTransport } from '../../mcp/auditTransport.js';
import { createMcpServer } from '../../mcp/createMcpServer.js';
import { operatorGuard } from './operatorGuard.js';

const TAG = ['agents'];
const SECURITY = [{ operatorToken: [] }];
export const MCP_PATH = '/mcp';

function limitOf(raw: unknown): number {
  if (raw === undefined || raw === '') return 100;
  const n = typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 10_000)) throw new ApiError('invalid_query', `Query parameter 'limit' must be an integer from 1 to 10000; got ${JSON.stringify(raw)}.`, { details: { field: 'limit' } });
  return n;
}

/**
 * Agents (issue 24, docs/agents.md): the operator issues and revokes agent tokens and reads the audit
 * log; an agent speaks MCP at /mcp (Streamable HTTP, stateless: a server per request, so any number of
 * clients and no session to lose) with its token, behind the same Host/Origin guard and rate limits.
 */
export function agentRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };

  app.post('/admin/agents', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Issue an agent token bound to a new funded paper wallet: {name?, limits?: {maxOrderNotional, maxOpenOrders, maxOrdersPerMinute}}; the token is shown once' } }, async (req) => ctx.agents.create((req.body ?? {}) as { name?: unknown; limits?: unknown }));
  app.get('/admin/agents', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Agents, their wallets, limits and revocation times' } }, async () => ({ agents: ctx.agents.list() }));
  app.delete('/admin/agents/:id', { ...base, schema: { tags: TAG, security: SECURITY, summary: "Revoke an agent's token (its wallet and history stay)" } }, async (req) => ctx.agents.revoke((req.params as { id: string }).id));
  app.get('/admin/agents/audit', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'The newest MCP tool calls (?agent=<id>&limit=1..10000, default 100): time, agent, token prefix, tool, arguments, result' } }, async (req) => {
    const q = req.query as { agent?: string; limit?: string };
    return { entries: ctx.agents.audit.read({ ...(q.agent ? { agentId: q.agent } : {}), limit: limitOf(q.limit) }) };
  });

  const mcp = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const agent = ctx.agents.authenticate(req.headers.authorization);
    const server = createMcpServer(ctx, agent);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    auditTransport(transport, ctx, agent);
    // The transport writes the answer itself; the headers set so far (rate limits) go with it.
    reply.hijack();
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(req.raw, reply.raw, req.body);
  };
  for (const method of ['GET', 'POST', 'DELETE'] as const) app.route({ method, url: MCP_PATH, schema: { tags: TAG, summary: 'MCP (Streamable HTTP) for agents: Authorization: Bearer <agent token>', hide: method !== 'POST' } as object, handler: mcp });
}
