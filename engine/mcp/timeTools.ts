import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { accountReport } from '../services/agents/accountReport.js';
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
    description: 'Stepped clock only: runs everything due in the next `seconds` of exchange time (participants, scenario events, replayed tape entries, GTD expiries) and answers once it is committed.',
    input: { seconds: z.number().int().min(0).max(31_622_400) },
  }, async ({ seconds }) => {
    stepped(deps);
    const r = await ctx.clockService.advance({ seconds });
    return { summary: `advanced ${seconds} s to ${new Date(r.now).toISOString()}; ${r.processed.participantOrders} participant order(s), ${r.processed.scenarioEvents} scenario event(s), ${r.processed.tapeEvents} tape entry(ies), ${r.processed.expiries} expiry(ies).`, data: r as unknown as Record<string, unknown> };
  });

  defineTool(server, deps, 'run_until', {
    title: 'Run the clock until a time or an event',
    description:
      'Stepped clock only: runs exchange time up to `time` (unix ms, or an ISO 8601 date-time). With `stop_on`, it advances one exchange minute at a time and stops early at the end of the first minute in which one of this agent\'s orders filled (own_fill), a scenario event played (scenario_event), a market this agent holds or a replayed market resolved (resolution) or a replay running when the call began played its tape\'s last entry (replay_end).',
    input: { time: z.union([z.number().int().nonnegative(), z.string().min(1)]), stop_on: z.array(z.enum(['own_fill', 'scenario_event', 'resolution', 'replay_end'])).max(4).default([]) },
  }, async ({ time, stop_on }) => {
    stepped(deps);
    const until = typeof time === 'number' ? time : Date.parse(time);
    if (!Number.isFinite(until)) throw new ToolRefusal(`time must be unix ms or an ISO 8601 date-time such as "2026-01-01T12:00:00Z"; got ${JSON.stringify(time)}.`);
    if (stop_on.length === 0) {
      const r = await ctx.clockService.advance({ until });
      return { summary: `ran until ${new Date(r.now).toISOString()}; ${r.processed.participantOrders} participant order(s), ${r.processed.scenarioEvents} scenario event(s).`, data: { ...r, stoppedBy: null } };
    }
    const address = deps.agent.info.address;
    // The run's ledger counts this account's fills (incrementally: a stepped run always has one).
    const fills = () => accountReport(ctx, address).trades;
    const running = ctx.replays.list().filter((r) => r.phase === 'running');
    // The markets whose resolution stops the run: those this agent holds, and those replays drive (a tape's resolution).
    const held = () => new Set([...ctx.data.positions({ user: address, sizeThreshold: '0', limit: '500' }).map((p) => p.conditionId), ...running.map((r) => r.conditionId)]);
    const resolved = (ids: Set<string>) => [...ids].filter((id) => ctx.markets.byCondition(id)?.winner !== null).length;
    const ended = () => running.filter((r) => ctx.replays.get(r.replayId).phase === 'finished').length;
    if (stop_on.includes('replay_end') && running.length === 0) throw new ToolRefusal('replay_end: no replay is running, so none can end. start_replay starts one (list_replays shows how far each got).');
    const fills0 = fills();
    const markets = held();
    const resolved0 = resolved(markets);
    const total = { participantOrders: 0, scenarioEvents: 0, tapeEvents: 0, expiries: 0 };
    let now = ctx.clock.nowMs();
    let stoppedBy: string | null = null;
    while (now < until && stoppedBy === null) {
      const r = await ctx.clockService.advance({ until: Math.min(until, now + 60_000) });
      now = r.now;
      for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += r.processed[k] ?? 0;
      if (stop_on.includes('own_fill') && fills() > fills0) stoppedBy = 'own_fill';
      else if (stop_on.includes('scenario_event') && r.processed.scenarioEvents > 0) stoppedBy = 'scenario_event';
      else if (stop_on.includes('resolution') && resolved(markets) > resolved0) stoppedBy = 'resolution';
      else if (stop_on.includes('replay_end') && ended() > 0) stoppedBy = 'replay_end';
    }
    return { summary: `ran until ${new Date(now).toISOString()}${stoppedBy ? `, stopped by ${stoppedBy}` : ''}; ${total.participantOrders} participant order(s), ${total.scenarioEvents} scenario event(s), ${total.tapeEvents} tape entry(ies).`, data: { now, processed: total, stoppedBy } };
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
