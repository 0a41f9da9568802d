import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { accountReport } from '../services/agents/accountReport.js';
import { findMarket, marketRules } from './marketTools.js';
import { refusalText, type ToolDeps } from './toolKit.js';

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });

/** What reads better as a document than as a call: each market's rules, and the agent's report. */
export function registerAgentResources(server: McpServer, deps: ToolDeps): void {
  server.registerResource(
    'market',
    new ResourceTemplate('sandbox://markets/{conditionId}', {
      list: () => ({ resources: deps.ctx.markets.list().map((m) => ({ uri: `sandbox://markets/${m.conditionId}`, name: m.question, mimeType: 'application/json' })) }),
    }),
    { title: 'A market and its rules', description: 'Outcomes and token ids, tick, minimum size, fee rate, end date, state (as get_market).', mimeType: 'application/json' },
    (uri, vars) => {
      try {
        return json(uri.href, marketRules(deps, findMarket(deps, String(vars.conditionId)).market));
      } catch (e) {
        // A resource read has no isError: the refusal travels as a JSON-RPC error with the same sentence.
        throw new Error(refusalText(e));
      }
    },
  );
  server.registerResource(
    'report',
    'sandbox://account/report',
    { title: "This agent's performance report", description: 'As get_report: PnL, fees, turnover, drawdown, positions with marks.', mimeType: 'application/json' },
    (uri) => json(uri.href, accountReport(deps.ctx, deps.agent.info.address)),
  );
}
