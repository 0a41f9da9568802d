import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiCredentialsSchema, ApiKeysSchema, AuthErrorSchema, L1HeadersSchema, L2HeadersSchema, RevokedKeySchema } from '../../protocol/schemas/auth.js';
import type { EngineContext } from '../engineContext.js';
import { requireL2 } from '../l2Guard.js';

const tags = ['auth'];

/** Credential routes (interface §4.1, §5; decisions §2). */
export function authRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const l2 = requireL2(ctx, { basePath: '' });

  app.post('/auth/api-key', {
    schema: {
      tags,
      summary: 'Create API credentials (L1)',
      description:
        'Proves control of SERVICE_ADDRESS with an EIP-712 ClobAuth signature and issues a new key. No body. ' +
        'The secret and passphrase are returned only here: they are derived, never stored, and cannot be fetched again. ' +
        "A signature creates at most one key; SERVICE_NONCE may not go below the highest nonce accepted for the address. " +
        'In the polymarket profile the nonce is a key slot instead: a live key of (address, nonce) is returned again. ' +
        "A wallet's first key credits its paper collateral balance.",
      headers: L1HeadersSchema,
      response: { 200: ApiCredentialsSchema, 401: AuthErrorSchema },
    },
    handler: async (req) => ctx.auth.createApiKey(req.headers),
  });

  app.get('/auth/derive-api-key', {
    schema: {
      tags,
      summary: 'Derive the existing API credentials of (address, nonce) (L1)',
      description:
        'Returns the live key created by SERVICE_ADDRESS with SERVICE_NONCE, with its secret and passphrase re-derived. ' +
        'Each L1 signature is accepted once; 401 unknown_api_key when that nonce has no live key.',
      headers: L1HeadersSchema,
      response: { 200: ApiCredentialsSchema, 401: AuthErrorSchema },
    },
    handler: async (req) => ctx.auth.deriveApiKey(req.headers),
  });

  app.get('/auth/ban-status/closed-only', {
    preValidation: l2,
    schema: {
      tags,
      summary: 'Whether the account may only close positions (L2): never here',
      description: 'Public-client compatibility (getClosedOnlyMode): a sandbox account is never restricted to closing positions.',
      headers: L2HeadersSchema,
      response: { 200: Type.Object({ closed_only: Type.Boolean() }), 401: AuthErrorSchema },
    },
    handler: async () => ({ closed_only: false }),
  });

  app.get('/auth/api-keys', {
    preValidation: l2,
    schema: {
      tags,
      summary: "List the caller's API keys (L2)",
      description: 'The live keys of the address that owns the signing key; revoked keys are omitted.',
      headers: L2HeadersSchema,
      response: { 200: ApiKeysSchema, 401: AuthErrorSchema },
    },
    handler: async (req) => ctx.auth.listKeys(req.identity),
  });

  app.delete('/auth/api-key', {
    preValidation: l2,
    schema: {
      tags,
      summary: 'Revoke the signing API key (L2)',
      description: 'Revokes the key that signs this request, immediately: its next request is refused with api_key_revoked. Any body is ignored.',
      headers: L2HeadersSchema,
      response: { 200: RevokedKeySchema, 401: AuthErrorSchema },
    },
    handler: async (req) => ctx.auth.revoke(req.identity),
  });
}
