import type { PostOrderBody } from '../../protocol/eip712.js';
import { postOrderBodySchema } from '../../protocol/schemas/orders.js';
import type { EngineContext } from '../engineContext.js';
import { errorReply, parseJsonBody } from '../app.js';
import { compileBodyValidator, validationErrorBody, type BodyValidator } from '../bodyValidator.js';
import { leanJson, type LeanRequest, type LeanResponse, type LeanRouter } from '../leanServer.js';
import { placementReply, profilePlacement } from './orderRoutes.js';
import type { RequestGuard } from '../requestGuard.js';
import { clockAdvancing } from '../clockGuard.js';

/**
 * POST /order on the lean HTTP path (leanServer.ts): the same steps, in the same order, as the fastify
 * route in orderRoutes.ts, so both answer a request identically (orderRoutes.test.ts sends the same
 * requests both ways): body parsed, L2 headers checked (before the schema, as the route's
 * preValidation hook does), body schema (same compiler and options), then the order service.
 *
 * With rate limits on, the router declines: requests then go through fastify, whose hook queues them
 * (at the public limits a client sends at most 240 orders/s, where this path would not matter).
 */
export function leanOrderRouter(ctx: EngineContext, guard?: RequestGuard): LeanRouter {
  // Compiling costs ~90 ms (a fresh ajv instance): done just after startup, not before the ready line,
  // or on the first order if one comes sooner.
  let compiled: BodyValidator | undefined;
  const compat = ctx.config.profile === 'polymarket';
  const validator = (): BodyValidator => (compiled ??= compileBodyValidator(postOrderBodySchema({ compat })));
  setTimeout(validator, 250).unref();

  async function postOrder(req: LeanRequest): Promise<LeanResponse> {
    // Routed before an advance began, arrived whole after: refused like fastify's hook would (clockGuard.ts).
    const clock = ctx.clockService?.mode === 'stepped' ? ctx.clockService : undefined;
    if (clock && !clock.beginWrite()) return leanJson(errorReply(clockAdvancing('POST', '/order')));
    try {
      return await placeOrder(req);
    } finally {
      clock?.writeDone();
    }
  }

  async function placeOrder(req: LeanRequest): Promise<LeanResponse> {
    try {
      const refused = guard?.check(req.headers);
      if (refused) throw refused;
      const body = parseJsonBody(req.body);
      const identity = ctx.auth.authenticateL2({ method: 'POST', path: '/order', rawBody: req.body, headers: req.headers });
      const validate = validator();
      if (!validate(body)) return leanJson({ status: 400, body: validationErrorBody(validate.errors?.[0], 'body') });
      return leanJson(placementReply(profilePlacement(ctx, await ctx.orders.place(identity, body as PostOrderBody)), compat));
    } catch (e) {
      return leanJson(errorReply(e));
    }
  }

  // During an advance of a stepped clock, fastify answers (its hook refuses writes with 409 clock_advancing).
  return (method, target) => (method === 'POST' && target === '/order' && !ctx.rateLimiter.enabled && ctx.clockService?.advancing !== true ? postOrder : undefined);
}
