import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../engineContext.js';

/**
 * The OpenAPI document, generated from the route schemas (dynamic mode). Registered before every other
 * route so the collector sees them all; a route without a schema still appears (with its path and
 * method). The three services share one listener, so paths are written in full (`/relayer/submit`,
 * `/data-api/trades`) against the one server `/`: the trading and data services both have `/trades`,
 * so per-service servers with stripped paths would collide. The services' base paths are named in the
 * `x-services` extension and the tags.
 */
// The base paths of routes/index.ts (RELAYER_PREFIX, DATA_PREFIX), repeated here because index.ts imports
// this module (an import back would be circular).
const RELAYER_PREFIX = '/relayer';
const DATA_PREFIX = '/data-api';

export async function openapiRoutes(app: FastifyInstance, _ctx: EngineContext): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Local prediction-market exchange',
        version: '1',
        description:
          'Trading service at /, relayer at /relayer, data service at /data-api, all on one listener. ' +
          'Conventions, error codes and every choice where the public contract is silent: docs/api.md.',
      },
      servers: [{ url: '/', description: `this listener: trading at /, relayer at ${RELAYER_PREFIX}, data at ${DATA_PREFIX} (paths below carry the prefix)` }],
      tags: [
        { name: 'market data', description: 'Trading service, public market data (no auth)' },
        { name: 'operator', description: 'Trading service, operator routes: Authorization: Bearer <operatorToken>' },
        { name: 'relayer', description: `Relayer, base path ${RELAYER_PREFIX}` },
        { name: 'data', description: `Data service, base path ${DATA_PREFIX}` },
      ],
      components: {
        securitySchemes: {
          operatorToken: { type: 'http', scheme: 'bearer', description: 'The operatorToken of the ready line (also in secrets.json)' },
          l1: { type: 'apiKey', in: 'header', name: 'SERVICE_SIGNATURE', description: 'L1: EIP-712 ClobAuth signature with SERVICE_ADDRESS, SERVICE_TIMESTAMP, SERVICE_NONCE' },
          l2: { type: 'apiKey', in: 'header', name: 'SERVICE_API_KEY', description: 'L2: SERVICE_API_KEY, SERVICE_PASSPHRASE, SERVICE_ADDRESS, SERVICE_TIMESTAMP and the HMAC SERVICE_SIGNATURE' },
        },
      },
      'x-services': { trading: '/', relayer: RELAYER_PREFIX, data: DATA_PREFIX },
    } as never,
    // Keep the full paths: stripping a base path would merge /trades of two services.
    stripBasePath: false,
    hideUntagged: false,
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
