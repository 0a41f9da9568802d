import type { FastifyRequest } from 'fastify';
import { ApiError } from '../protocol/errors.js';
import type { EngineContext } from './engineContext.js';
import { hasBuilderHeaders } from '../services/auth/builderAuth.js';
import { requireL2, signedPath } from './l2Guard.js';

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/**
 * Authentication of the relayer's writes (decisions §6). L2 headers always work. In the `polymarket`
 * profile a request with POLY_BUILDER_* headers (what the stock builder-relayer-client sends) is verified
 * as a builder's instead, and the user is the body's `from`: the relayer then requires the transaction's
 * signature to recover to it, so a builder cannot act for someone who did not sign. On the other routes
 * (GET /transactions, the wallet helpers) the user is the builder key's owner. In the default profile builder headers get an
 * error that names the missing profile flag, the mistake a user of the stock client makes.
 */
export function requireRelayerAuth(ctx: EngineContext, opts: { basePath: string }) {
  const l2 = requireL2(ctx, opts);
  const base = opts.basePath.replace(/\/+$/, '');
  const builder = ctx.builderAuth;
  return async function relayerAuthGuard(request: FastifyRequest): Promise<void> {
    const hasL2 = request.headers['poly_api_key'] !== undefined || request.headers['service_api_key'] !== undefined;
    if (hasL2 || !hasBuilderHeaders(request.headers)) return l2(request);
    if (ctx.config.profile !== 'polymarket') {
      throw new ApiError(
        'missing_auth_headers',
        'POLY_BUILDER_* headers (the stock @polymarket/builder-relayer-client) are accepted only in the polymarket compatibility profile: start the exchange with --profile polymarket, or sign with L2 headers (SERVICE_ADDRESS, SERVICE_SIGNATURE, SERVICE_TIMESTAMP, SERVICE_API_KEY, SERVICE_PASSPHRASE).',
        { details: { profile: ctx.config.profile, required: 'polymarket' } },
      );
    }
    const path = signedPath(request.url, base);
    const who = builder.authenticate({ method: request.method, path, rawBody: request.rawBody ?? '', headers: request.headers });
    // Only /submit verifies that the signature recovers to `from`; elsewhere the builder acts as itself.
    const from = path === '/submit' ? (request.body as { from?: unknown } | undefined)?.from : undefined;
    const user = typeof from === 'string' && ADDRESS_RE.test(from) ? (from.toLowerCase() as `0x${string}`) : who.address;
    request.identity = { address: user, apiKey: who.apiKey };
  };
}
