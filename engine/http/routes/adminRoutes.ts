import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../../services/context.js';

export function adminRoutes(app: FastifyInstance, ctx: EngineContext): void {
  void app;
  void ctx;
}
