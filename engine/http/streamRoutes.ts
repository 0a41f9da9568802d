import type { RequestGuard } from './requestGuard.js';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StreamService } from '../services/streams/streamService.js';
import { CLOSE, MAX_MESSAGE_BYTES, type StreamTransport } from '../services/streams/streamTransport.js';

export const WS_PREFIX = '/ws';

/**
 * The stream endpoints `/ws/market` and `/ws/user` on the engine's one listener (fastify's node server):
 * the one upgrade handler is here, behind the same Host/Origin guard as every route; anything else
 * asking to upgrade gets a 404. Upgraded connections count against the server's connection cap.
 */
export function attachStreamRoutes(server: HttpServer, streams: StreamService, guard?: RequestGuard): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const refused = guard?.check(req.headers);
    if (refused) {
      socket.end(`HTTP/1.1 ${refused.status} ${refused.status === 421 ? 'Misdirected Request' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(refused.toBody())}`);
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== WS_PREFIX + '/market' && path !== WS_PREFIX + '/user') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nThe streams are /ws/market and /ws/user.\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, path.endsWith('/market') ? 'market' : 'user', streams));
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      streams.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function serve(ws: WebSocket, channel: 'market' | 'user', streams: StreamService): void {
  const transport: StreamTransport = {
    send: (frame) => ws.send(frame, { binary: false }),
    buffered: () => ws.bufferedAmount,
    close: (code, reason) => {
      ws.close(code, reason);
      // A peer that never answers the close handshake (it stopped reading) is cut off.
      setTimeout(() => ws.terminate(), 2000).unref();
    },
  };
  const conn = channel === 'market' ? streams.openMarket(transport) : streams.openUser(transport);
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
