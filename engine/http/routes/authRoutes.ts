import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../../services/context.js';

export function authRoutes(app: FastifyInstance, ctx: EngineContext): void {
  void app;
  void ctx;
}
