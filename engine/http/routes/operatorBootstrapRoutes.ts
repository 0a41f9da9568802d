import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import { BootstrapBody, BootstrapResponse } from '../../protocol/schemas/admin.js';
import type { EngineContext } from '../engineContext.js';

/** The one unauthenticated operator route: a launcher's one-time code becomes the operator token (services/operatorAccess). */
export function operatorBootstrapRoutes(app: FastifyInstance, ctx: EngineContext): void {
  app.post(
    '/admin/bootstrap',
    {
      schema: {
        tags: ['operator'],
        summary: 'Trade the one-time code that `npm start` put in the terminal URL (#bootstrap=…) for the operator token; each code works once, for a minute',
        body: BootstrapBody,
        response: { 200: BootstrapResponse },
      },
    },
    async (req) => {
      const token = ctx.operatorBootstrap.redeem((req.body as { code: string }).code);
      if (!token) throw new ApiError('invalid_bootstrap_code', 'This bootstrap code is unknown, already used or older than a minute. Restart `npm start`, or paste the operatorToken of the ready line.');
      return { operatorToken: token };
    },
  );
}
