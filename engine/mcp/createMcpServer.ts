import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AgentSession } from '../services/agents/agentService.js';
import type { McpContext } from './mcpContext.js';
import { registerAccountTools } from './accountTools.js';
import { registerAgentResources } from './agentResources.js';
import { registerMarketTools } from './marketTools.js';
import { registerMirrorTools } from './mirrorTools.js';
import { registerReplayTools } from './replayTools.js';
import { registerTimeTools } from './timeTools.js';
import { registerTradingTools } from './tradingTools.js';

export const MCP_SERVER_NAME = 'sandbox-exchange';

/** The MCP server of one agent: every tool acts as that agent, on its own paper wallet. */
export function createMcpServer(ctx: McpContext, agent: AgentSession): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: '0.1.0' },
    { instructions: 'A sandbox prediction-market exchange with paper money. Discover markets (list_markets, get_market; search_public_markets and mirror_market for public ones), read books and prices, quote_order before place_order, and read get_report for your performance. Under a stepped clock, observe → act → advance; start_replay replays a recorded public market as a backtest.' },
  );
  const deps = { ctx, agent };
  registerMarketTools(server, deps);
  registerTradingTools(server, deps);
  registerAccountTools(server, deps);
  registerTimeTools(server, deps);
  registerMirrorTools(server, deps);
  registerReplayTools(server, deps);
  registerAgentResources(server, deps);
  return server;
}
