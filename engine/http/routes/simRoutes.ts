import type { FastifyInstance } from 'fastify';
import { parseUnits } from '../../protocol/amounts.js';
import { ResolveParams } from '../../protocol/schemas/admin.js';
import { SimMarketBody, StartScenarioBody } from '../../protocol/schemas/scenario.js';
import type { EngineContext } from '../engineContext.js';
import { operatorGuard } from './operatorGuard.js';

const TAG = ['simulation'];
const SECURITY = [{ operatorToken: [] }];

/**
 * Simulated participants and scenarios (decisions §9). Operator routes control them; the one public
 * route lists the participants' addresses so any client can mark a simulated counterparty.
 */
export function simRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };

  app.get('/sim/participants', { schema: { tags: TAG, summary: 'Addresses of the simulated participants (public): a trade whose maker or taker is listed had a simulated counterparty' } }, async () =>
    ctx.sim.participants().map((p) => ({ address: p.address, name: p.name, role: p.role, market: p.conditionId })),
  );

  app.get('/admin/sim', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Simulation state: per market, its participants and their knobs' } }, async () => ({
    enabled: ctx.config.simulation,
    seed: ctx.sim.seed ?? null,
    failures: ctx.sim.failures,
    refused: ctx.sim.refused,
    topUps: ctx.sim.topUps,
    lastFailure: ctx.sim.lastFailure,
    markets: ctx.sim.list(),
  }));

  app.put(
    '/admin/sim/markets/:conditionId',
    { ...base, schema: { tags: TAG, security: SECURITY, summary: "Turn a market's participants on/off, change one participant (or a role) or move the fair value", params: ResolveParams, body: SimMarketBody } },
    async (req) => {
      const { conditionId } = req.params as { conditionId: string };
      const b = req.body as { enabled?: boolean; participant?: string; participantEnabled?: boolean; intensity?: number; latencyMs?: number; knobs?: Record<string, unknown>; fair?: string; seed?: number };
      if (b.seed !== undefined) await ctx.sim.reseed(b.seed);
      let info = b.enabled === false ? await ctx.sim.disableMarket(conditionId) : b.enabled === true ? await ctx.sim.enableMarket(conditionId) : undefined;
      if (b.participant !== undefined) {
        info = await ctx.sim.configure(conditionId, b.participant, {
          ...(b.participantEnabled !== undefined ? { enabled: b.participantEnabled } : {}),
          ...(b.intensity !== undefined ? { intensity: b.intensity } : {}),
          ...(b.latencyMs !== undefined ? { latencyMs: b.latencyMs } : {}),
          ...(b.knobs !== undefined ? { knobs: b.knobs } : {}),
        });
      }
      if (b.fair !== undefined) ctx.sim.shock(conditionId, Number(parseUnits(b.fair)));
      return info ?? ctx.sim.marketInfo(conditionId);
    },
  );

  app.get('/admin/scenarios', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'The scenario library and the progress of the current scenario' } }, async () => ({
    library: ctx.scenarios.library(),
    current: ctx.scenarios.current(),
  }));

  app.post('/admin/scenarios', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Start a scenario: {"name": <library name>} or {"scenario": <inline scenario>}', body: StartScenarioBody } }, async (req, reply) => {
    const b = req.body as { name?: string; scenario?: unknown; seed?: number };
    return reply.code(201).send(await ctx.scenarios.start(b));
  });

  app.delete('/admin/scenarios/current', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Stop the current scenario (participants keep running)' } }, async () => ({
    stopped: ctx.scenarios.stop(),
  }));
}
