import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../protocol/errors.js';
import type { EngineContext } from './engineContext.js';
import { MCP_PATH } from './routes/agentRoutes.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The advance itself is refused by the clock service when one runs; it is not a write the advance waits for. */
const ADVANCE_PATH = '/admin/clock/advance';
/**
 * Heartbeats keep a client's orders alive on wall time (decisions §11): a bot must be able to beat while
 * a long advance runs, or its session would lapse and cancel its orders. They change no book. MCP calls
 * take their turn per tool (engine/mcp/toolKit.ts): one POST may be the advance itself.
 */
const ALWAYS_OPEN = new Set([ADVANCE_PATH, '/v1/heartbeats', MCP_PATH]);

export function clockAdvancing(method: string, path: string): ApiError {
  return new ApiError('clock_advancing', `An advance of the exchange clock is running; send ${method} ${path} again once POST ${ADVANCE_PATH} has answered. Reads answer meanwhile.`);
}

/**
 * Writes and a stepped clock's advances take turns (decisions §11): a write that arrives during an
 * advance is refused 409 clock_advancing, and an advance starts only once the writes already admitted
 * have answered, so no write lands in the middle of one. Reads are never held.
 */
export function attachClockGuard(app: FastifyInstance, ctx: EngineContext): void {
  if (ctx.clockService?.mode !== 'stepped') return;
  const counted = new WeakSet<FastifyRequest>();
  const done = (req: FastifyRequest) => {
    if (counted.delete(req)) ctx.clockService?.writeDone();
  };
  app.addHook('onRequest', (req, _reply, next) => {
    const clock = ctx.clockService;
    const path = req.url.split('?')[0]!;
    if (!clock || READ_METHODS.has(req.method) || ALWAYS_OPEN.has(path)) return next();
    if (!clock.beginWrite()) return next(clockAdvancing(req.method, path));
    counted.add(req);
    next();
  });
  app.addHook('onResponse', (req, _reply, next) => {
    done(req);
    next();
  });
  app.addHook('onRequestAbort', (req, next) => {
    done(req);
    next();
  });
}
