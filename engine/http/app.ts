import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, ERRORS, isApiError } from '../protocol/errors.js';
import { AJV_CUSTOM_OPTIONS, routeValidatorCompiler, validationErrorBody, type SchemaError } from './bodyValidator.js';
import type { EngineContext } from './engineContext.js';
import { registerRoutes } from './routes/index.js';
import { RequestGuard } from './requestGuard.js';
import { attachClockGuard } from './clockGuard.js';
import { capConnections, serverLimitOptions, type ServerLimits } from './serverLimits.js';

export const BODY_LIMIT = 1024 * 1024;
const BLANK = /^\s*$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes received, as text: L2 signatures are verified over them (decisions §2). */
    rawBody: string;
  }
  interface FastifyInstance {
    /** Host and Origin checks, shared by every route and the WebSocket upgrades (streamRoutes.ts). */
    requestGuard: RequestGuard;
  }
}

/**
 * Builds the HTTP app without listening (tests use `inject`; engine.ts listens). Routes are thin: they
 * validate with the protocol schemas, call a service and send what it returns. Errors are rendered here
 * and only here. Deadlines, the connection cap and keep-alive come from the server options
 * (serverLimits.ts).
 */
export async function buildApp(ctx: EngineContext, opts: { logger?: boolean } & ServerLimits = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // Public clients send Content-Type: application/json on bodiless GET/DELETE; treat them as bodiless.
    return503OnClosing: true,
    ajv: { customOptions: AJV_CUSTOM_OPTIONS },
    ...serverLimitOptions(opts),
  });
  capConnections(app.server, opts);

  app.setValidatorCompiler(routeValidatorCompiler() as Parameters<typeof app.setValidatorCompiler>[0]);
  app.decorateRequest('rawBody', '');

  // One parser for every content type: the relayer's public client posts JSON as
  // application/x-www-form-urlencoded, and L2 verification needs the raw text anyway.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    req.rawBody = text;
    try {
      done(null, parseJsonBody(text));
    } catch (e) {
      done(e as ApiError, undefined);
    }
  });

  // Response schemas document the API (OpenAPI); serialization stays plain JSON.stringify so field
  // order (the book hash depends on it) and values are exactly what the services built.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => sendError(err, req, reply));
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: 'not_found', message: `No route for ${req.method} ${req.url.split('?')[0]}. See GET /openapi.json.` });
  });

  // The guard runs first: a cross-site or rebinding request costs no rate-limit budget and no body parsing.
  const guard = new RequestGuard(ctx.config);
  app.decorate('requestGuard', guard);
  app.addHook('onRequest', (req, _reply, done) => done(guard.check(req.headers)));
  // Off (--no-rate-limits, the benchmark): no hook at all, so the hot path does not pay a promise per request for it.
  if (ctx.config.rateLimits) app.addHook('onRequest', ctx.rateLimiter.hook);
  attachClockGuard(app, ctx);
  app.addHook('preClose', async () => ctx.rateLimiter.stop());
  await registerRoutes(app, ctx);
  return app;
}

/** A request body as JSON: undefined when blank, ApiError invalid_json when malformed (every route). */
export function parseJsonBody(text: string): unknown {
  // A regex stops at the first non-blank character; trim() would copy every body.
  if (BLANK.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', `The request body is not valid JSON (${shortJsonError(text)}). Send a JSON document.`);
  }
}

function shortJsonError(text: string): string {
  try {
    JSON.parse(text);
    return 'unknown error';
  } catch (e) {
    return (e as Error).message.slice(0, 120);
  }
}

/** The answer to a thrown ApiError, or the 500 of anything else: every route renders errors with it. */
export function errorReply(err: unknown): { status: number; body: object; headers?: Record<string, string> } {
  if (isApiError(err)) return { status: err.status, body: err.toBody(), ...(err.headers ? { headers: err.headers } : {}) };
  return { status: 500, body: { error: 'internal_error', message: ERRORS.internal_error.message } };
}

function sendError(err: FastifyError | ApiError, req: FastifyRequest, reply: FastifyReply): void {
  if (isApiError(err)) {
    const r = errorReply(err);
    if (r.headers) void reply.headers(r.headers);
    void reply.code(r.status).send(r.body);
    return;
  }
  const fe = err as FastifyError;
  if (fe.validation) {
    void reply.code(400).send(validationErrorBody(fe.validation[0] as SchemaError | undefined, fe.validationContext ?? 'body'));
    return;
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413) {
    void reply.code(413).send({ error: 'payload_too_large', message: ERRORS.payload_too_large.message });
    return;
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    void reply.code(400).send({ error: 'invalid_json', message: ERRORS.invalid_json.message });
    return;
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own client errors (bad URL encoding, etc.): still a 4xx with a code and a sentence.
    void reply.code(fe.statusCode).send({ error: 'invalid_field', message: fe.message });
    return;
  }
  req.log.error(err);
  const r = errorReply(err);
  void reply.code(r.status).send(r.body);
}
