import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ConditionIdParams, MirrorRow, MirrorSearchQuery, PublicCatalogueEntrySchema, StartMirrorBody } from '../../protocol/schemas/mirror.js';
import { PublicMarketSchema } from '../../protocol/schemas/markets.js';
import type { EngineContext } from '../engineContext.js';
import { operatorGuard } from './operatorGuard.js';

const TAG = ['mirrors'];
const SECURITY = [{ operatorToken: [] }];

/** Mirrored public markets (decisions §10): start, list, stop following, and search the public catalogue. */
export function mirrorRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };

  app.post(
    '/admin/mirrors',
    {
      ...base,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: 'Mirror a public market (slug, condition id or polymarket.com URL): the local market keeps its public identity and trades against its public depth',
        body: StartMirrorBody,
        response: { 201: PublicMarketSchema },
      },
    },
    async (req, reply) => {
      const market = await ctx.mirrors.start((req.body as { market: string }).market);
      return reply.code(201).send(ctx.marketData.publicMarket(market));
    },
  );

  app.get('/admin/mirrors', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Every mirrored market with its upstream state', response: { 200: Type.Array(MirrorRow) } } }, async () => ctx.mirrors.list());

  app.get(
    '/admin/mirrors/search',
    { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Search the public catalogue by words (Gamma search): markets to mirror', querystring: MirrorSearchQuery, response: { 200: Type.Array(PublicCatalogueEntrySchema) } } },
    async (req) => {
      const q = req.query as { q: string; limit?: string };
      return ctx.mirrors.search(q.q, q.limit === undefined ? undefined : Number(q.limit));
    },
  );

  app.delete(
    '/admin/mirrors/:conditionId',
    {
      ...base,
      schema: { tags: TAG, security: SECURITY, summary: 'Stop following a public market: its public depth goes; the market stays, closed for new orders', params: ConditionIdParams, response: { 200: PublicMarketSchema } },
    },
    async (req) => ctx.marketData.publicMarket(await ctx.mirrors.stopFollowing((req.params as { conditionId: string }).conditionId)),
  );
}
