import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../../services/context.js';

export function dataApiRoutes(app: FastifyInstance, ctx: EngineContext): void {
  void app;
  void ctx;
}
