import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../../services/context.js';

export async function openapiRoutes(app: FastifyInstance, ctx: EngineContext): Promise<void> {
  void app;
  void ctx;
}
