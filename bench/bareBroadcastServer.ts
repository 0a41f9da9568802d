/**
 * The fan-out benchmark's reference: a bare `ws` server that relays every frame its publisher (path
 * /pub) sends to every other socket, as is. Runs in its own process, as the engine does; prints its
 * port as a JSON ready line.
 */
import { WebSocketServer, type WebSocket } from 'ws';

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
const subscribers = new Set<WebSocket>();
wss.on('connection', (ws, req) => {
  if (req.url === '/pub') {
    ws.on('message', (data) => {
      for (const s of subscribers) s.send(data as Buffer, { binary: false });
    });
    return;
  }
  subscribers.add(ws);
  ws.on('close', () => subscribers.delete(ws));
});
wss.on('listening', () => {
  const addr = wss.address();
  console.log(JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 }));
});
process.on('SIGTERM', () => process.exit(0));
