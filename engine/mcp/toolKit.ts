import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodRawShape } from 'zod';
import { parseUnits } from '../protocol/amounts.js';
import { isApiError } from '../protocol/errors.js';
import type { AgentSession } from '../services/agents/agentService.js';
import type { McpContext } from './mcpContext.js';

/** What a tool answers: a one-line summary for the model and the structured result for programs. */
export interface ToolAnswer {
  summary: string;
  data: Record<string, unknown>;
}

/** A refusal the agent can act on: the text says what was wrong and what to send instead. */
export class ToolRefusal extends Error {}

export interface ToolDeps {
  readonly ctx: McpContext;
  readonly agent: AgentSession;
}

/** Decimal text of a price, size or amount (money is never a float). */
export const decimal = (what: string) => z.string().regex(/^\d+(\.\d{1,6})?$/, `${what} must be a decimal string with at most 6 decimals, e.g. "0.55" or "10"`);

export function units(text: string, field: string): bigint {
  const v = parseUnits(text);
  if (v === undefined) throw new ToolRefusal(`${field} must be a decimal string with at most 6 decimals; got ${JSON.stringify(text)}.`);
  return v;
}

/** The text of a refusal: an ApiError's sentence (it already says how to fix it), a ToolRefusal's, never a stack. */
export function refusalText(e: unknown): string {
  if (isApiError(e)) return `${e.code}: ${e.message}`;
  if (e instanceof ToolRefusal) return e.message;
  return 'internal_error: the exchange could not run this tool; the call was logged. Retry, or check the engine log.';
}

/**
 * Registers one tool. `write` tools take a turn against the stepped clock like an HTTP write (they are
 * refused while an advance runs, and an advance waits for them).
 */
export function defineTool<S extends ZodRawShape>(
  server: McpServer,
  deps: ToolDeps,
  name: string,
  spec: { title: string; description: string; input: S; write?: boolean },
  run: (args: z.infer<z.ZodObject<S>>) => Promise<ToolAnswer> | ToolAnswer,
): void {
  server.registerTool(name, { title: spec.title, description: spec.description, inputSchema: spec.input, annotations: { readOnlyHint: !spec.write } }, (async (args: z.infer<z.ZodObject<S>>): Promise<CallToolResult> => {
    const clock = deps.ctx.clockService;
    const gated = spec.write === true && clock?.mode === 'stepped';
    if (gated && !clock.beginWrite()) return { isError: true, content: [{ type: 'text', text: `clock_advancing: an advance of the exchange clock is running; call ${name} again once it has answered.` }] };
    try {
      const out = await run(args);
      return { content: [{ type: 'text', text: out.summary }], structuredContent: out.data };
    } catch (e) {
      return { isError: true, content: [{ type: 'text', text: refusalText(e) }] };
    } finally {
      if (gated) clock.writeDone();
    }
  }) as never);
}
