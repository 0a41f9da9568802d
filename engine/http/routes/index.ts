import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../engineContext.js';
import { adminRoutes } from './adminRoutes.js';
import { agentRoutes } from './agentRoutes.js';
import { authRoutes } from './authRoutes.js';
import { compatRoutes } from './compatRoutes.js';
import { dataApiRoutes } from './dataApiRoutes.js';
import { marketDataRoutes } from './marketDataRoutes.js';
import { openapiRoutes } from './openapiRoutes.js';
import { orderRoutes } from './orderRoutes.js';
import { paperRoutes } from './paperRoutes.js';
import { relayerRoutes } from './relayerRoutes.js';
import { rendererRoutes } from './rendererRoutes.js';
import { simRoutes } from './simRoutes.js';
import { clockRoutes } from './clockRoutes.js';
import { tapeRoutes } from './tapeRoutes.js';
import { rpcProxyRoutes } from './rpcProxyRoutes.js';
import { operatorBootstrapRoutes } from './operatorBootstrapRoutes.js';
import { mirrorRoutes } from './mirrorRoutes.js';

/** Base paths of the three services on the one listener (decisions §0). */
export const RELAYER_PREFIX = '/relayer';
export const DATA_PREFIX = '/data-api';

export async function registerRoutes(app: FastifyInstance, ctx: EngineContext): Promise<void> {
  // The OpenAPI collector must see every route, so it registers first.
  await openapiRoutes(app, ctx);
  await app.register(async (trading) => {
    authRoutes(trading, ctx);
    orderRoutes(trading, ctx);
    marketDataRoutes(trading, ctx);
    adminRoutes(trading, ctx);
    compatRoutes(trading, ctx);
    simRoutes(trading, ctx);
    clockRoutes(trading, ctx);
    tapeRoutes(trading, ctx);
    operatorBootstrapRoutes(trading, ctx);
    rpcProxyRoutes(trading, ctx);
    paperRoutes(trading, ctx);
    agentRoutes(trading, ctx);
    mirrorRoutes(trading, ctx);
  });
  await app.register(async (relayer) => relayerRoutes(relayer, ctx), { prefix: RELAYER_PREFIX });
  await app.register(async (data) => dataApiRoutes(data, ctx), { prefix: DATA_PREFIX });
  await rendererRoutes(app, ctx);
}
