import type { RequestGuard } from './requestGuard.js';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveDataService } from '../services/liveData/liveDataService.js';
import { SocketWatch, type SocketWatchHooks } from '../services/streams/socketWatch.js';
import type { StreamService } from '../services/streams/streamService.js';
import { UserConnection } from '../services/streams/userConnection.js';
import { CLOSE, MAX_MESSAGE_BYTES, type StreamConnection, type StreamLimits, type StreamTransport } from '../services/streams/streamTransport.js';

export const WS_PREFIX = '/ws';

/**
 * The stream endpoints `/ws/market`, `/ws/user` and `/ws/live-data` on the engine's one listener (fastify's
 * node server): the one upgrade handler is here, behind the same Host/Origin guard as every route; anything
 * else asking to upgrade gets a 404. Upgraded connections count against the server's connection cap.
 */
export function attachStreamRoutes(server: HttpServer, streams: StreamService, guard?: RequestGuard, liveData?: LiveDataService): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // One cap over every stream socket, whichever endpoint it is on.
  const open = (): number => streams.connections + (liveData?.connections ?? 0);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const refused = guard?.check(req.headers);
    if (refused) {
      socket.end(`HTTP/1.1 ${refused.status} ${refused.status === 421 ? 'Misdirected Request' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(refused.toBody())}`);
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path === WS_PREFIX + '/live-data' && liveData) {
      if (open() >= streams.limits.maxSockets) return refuseOverCap(socket, streams.limits.maxSockets);
      wss.handleUpgrade(req, socket, head, (ws) => serveLiveData(ws, socket, liveData, streams.limits));
      return;
    }
    if (path !== WS_PREFIX + '/market' && path !== WS_PREFIX + '/user') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nThe streams are /ws/market, /ws/user and /ws/live-data.\n');
      return;
    }
    if (open() >= streams.limits.maxSockets) return refuseOverCap(socket, streams.limits.maxSockets);
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, socket, path.endsWith('/market') ? 'market' : 'user', streams));
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      streams.close();
      liveData?.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

// Sockets past the cap are refused so the listener's remaining connections stay free for HTTP.
function refuseOverCap(socket: Duplex, max: number): void {
  socket.end(`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\nContent-Type: text/plain\r\n\r\nAt most ${max} stream sockets are open at once; close one or retry later.\n`);
}

function transportOf(ws: WebSocket): StreamTransport {
  return {
    send: (frame) => ws.send(frame, { binary: false }),
    buffered: () => ws.bufferedAmount,
    close: (code, reason) => {
      ws.close(code, reason);
      // A peer that never answers the close handshake (it stopped reading) is cut off.
      setTimeout(() => ws.terminate(), 2000).unref();
    },
  };
}

function serve(ws: WebSocket, socket: Duplex, channel: 'market' | 'user', streams: StreamService): void {
  const conn = channel === 'market' ? streams.openMarket(transportOf(ws)) : streams.openUser(transportOf(ws));
  const { limits } = streams;
  wire(ws, socket, conn, limits, {
    idle: () => conn.close(CLOSE.idle, `silent for ${limits.idleTimeoutMs / 1000} s: send the text PING every 10 s`),
    ...(conn instanceof UserConnection
      ? { loginDue: () => conn.authenticated || conn.close(CLOSE.authRequired, `no auth message within ${limits.loginTimeoutMs / 1000} s of opening`) }
      : {}),
  });
}

/** The live-data socket: its keepalive pings (the service's timer) and any pong count as activity; the message budget is the channels'. */
function serveLiveData(ws: WebSocket, socket: Duplex, liveData: LiveDataService, limits: StreamLimits): void {
  const conn = liveData.openConnection({ ...transportOf(ws), ping: () => ws.ping() });
  ws.on('pong', () => conn.touch());
  wire(ws, socket, conn, limits, {});
}

/** Messages, errors and the close of a socket to its connection, under the per-socket rules of SocketWatch. */
function wire(ws: WebSocket, socket: Duplex, conn: StreamConnection, limits: StreamLimits, hooks: SocketWatchHooks): void {
  const watch = new SocketWatch(limits, hooks);
  let cut = false;
  const spend = (): boolean => {
    if (cut) return false;
    if (watch.heard()) return true;
    // Over budget: nothing more is read, the close frame goes out, and the socket is cut shortly after
    // without waiting for the peer's answer (the delay lets the peer read the close code before the reset).
    cut = true;
    socket.pause();
    conn.close(CLOSE.tooManyMessages, `more than ${limits.messagesPerSecond} messages a second (bursts of ${limits.messageBurst})`);
    setTimeout(() => ws.terminate(), 200).unref();
    return false;
  };
  ws.on('ping', spend);
  ws.on('message', (data, isBinary) => {
    if (!spend()) return;
    try {
      conn.onMessage(isBinary ? '' : data.toString());
    } catch (e) {
      conn.sendError(`could not handle the message: ${(e as Error).message}`);
    }
  });
  ws.on('error', (e) => {
    // maxPayload and protocol errors: ws closes the socket itself (1009 / 1002) after this.
    if ((e as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') conn.close(CLOSE.tooBig, `message larger than ${MAX_MESSAGE_BYTES} bytes`);
  });
  ws.on('close', () => {
    watch.stop();
    if (!conn.closed) {
      conn.closed = true;
      conn.onClosed();
    }
  });
}
