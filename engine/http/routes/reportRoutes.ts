import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../engineContext.js';
import { operatorGuard } from './operatorGuard.js';

const TAG = ['reports'];
const SECURITY = [{ operatorToken: [] }];
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function addressOf(raw: string): string {
  if (!ADDRESS.test(raw)) throw new ApiError('invalid_field', `address must be 0x and 40 hex digits; got ${JSON.stringify(raw)}.`, { details: { field: 'address' } });
  return raw.toLowerCase();
}

/**
 * Performance reports (issue 24, docs/agents.md): any account's report and equity curve, live, and the
 * runs a fast or stepped engine left under `<data>/runs/` — the numbers of the MCP report tool.
 */
export function reportRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };
  app.get('/admin/reports/:address', { ...base, schema: { tags: TAG, security: SECURITY, summary: "An account's performance now: PnL (realised, unrealised), return, max drawdown, Sharpe-like ratio, hit rate, fees, turnover, per market, and its equity curve (once per exchange minute)" } }, async (req) =>
    ctx.reports.account(addressOf((req.params as { address: string }).address)),
  );
  app.get('/admin/runs', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'The fast and stepped runs under <data>/runs/, newest first, with their accounts' } }, async () => ({ runs: ctx.reports.runs() }));
  app.get('/admin/runs/:id/report', { ...base, schema: { tags: TAG, security: SECURITY, summary: "One account of a run (?account=0x…): its line of report.json and its equity curve from equity.jsonl" } }, async (req) => {
    const account = (req.query as { account?: string }).account;
    if (account === undefined) throw new ApiError('invalid_query', "Query parameter 'account' is required: the address whose report to read (GET /admin/runs lists a run's accounts).", { details: { field: 'account' } });
    return ctx.reports.runReport((req.params as { id: string }).id, addressOf(account));
  });
}
