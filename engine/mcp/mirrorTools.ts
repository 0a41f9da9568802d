import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isApiError } from '../protocol/errors.js';
import { marketRules, mirrorText } from './marketTools.js';
import { defineTool, ToolRefusal, type ToolDeps } from './toolKit.js';

/** The upstream flags, for refusals that say how an operator points the engine at a public exchange. */
const UPSTREAM_FLAGS = 'the operator points the engine at a public exchange with --upstream-clob, --upstream-gamma and --upstream-ws';

/**
 * An upstream refusal with what an agent can do about it: the service's sentences name operator routes,
 * the agent's next step is a tool.
 */
async function upstreamCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isApiError(e) && e.code === 'upstream_unavailable') throw new ToolRefusal(`upstream_unavailable: ${e.message} Mirroring needs the public exchange to answer; ${UPSTREAM_FLAGS}.`);
    if (isApiError(e) && e.code === 'mirror_not_found') throw new ToolRefusal(`mirror_not_found: ${e.message} search_public_markets finds public markets by words and gives their slugs and condition ids.`);
    if (isApiError(e) && e.code === 'market_not_found') throw new ToolRefusal(`market_not_found: ${e.message.replace(/ List mirrors with .*$/, '')} list_markets with kind "mirrored" lists the mirrored markets.`);
    throw e;
  }
}

/** Discovery in the public catalogue and mirroring of public markets (decisions §10). */
export function registerMirrorTools(server: McpServer, deps: ToolDeps): void {
  defineTool(server, deps, 'search_public_markets', {
    title: 'Search the public catalogue',
    description:
      "Public Polymarket markets by words (Gamma's search, through this engine's mirror): condition id, slug, question, event title, outcomes, cached outcome prices and volume. mirror_market makes a local copy of one to trade on paper against its public depth. A tool error where mirroring is unavailable.",
    input: { query: z.string().trim().min(1).max(200).describe('Words to search for, e.g. "election"'), limit: z.number().int().min(1).max(50).default(10) },
  }, async ({ query, limit }) => {
    const mirrors = deps.ctx.mirrors;
    const markets = await upstreamCall(() => mirrors.search(query, limit));
    const local = new Set<string>(deps.ctx.markets.list().map((m) => m.conditionId));
    const rows = markets.map((m) => ({ ...m, mirrored: local.has(m.conditionId.toLowerCase()) }));
    return { summary: `${rows.length} public market(s) match ${JSON.stringify(query)}${rows[0] ? `; first: ${rows[0].question} (${rows[0].slug})` : ''}.`, data: { query, markets: rows } };
  });

  defineTool(server, deps, 'mirror_market', {
    title: 'Mirror a public market',
    description:
      "Creates a local copy of a public market (by slug, condition id or polymarket.com URL) with its public identity, rules and fee schedule, and follows its public order book: local orders trade against the public depth (decisions §10 fill model) and rest behind it in the queue. Answers the market as get_market does; a market already mirrored is answered as it is.",
    write: true,
    input: { market: z.string().trim().min(1).max(500).describe('Slug, condition id (0x + 64 hex) or https://polymarket.com/event/… URL') },
  }, async ({ market }) => {
    const mirrors = deps.ctx.mirrors;
    const m = marketRules(deps, await upstreamCall(() => mirrors.start(market)));
    return { summary: `mirrored ${m.question} as ${m.conditionId} — ${m.state}, tick ${m.tickSize}, min size ${m.minOrderSize}, fee ${m.feeRateBps} bps${mirrorText(m.mirror)}.`, data: m };
  });

  defineTool(server, deps, 'stop_mirror', {
    title: 'Stop mirroring a public market',
    description: 'Stops following a mirrored public market: its public depth leaves the book and the market closes for new orders (positions and history stay). A stopped mirror is not followed again.',
    write: true,
    input: { condition_id: z.string().trim().min(1).max(200).describe('Condition id of the mirrored market') },
  }, async ({ condition_id }) => {
    const mirrors = deps.ctx.mirrors;
    const m = marketRules(deps, await upstreamCall(() => mirrors.stopFollowing(condition_id.toLowerCase())));
    return { summary: `stopped mirroring ${m.question}; the market is ${m.state}.`, data: m };
  });
}
