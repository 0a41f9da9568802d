import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../../services/context.js';

export async function rendererRoutes(app: FastifyInstance, ctx: EngineContext): Promise<void> {
  void app;
  void ctx;
}
