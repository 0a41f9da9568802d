import type { RequestGuard } from './requestGuard.js';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveDataService } from '../services/liveData/liveDataService.js';
import type { StreamService } from '../services/streams/streamService.js';
import { CLOSE, MAX_MESSAGE_BYTES, type StreamConnection, type StreamTransport } from '../services/streams/streamTransport.js';

export const WS_PREFIX = '/ws';

/**
 * The stream endpoints `/ws/market`, `/ws/user` and `/ws/live-data` on the engine's own listener. Upgrade requests
 * reach fastify's node server (the lean front hands it every connection it does not answer itself),
 * so the one upgrade handler is here; anything else asking to upgrade gets a 404.
 */
export function attachStreamRoutes(server: HttpServer, streams: StreamService, guard?: RequestGuard, liveData?: LiveDataService): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const refused = guard?.check(req.headers);
    if (refused) {
      socket.end(`HTTP/1.1 ${refused.status} ${refused.status === 421 ? 'Misdirected Request' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(refused.toBody())}`);
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path === WS_PREFIX + '/live-data' && liveData) {
      wss.handleUpgrade(req, socket, head, (ws) => serveLiveData(ws, liveData));
      return;
    }
    if (path !== WS_PREFIX + '/market' && path !== WS_PREFIX + '/user') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nThe streams are /ws/market, /ws/user and /ws/live-data.\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, path.endsWith('/market') ? 'market' : 'user', streams));
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

function serve(ws: WebSocket, channel: 'market' | 'user', streams: StreamService): void {
  const transport = transportOf(ws);
  const conn = channel === 'market' ? streams.openMarket(transport) : streams.openUser(transport);
  wire(ws, conn);
}

/** The live-data socket: its keepalive pings (the service's timer) and any pong count as activity. */
function serveLiveData(ws: WebSocket, liveData: LiveDataService): void {
  const conn = liveData.openConnection({ ...transportOf(ws), ping: () => ws.ping() });
  ws.on('pong', () => conn.touch());
  wire(ws, conn);
}

/** Messages, errors and the close of a socket to its connection. */
function wire(ws: WebSocket, conn: StreamConnection): void {
  ws.on('message', (data, isBinary) => {
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
    if (!conn.closed) {
      conn.closed = true;
      conn.onClosed();
    }
  });
}
