import type { FastifyRequest } from 'fastify';
import type { Identity } from '../services/auth/authService.js';
import type { EngineContext } from '../services/context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent an L2-authenticated request; set by requireL2 (absent on routes without it). */
    identity: Identity;
  }
}

/**
 * A fastify hook (use it as `preValidation`, so unauthenticated callers get the 401 before any body
 * validation, or as `preHandler`) that verifies the L2 headers over the raw body and sets
 * `request.identity`. The signed path is the route path relative to the service base URL without the
 * query string: `basePath` is where the service is mounted ('' for trading, '/relayer' for the relayer).
 */
export function requireL2(ctx: EngineContext, opts: { basePath: string }) {
  const base = opts.basePath.replace(/\/+$/, '');
  return async function l2Guard(request: FastifyRequest): Promise<void> {
    const url = request.url;
    const q = url.indexOf('?');
    let path = q < 0 ? url : url.slice(0, q);
    if (base && (path === base || path.startsWith(base + '/'))) path = path.slice(base.length) || '/';
    request.identity = ctx.auth.authenticateL2({ method: request.method, path, rawBody: request.rawBody ?? '', headers: request.headers });
  };
}
