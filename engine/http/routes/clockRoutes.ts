import type { FastifyInstance } from 'fastify';
import { AdvanceClockBody, AdvanceClockResponse, ClockStatusResponse } from '../../protocol/schemas/clock.js';
import type { EngineContext } from '../engineContext.js';
import { operatorGuard } from './operatorGuard.js';

const TAG = ['clock'];
const SECURITY = [{ operatorToken: [] }];

/** The exchange clock (decisions §11): where it stands, and in stepped mode, running it ahead. */
export function clockRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };

  app.get('/admin/clock', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Clock mode, exchange time and the start of the run (unix ms)', response: { 200: ClockStatusResponse } } }, async () => ctx.clockService.status());

  app.post(
    '/admin/clock/advance',
    {
      ...base,
      schema: {
        tags: TAG,
        security: SECURITY,
        summary: 'Stepped mode: run participants, scenario events and GTD expiries up to {seconds} from now or {until} (unix ms); answers once committed. Writes meanwhile get 409 clock_advancing',
        body: AdvanceClockBody,
        response: { 200: AdvanceClockResponse },
      },
    },
    async (req) => ctx.clockService.advance(req.body as { seconds?: number; until?: number }),
  );
}
