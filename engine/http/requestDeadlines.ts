import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS } from '../protocol/errors.js';

/** A request head must arrive whole within this long of its first byte. */
export const HEAD_TIMEOUT_MS = 10_000;
/** Its body, within this long of the head. */
export const BODY_TIMEOUT_MS = 30_000;

export interface RequestDeadlines {
  headTimeoutMs: number;
  bodyTimeoutMs: number;
}

const REQUEST_TIMEOUT_BODY = JSON.stringify({ error: 'request_timeout', message: ERRORS.request_timeout.message });
/** The 408 both HTTP paths send before closing a connection whose request did not arrive in time. */
export const REQUEST_TIMEOUT_RESPONSE = `HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json; charset=utf-8\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(REQUEST_TIMEOUT_BODY)}\r\n\r\n${REQUEST_TIMEOUT_BODY}`;

/**
 * Gives the fastify server, which never listens (the lean front hands it sockets), the same deadlines
 * as the lean front: a head within `headTimeoutMs` of its first byte, the whole request within
 * `headTimeoutMs + bodyTimeoutMs` (node measures both from the request's first byte). Node enforces
 * headersTimeout/requestTimeout only for connections it tracks, and it starts tracking (and the
 * periodic check) when the server emits 'listening', which a fed server never does: without this, the
 * second and later requests of a keep-alive connection handed to fastify, and the body of any request
 * handed over, had no deadline at all. Call it before the first connection is handed over.
 */
export function applyRequestDeadlines(server: HttpServer, d: RequestDeadlines): void {
  server.headersTimeout = d.headTimeoutMs;
  server.requestTimeout = d.headTimeoutMs + d.bodyTimeoutMs;
  // Node checks every 30 s by default, so a deadline could overrun by that much; a check costs a walk
  // over the connections with a request under way.
  (server as HttpServer & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(25, Math.min(1000, Math.floor(d.headTimeoutMs / 4)));
  const startTracking = server.listeners('listening').find((f) => f.name === 'setupConnectionsTracking');
  if (startTracking) startTracking.call(server);
  else server.emit('listening');
}

/**
 * fastify's clientErrorHandler: a request that missed its deadline gets the lean front's 408 (the error
 * registry's `request_timeout`); every other client error is answered as fastify does by default
 * (431 for an oversized head, else 400), then the socket is destroyed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
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
