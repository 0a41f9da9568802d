import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../protocol/errors.js';
import type { EngineContext } from '../../services/context.js';
import type { OrderIdentity } from '../../services/orders/orderService.js';
import { PaperService } from '../../services/paper/paperService.js';
import { requireL2 } from '../l2Guard.js';

const TAG = ['paper'];
const SECURITY = [{ l2: [] }];

function identityOf(req: FastifyRequest): OrderIdentity {
  const id: OrderIdentity | undefined = req.identity;
  if (!id) throw new ApiError('missing_auth_headers', 'This route needs L2 authentication headers (SERVICE_ADDRESS, SERVICE_SIGNATURE, SERVICE_TIMESTAMP, SERVICE_API_KEY, SERVICE_PASSPHRASE).');
  return id;
}

/** Paper account reset and its archive (docs/paper.md). Thin: the paper service decides. */
export function paperRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const paper = new PaperService(ctx);
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
