import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../engineContext.js';
import { requireL2 } from '../l2Guard.js';
import { identityOf } from './orderRoutes.js';

const TAG = ['paper'];
const SECURITY = [{ l2: [] }];

/** Paper account reset and its archive (docs/paper.md). Thin: the paper service decides. */
export function paperRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const paper = ctx.paper;
  const l2 = { preValidation: requireL2(ctx, { basePath: '' }) };

  app.post(
    '/paper/reset',
    { ...l2, schema: { tags: TAG, security: SECURITY, summary: "Cancel the caller's open orders, archive the session, and reset collateral to the starting balance and shares to zero" } },
    async (req) => paper.reset(identityOf(req)),
  );

  app.get(
    '/paper/sessions',
    { ...l2, schema: { tags: TAG, security: SECURITY, summary: "The caller's archived paper sessions, newest first, and the starting balance" } },
    async (req) => paper.sessions(identityOf(req)),
  );
}
