import type { Server as HttpServer, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { ERRORS } from '../protocol/errors.js';

/** A request head must arrive whole within this long of its first byte. */
export const HEAD_TIMEOUT_MS = 10_000;
/** Its body, within this long of the head. */
export const BODY_TIMEOUT_MS = 30_000;
/** HTTP and WebSocket connections together: room for the 1,000 stream subscribers beside the HTTP clients. */
export const MAX_CONNECTIONS = 4096;
/** An idle keep-alive connection is closed after this long (fastify's default). */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** How long a shutdown waits for in-flight requests and slow clients before it cuts them off. */
export const SHUTDOWN_GRACE_MS = 2000;

export interface RequestDeadlines {
  headTimeoutMs: number;
  bodyTimeoutMs: number;
}

export interface ServerLimits {
  /** Head and body deadlines (default 10 s and 30 s); tests shorten them. */
  requestDeadlines?: RequestDeadlines;
  /** Connections open at once (default MAX_CONNECTIONS); past it new ones are closed at once. */
  maxConnections?: number;
}

const REQUEST_TIMEOUT_BODY = JSON.stringify({ error: 'request_timeout', message: ERRORS.request_timeout.message });
/** The 408 sent before closing a connection whose request did not arrive in time. */
const REQUEST_TIMEOUT_RESPONSE = `HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json; charset=utf-8\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(REQUEST_TIMEOUT_BODY)}\r\n\r\n${REQUEST_TIMEOUT_BODY}`;

/**
 * The fastify (and, through `http`, Node server) options that bound what one client can hold: a
 * slow-client flood cannot exhaust the process. Node measures both deadlines from the first byte of a
 * request, on every request of a keep-alive connection: the head within `headTimeoutMs`
 * (headersTimeout), the whole request within `headTimeoutMs + bodyTimeoutMs` (requestTimeout); a
 * connection that sends nothing at all is held to the head deadline too. Node checks them every
 * `connectionsCheckingInterval` (30 s by default, so a deadline could overrun by that much; a check
 * walks the connections with a request under way). The connection cap is a property of the listening
 * server: `capConnections`.
 */
export function serverLimitOptions(
  limits: ServerLimits = {},
): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'connectionTimeout' | 'forceCloseConnections' | 'clientErrorHandler'> & { http: ServerOptions } {
  const d = limits.requestDeadlines ?? { headTimeoutMs: HEAD_TIMEOUT_MS, bodyTimeoutMs: BODY_TIMEOUT_MS };
  return {
    requestTimeout: d.headTimeoutMs + d.bodyTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // No inactivity timeout on a connection whose request is being handled: a rate-limited order may wait
    // in its queue for up to a 10-minute window, silently. The deadlines above bound the request's arrival.
    connectionTimeout: 0,
    // close() ends idle keep-alive connections at once; busy ones are left to drainServer.
    forceCloseConnections: 'idle',
    http: { headersTimeout: d.headTimeoutMs, connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(d.headTimeoutMs / 4))) },
    clientErrorHandler,
  };
}

/** Sets the connection cap (HTTP and WebSocket together): Node closes each connection past it on arrival. */
export function capConnections(server: HttpServer, limits: ServerLimits = {}): void {
  server.maxConnections = limits.maxConnections ?? MAX_CONNECTIONS;
}

/**
 * fastify's clientErrorHandler: a request that missed its deadline gets a 408 with the error
 * registry's `request_timeout`; every other client error is answered as fastify does by default (431
 * for an oversized head, else 400), then the socket is destroyed.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(REQUEST_TIMEOUT_RESPONSE);
    else {
      const [status, label, message] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'Exceeded maximum allowed HTTP header size'] : [400, 'Bad Request', 'Client Error'];
      const body = JSON.stringify({ error: label, message, statusCode: status });
      socket.write(`HTTP/1.1 ${status} ${label}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`);
    }
  }
  socket.destroy(err);
}

/**
 * Closes the app without letting any client hold the exit: no new connections, idle keep-alive ones end
 * now, busy ones as soon as their answer is written (an answer waits for its durable write), and
 * whatever is left after `graceMs` (a client trickling a request head, a peer that stopped reading) is
 * destroyed. Node's close() ends only the connections idle at that moment and stops the deadline checks,
 * so the ones that become idle later are ended here, until none is left.
 */
export async function closeWithGrace(app: FastifyInstance, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  let closed = false;
  const closing = app.close().finally(() => (closed = true));
  const deadline = Date.now() + graceMs;
  while (!closed && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    app.server.closeIdleConnections();
  }
  app.server.closeAllConnections();
  await closing;
}
