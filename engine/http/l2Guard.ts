import type { FastifyRequest } from 'fastify';
import type { Identity } from '../services/auth/authService.js';
import type { EngineContext } from './engineContext.js';

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
    const path = signedPath(request.url, base);
    request.identity = ctx.auth.authenticateL2({ method: request.method, path, rawBody: request.rawBody ?? '', headers: request.headers });
  };
}

/** The path a client signs: the request path relative to the service base, without the query string. */
export function signedPath(url: string, base: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return base && (path === base || path.startsWith(base + '/')) ? path.slice(base.length) || '/' : path;
}
