import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { formatUnits } from '../protocol/amounts.js';
import { accountReport, collateralOf } from '../services/agents/accountReport.js';
import { PaperService } from '../services/paper/paperService.js';
import { decimal, defineTool, ToolRefusal, units, type ToolDeps } from './toolKit.js';

/** Most collateral one faucet call credits. */
const MAX_FAUCET = 1_000_000n * 1_000_000n;

/** The agent's paper account: balance, positions, trades, activity, faucet, reset, performance report. */
export function registerAccountTools(server: McpServer, deps: ToolDeps): void {
  const { ctx, agent } = deps;
  const address = agent.info.address;
  const identity = { address };
  const paper = new PaperService(ctx);

  defineTool(server, deps, 'get_balance', {
    title: 'Balance',
    description: 'Paper collateral of this agent\'s wallet: total, reserved by open orders, available.',
    input: {},
  }, () => {
    const d = { address, ...collateralOf(ctx, address) };
    return { summary: `${d.available} available of ${d.balance} (${d.reserved} reserved).`, data: d };
  });

  defineTool(server, deps, 'get_positions', {
    title: 'Positions',
    description: 'Open positions with average price, current price, value and PnL (cash and percent, realised).',
    input: {},
  }, () => {
    const positions = ctx.data.positions({ user: address, sizeThreshold: '0', limit: '500' });
    const pnl = positions.reduce((s, p) => s + p.cashPnl, 0);
    return { summary: `${positions.length} position(s), unrealised PnL ${pnl.toFixed(2)}.`, data: { positions: positions as unknown as Record<string, unknown>[] } };
  });

  defineTool(server, deps, 'get_trade_history', {
    title: 'Trade history',
    description: 'This agent\'s trades, newest first.',
    input: { limit: z.number().int().min(1).max(500).default(50) },
  }, ({ limit }) => {
    const trades = ctx.orders.listTrades(identity, {}).data.slice(0, limit);
    return { summary: `${trades.length} trade(s).`, data: { trades: trades as unknown as Record<string, unknown>[] } };
  });

  defineTool(server, deps, 'get_activity', {
    title: 'Activity',
    description: 'This agent\'s activity (trades, splits, merges, redemptions), newest first.',
    input: { limit: z.number().int().min(1).max(500).default(50) },
  }, ({ limit }) => {
    const activity = ctx.data.activity({ user: address, limit: String(limit) });
    return { summary: `${activity.length} activity record(s).`, data: { activity: activity as unknown as Record<string, unknown>[] } };
  });

  defineTool(server, deps, 'faucet', {
    title: 'Paper collateral faucet',
    description: 'Credits paper collateral to this agent\'s wallet (at most 1,000,000 per call).',
    write: true,
    input: { amount: decimal('amount') },
  }, async ({ amount }) => {
    const v = units(amount, 'amount');
    if (v <= 0n || v > MAX_FAUCET) throw new ToolRefusal(`amount must be more than 0 and at most ${formatUnits(MAX_FAUCET)}; got ${amount}.`);
    await ctx.orders.creditCollateral(address, v, 'faucet');
    const b = collateralOf(ctx, address).balance;
    return { summary: `credited ${formatUnits(v)}; balance ${b}.`, data: { credited: formatUnits(v), balance: b } };
  });

  defineTool(server, deps, 'reset_paper_account', {
    title: 'Reset the paper account',
    description: 'Cancels every order, closes every position at its average price and restores the starting balance; the session it ends is archived.',
    write: true,
    input: {},
  }, async () => {
    const r = await paper.reset(identity);
    return { summary: `reset to ${r.balance}; ${r.cancelled.length} order(s) cancelled; session ${r.session.id} archived.`, data: r as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'get_report', {
    title: 'Performance report',
    description: 'PnL (realised, unrealised, net of fees), return on the starting balance, max drawdown and a Sharpe-like ratio of the equity sampled each exchange minute, hit rate, fees, turnover, fills, per market, and positions with their marks: the run report\'s and the terminal\'s numbers (docs/agents.md).',
    input: {},
  }, () => {
    const r = accountReport(ctx, address);
    return { summary: `PnL ${r.pnl} (realised ${r.realisedPnl}, unrealised ${r.unrealisedPnl}), return ${r.return ?? 'n/a'}, fees ${r.fees}, turnover ${r.turnover}, ${r.trades} fill(s), max drawdown ${r.maxDrawdown}, Sharpe-like ${r.sharpe ?? 'n/a'}, hit rate ${r.hitRate ?? 'n/a'}.`, data: r as unknown as Record<string, unknown> };
  });
}
