import { ERRORS, isApiError } from '../../protocol/errors.js';
import type { PostOrderBody } from '../../protocol/eip712.js';
import { postOrderBodySchema } from '../../protocol/schemas/orders.js';
import type { EngineContext } from '../../services/context.js';
import { parseJsonBody } from '../app.js';
import { compileBodyValidator, validationErrorBody, type BodyValidator } from '../bodyValidator.js';
import type { LeanRequest, LeanResponse, LeanRouter } from '../leanServer.js';

function json(status: number, body: unknown, headers?: Record<string, string>): LeanResponse {
  return { status, body: JSON.stringify(body), ...(headers ? { headers } : {}) };
}

/** The answer to a thrown error, as the fastify app's error handler renders it. */
function failure(e: unknown): LeanResponse {
  if (isApiError(e)) return json(e.status, e.toBody(), e.headers);
  return json(500, { error: 'internal_error', message: ERRORS.internal_error.message });
}

/**
 * POST /order on the lean HTTP path (leanServer.ts): the same steps, in the same order, as the fastify
 * route in orderRoutes.ts, so both answer a request identically (orderRoutes.test.ts sends the same
 * requests both ways): body parsed, L2 headers checked (before the schema, as the route's
 * preValidation hook does), body schema (same compiler and options), then the order service.
 *
 * With rate limits on, the router declines: requests then go through fastify, whose hook queues them
 * (at the public limits a client sends at most 240 orders/s, where this path would not matter).
 */
export function leanOrderRouter(ctx: EngineContext): LeanRouter {
  // Compiling costs ~90 ms (a fresh ajv instance): done just after startup, not before the ready line,
  // or on the first order if one comes sooner.
  let compiled: BodyValidator | undefined;
  const validator = (): BodyValidator => (compiled ??= compileBodyValidator(postOrderBodySchema({ compat: ctx.config.profile === 'polymarket' })));
  setTimeout(validator, 250).unref();

  async function postOrder(req: LeanRequest): Promise<LeanResponse> {
    try {
      const body = parseJsonBody(req.body);
      const identity = ctx.auth.authenticateL2({ method: 'POST', path: '/order', rawBody: req.body, headers: req.headers });
      const validate = validator();
      if (!validate(body)) return json(400, validationErrorBody(validate.errors?.[0], 'body'));
      const result = await ctx.orders.place(identity, body as PostOrderBody);
      return result.success ? json(201, result) : json(400, { ...result, error: result.error_code, message: result.error_msg });
    } catch (e) {
      return failure(e);
    }
  }

  return (method, target) => (method === 'POST' && target === '/order' && !ctx.rateLimiter.enabled ? postOrder : undefined);
}
