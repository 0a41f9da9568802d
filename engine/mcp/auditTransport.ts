import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AgentSession } from '../services/agents/agentService.js';
import type { McpContext } from './mcpContext.js';

type Pending = { tool: string; arguments: unknown; started: number };

/**
 * Puts every `tools/call`, `resources/read` and (un)subscribe through the agent's audit log, refusals by the SDK's own argument checks
 * included: the call is noted when it arrives and written when its answer is sent. Call after
 * `server.connect(transport)` (which sets the transport's handlers).
 */
export function auditTransport(transport: Transport, ctx: McpContext, agent: AgentSession): void {
  const pending = new Map<string | number, Pending>();
  const wall = () => (ctx.wallClock ?? ctx.clock).nowMs();
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: string | number; method?: string; params?: { name?: unknown; arguments?: unknown; uri?: unknown } };
    if (m.method === 'tools/call' && m.id !== undefined) pending.set(m.id, { tool: String(m.params?.name ?? ''), arguments: m.params?.arguments ?? {}, started: wall() });
    // Resource reads are logged too, as `resource` with the URI for argument.
    if (m.method === 'resources/read' && m.id !== undefined) pending.set(m.id, { tool: 'resource', arguments: { uri: m.params?.uri }, started: wall() });
    if ((m.method === 'resources/subscribe' || m.method === 'resources/unsubscribe') && m.id !== undefined) pending.set(m.id, { tool: m.method.slice('resources/'.length), arguments: { uri: m.params?.uri }, started: wall() });
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    const m = message as { id?: string | number; result?: { isError?: boolean; structuredContent?: unknown; content?: Array<{ text?: string }> }; error?: { message?: string } };
    const call = m.id === undefined ? undefined : pending.get(m.id);
    if (call) {
      pending.delete(m.id!);
      const ok = m.error === undefined && m.result?.isError !== true;
      const r = m.result as { structuredContent?: unknown; content?: Array<{ text?: string }>; contents?: Array<{ text?: string }> } | undefined;
      const result = m.error ? { error: m.error.message } : ok ? (r?.structuredContent ?? r?.content?.[0]?.text ?? r?.contents?.[0]?.text ?? null) : { error: r?.content?.[0]?.text };
      const t = wall();
      ctx.agents.audit.append({ t, exchangeTime: ctx.clock.nowMs(), agentId: agent.info.id, token: agent.tokenHint, tool: call.tool, arguments: call.arguments, ok, result, ms: t - call.started });
    }
    return send(message, options);
  };
}
