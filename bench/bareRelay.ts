/**
 * The mirror benchmark's reference: the least a process can do to pass a public market channel on to a
 * local client. It listens on an ephemeral port; a local client subscribes (`{"assets_ids": [...]}`), the relay
 * subscribes to the same assets upstream (`node bench/bareRelay.ts <upstream ws url>`), JSON.parse's every
 * upstream frame and re-sends the frames naming a subscribed asset, as received. Runs in its own process, as
 * the engine does; prints its port as a JSON ready line.
 */
import WebSocket, { WebSocketServer } from 'ws';

const upstreamUrl = process.argv[2];
if (!upstreamUrl) throw new Error('usage: bareRelay.ts <upstream market channel ws url>');

function namesAny(event: unknown, assets: Set<string>): boolean {
  if (typeof event !== 'object' || event === null) return false;
  const e = event as { asset_id?: unknown; price_changes?: unknown };
  if (typeof e.asset_id === 'string') return assets.has(e.asset_id);
  return Array.isArray(e.price_changes) && e.price_changes.some((c: { asset_id?: unknown }) => typeof c.asset_id === 'string' && assets.has(c.asset_id));
}

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
wss.on('connection', (client) => {
  const assets = new Set<string>();
  let upstream: WebSocket | undefined;
  let ping: NodeJS.Timeout | undefined;
  client.on('message', (data) => {
    let req: { assets_ids?: unknown };
    try {
      req = JSON.parse(data.toString()) as typeof req;
    } catch {
      return;
    }
    const ids = Array.isArray(req.assets_ids) ? req.assets_ids.map(String) : [];
    for (const id of ids) assets.add(id);
    if (upstream) return void upstream.send(JSON.stringify({ operation: 'subscribe', assets_ids: ids }));
    const up = (upstream = new WebSocket(upstreamUrl));
    up.on('open', () => {
      up.send(JSON.stringify({ assets_ids: [...assets], type: 'market', initial_dump: true }));
      ping = setInterval(() => up.send('PING'), 10_000);
    });
    up.on('message', (frame) => {
      const raw = frame.toString();
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return; // PONG and other bare text
      }
      const events = Array.isArray(parsed) ? parsed : [parsed];
      if (events.some((e) => namesAny(e, assets))) client.send(raw);
    });
    up.on('close', () => client.close());
  });
  client.on('close', () => {
    if (ping) clearInterval(ping);
    upstream?.terminate();
  });
});
wss.on('listening', () => {
  const addr = wss.address();
  console.log(JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 }));
});
process.on('SIGTERM', () => process.exit(0));
