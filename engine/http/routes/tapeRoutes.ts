import type { FastifyInstance } from 'fastify';
import { RecordingBody, RecordingResponse, ReplayListResponse, ReplayParams, ReplayReportSchema, ReplayStateSchema, StartReplayBody, TapesResponse } from '../../protocol/schemas/tapes.js';
import type { EngineContext } from '../engineContext.js';
import { operatorGuard } from './operatorGuard.js';

const TAG = ['tapes'];
const SECURITY = [{ operatorToken: [] }];

/** Tapes and replays (decisions §10, docs/tapes.md): record mirrored markets, list tapes, replay one. */
export function tapeRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const base = { onRequest: operatorGuard(ctx) };

  app.get('/admin/tapes', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Whether recording is on, and every tape under <data>/tapes/', response: { 200: TapesResponse } } }, async () => ctx.tapes.list());

  app.post(
    '/admin/tapes/recording',
    { ...base, schema: { tags: TAG, security: SECURITY, summary: "Record every mirrored market's upstream events (or stop)", body: RecordingBody, response: { 200: RecordingResponse } } },
    async (req) => ctx.tapes.setRecording((req.body as { enabled: boolean }).enabled),
  );

  app.post(
    '/admin/replays',
    { ...base, schema: { tags: TAG, security: SECURITY, summary: "Replay a tape: creates its market and drives the market's public layer on the exchange clock", body: StartReplayBody, response: { 201: ReplayStateSchema } } },
    async (req, reply) => {
      const state = await ctx.replays.start(req.body as { tape: string; speed?: number });
      return reply.code(201).send(state);
    },
  );

  app.get('/admin/replays', { ...base, schema: { tags: TAG, security: SECURITY, summary: 'Every replay of this run and how far it got', response: { 200: ReplayListResponse } } }, async () => ctx.replays.list());

  app.get(
    '/admin/replays/:id',
    { ...base, schema: { tags: TAG, security: SECURITY, summary: "A replay's report: the users' PnL, fees and fills on its market, and what other latencies would have filled", params: ReplayParams, response: { 200: ReplayReportSchema } } },
    async (req) => ctx.replays.report((req.params as { id: string }).id),
  );
}
