import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { accountReport } from '../services/agents/accountReport.js';
import { BookSubscriptions } from './bookSubscriptions.js';
import { bookOf, findMarket, marketRules, tokenOf } from './marketTools.js';
import { refusalText, type ToolDeps } from './toolKit.js';

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });

/** Levels a side of a book resource. */
const BOOK_DEPTH = 20;
const BOOK_URI = /^sandbox:\/\/books\/([^/?#]+)$/;

/**
 * What reads better as a document than as a call: each market's rules, each outcome token's book (with
 * subscriptions: `resources/subscribe` to a book's URI, and the server sends `notifications/resources/updated`
 * when the book changes, at most every BOOK_NOTIFY_MS; over HTTP they travel on the session's GET stream),
 * and the agent's report. Call before `server.connect` (it declares the subscribe capability).
 */
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
    'book',
    new ResourceTemplate('sandbox://books/{tokenId}', { list: undefined }),
    { title: "An outcome token's order book", description: `Best ${BOOK_DEPTH} levels a side, best first (as get_book). Subscribe to be told when it changes.`, mimeType: 'application/json' },
    (uri, vars) => {
      try {
        return json(uri.href, bookOf(deps, String(vars.tokenId), BOOK_DEPTH));
      } catch (e) {
        throw new Error(refusalText(e));
      }
    },
  );
  subscribeBooks(server, deps);
  server.registerResource(
    'report',
    'sandbox://account/report',
    { title: "This agent's performance report", description: 'As get_report: PnL, fees, turnover, drawdown, positions with marks.', mimeType: 'application/json' },
    (uri) => json(uri.href, accountReport(deps.ctx, deps.agent.info.address)),
  );
}

/** `resources/subscribe` and `unsubscribe` for book URIs, fed by the stream service's book changes. */
function subscribeBooks(server: McpServer, deps: ToolDeps): void {
  const subs = new BookSubscriptions((uri) => void server.server.sendResourceUpdated({ uri }).catch(() => undefined));
  const listener = (conditionId: string) => subs.changed(conditionId);
  deps.ctx.streams.onBookChange.add(listener);
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, (req) => {
    const m = BOOK_URI.exec(req.params.uri);
    if (!m) throw new McpError(ErrorCode.InvalidParams, `Only books can be subscribed to: sandbox://books/<token id> (list tokens with list_markets); got ${req.params.uri}.`);
    let conditionId: string;
    try {
      conditionId = tokenOf(deps, decodeURIComponent(m[1]!)).market.conditionId;
    } catch (e) {
      throw new McpError(ErrorCode.InvalidParams, refusalText(e));
    }
    subs.subscribe(req.params.uri, conditionId);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
    subs.unsubscribe(req.params.uri);
    return {};
  });
  // The session's end (closed, evicted, engine shutdown) stops its notifications.
  const previous = server.server.onclose;
  server.server.onclose = () => {
    deps.ctx.streams.onBookChange.delete(listener);
    subs.close();
    previous?.();
  };
}
