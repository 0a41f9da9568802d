import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { defineTool, ToolRefusal, type ToolDeps } from './toolKit.js';

function stepped(deps: ToolDeps): void {
  if (deps.ctx.clockService.mode !== 'stepped') {
    throw new ToolRefusal(`clock_not_stepped: this engine runs its clock in ${deps.ctx.clockService.mode} mode, where time passes by itself. Start one with \`npm run exchange -- --clock stepped\` (or \`npm run mcp -- --clock stepped\`) to step time.`);
  }
}

/** Exchange time (decisions §11) and the scenarios that move the markets. */
export function registerTimeTools(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps;

  defineTool(server, deps, 'get_clock', {
    title: 'Exchange clock',
    description: 'Clock mode (real, fast, stepped) and exchange time now (unix ms and ISO).',
    input: {},
  }, () => {
    const s = ctx.clockService.status();
    return { summary: `${s.mode} clock at ${new Date(s.now).toISOString()}.`, data: { ...s, iso: new Date(s.now).toISOString() } };
  });

  defineTool(server, deps, 'advance', {
    title: 'Advance the clock',
    description: 'Stepped clock only: runs everything due in the next `seconds` of exchange time (participants, scenario events, GTD expiries) and answers once it is committed.',
    input: { seconds: z.number().int().min(0).max(31_622_400) },
  }, async ({ seconds }) => {
    stepped(deps);
    const r = await ctx.clockService.advance({ seconds });
    return { summary: `advanced ${seconds} s to ${new Date(r.now).toISOString()}; ${r.processed.participantOrders} participant order(s), ${r.processed.scenarioEvents} scenario event(s), ${r.processed.expiries} expiry(ies).`, data: r as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'run_until', {
    title: 'Run the clock until a time',
    description: 'Stepped clock only: runs everything due up to `time` (unix ms, or an ISO 8601 date-time) of exchange time.',
    input: { time: z.union([z.number().int().nonnegative(), z.string().min(1)]) },
  }, async ({ time }) => {
    stepped(deps);
    const until = typeof time === 'number' ? time : Date.parse(time);
    if (!Number.isFinite(until)) throw new ToolRefusal(`time must be unix ms or an ISO 8601 date-time such as "2026-01-01T12:00:00Z"; got ${JSON.stringify(time)}.`);
    const r = await ctx.clockService.advance({ until });
    return { summary: `ran until ${new Date(r.now).toISOString()}; ${r.processed.participantOrders} participant order(s), ${r.processed.scenarioEvents} scenario event(s).`, data: r as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'list_scenarios', {
    title: 'Scenarios',
    description: 'The scenario library and the scenario running now, if any.',
    input: {},
  }, () => {
    const library = ctx.scenarios.library();
    const current = ctx.scenarios.current();
    return { summary: `${library.length} scenario(s); ${current ? 'one is running' : 'none running'}.`, data: { library: library as unknown as Record<string, unknown>[], current: current as unknown as Record<string, unknown> | null } };
  });

  defineTool(server, deps, 'start_scenario', {
    title: 'Start a scenario',
    description: 'Starts a scenario of the library by name (it creates its markets and participants; under a stepped clock its events play as the clock advances).',
    write: true,
    input: { name: z.string().min(1) },
  }, async ({ name }) => {
    const p = await ctx.scenarios.start({ name });
    return { summary: `scenario ${name} started.`, data: p as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'stop_scenario', {
    title: 'Stop the scenario',
    description: 'Stops the running scenario (its markets stay).',
    write: true,
    input: {},
  }, () => {
    const p = ctx.scenarios.stop();
    if (!p) throw new ToolRefusal('No scenario is running. start_scenario starts one.');
    return { summary: 'scenario stopped.', data: p as unknown as Record<string, unknown> };
  });
}
