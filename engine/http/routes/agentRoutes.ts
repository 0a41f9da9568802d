import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../engineContext.js';
import { McpSessions } from '../mcpSessions.js';
import { CreateAgentBody } from '../../protocol/schemas/agents.js';
import { emptyBodyIsObject } from './emptyBodyIsObject.js';
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
 * log; an agent speaks MCP at /mcp (Streamable HTTP, sessions: mcpSessions.ts) with its token, behind the
 * same Host/Origin guard and rate limits.
 */
export function agentRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };

  app.post('/admin/agents', { ...base, preValidation: emptyBodyIsObject, schema: { tags: TAG, security: SECURITY, body: CreateAgentBody, summary: 'Issue an agent token bound to a new funded paper wallet: {name?, limits?: {maxOrderNotional, maxOpenOrders, maxOrdersPerMinute}}; the token is shown once' } }, async (req) => ctx.agents.create(req.body as { name?: unknown; limits?: unknown }));
  app.get('/admin/agents', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Agents, their wallets, limits and revocation times' } }, async () => ({ agents: ctx.agents.list() }));
  app.delete('/admin/agents/:id', { ...base, schema: { tags: TAG, security: SECURITY, summary: "Revoke an agent's token (its wallet and history stay)" } }, async (req) => ctx.agents.revoke((req.params as { id: string }).id));
  app.get('/admin/agents/audit', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'The newest MCP tool calls (?agent=<id>&limit=1..10000, default 100): time, agent, token prefix, tool, arguments, result' } }, async (req) => {
    const q = req.query as { agent?: string; limit?: string };
    return { entries: ctx.agents.audit.read({ ...(q.agent ? { agentId: q.agent } : {}), limit: limitOf(q.limit) }) };
  });

  const sessions = new McpSessions(ctx);
  // Before the listener closes: an agent's open notification stream (GET /mcp) must not hold the shutdown for its grace.
  app.addHook('preClose', async () => sessions.closeAll());
  const mcp = async (req: FastifyRequest, reply: FastifyReply) => sessions.handle(req, reply, ctx.agents.authenticate(req.headers.authorization));
  for (const method of ['GET', 'POST', 'DELETE'] as const) app.route({ method, url: MCP_PATH, schema: { tags: TAG, summary: 'MCP (Streamable HTTP) for agents: Authorization: Bearer <agent token>', hide: method !== 'POST' } as object, handler: mcp });
}
