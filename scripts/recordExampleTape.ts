// Regenerates the shipped example tape: npx tsx scripts/recordExampleTape.ts [seconds=30] [speed=10]
//
// Starts a local upstream (this project's engine in the polymarket profile, with its demo markets and their
// simulated participants, exchange time `speed`× wall time), then records its first demo market the way a
// mirror does: a `GET /book` resync, every event of the public market channel with its receive time, and
// a `GET /markets/{id}` poll at the start and the end, into resources/tapes/example-calm-market.jsonl.gz.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createEngine } from '../engine/engine.js';
import { UpstreamClient } from '../engine/services/mirror/upstream/upstreamClient.js';
import { examplesDir } from '../engine/services/tapes/tapeService.js';
import { TapeWriter } from '../engine/services/tapes/tapeWriter.js';

const EXAMPLE = 'example-calm-market.jsonl.gz';

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 30);
  const speed = Number(process.argv[3] ?? 10);
  const upstreamDir = mkdtempSync(join(tmpdir(), 'example-upstream-'));
  const tapeDir = mkdtempSync(join(tmpdir(), 'example-tape-'));
  const upstream = await createEngine({ dataDir: upstreamDir, chain: 'none', profile: 'polymarket', speed, seed: 5, serveRenderer: false, rateLimits: false });
  try {
    const ready = await upstream.listen();
    const m = upstream.ctx.markets.list()[0]!;
    // The identity as a mirror resolves it over the wire (CLOB GET /markets/{id}; Gamma is not served here).
    const client = new UpstreamClient({ clobBase: ready.trading, gammaBase: 'http://127.0.0.1:9' });
    const identity = await client.resolveMarket(m.conditionId);
    const writer = new TapeWriter(tapeDir, identity, { clob: ready.trading, ws: `${ready.ws}/market` });
    const poll = async () => writer.write({ t: Date.now(), market: await (await fetch(`${ready.trading}/markets/${m.conditionId}`)).json() });
    await poll();
    writer.write({ t: Date.now(), resync: await (await fetch(`${ready.trading}/book?token_id=${m.tokenIds[0]}`)).json() });
    const socket = new WebSocket(`${ready.ws}/market`);
    socket.on('message', (data) => {
      const t = Date.now();
      let frame: unknown;
      try {
        frame = JSON.parse(String(data));
      } catch {
        return; // PONG and other text frames are not events
      }
      for (const e of Array.isArray(frame) ? frame : [frame]) writer.write({ t, e });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ assets_ids: [...m.tokenIds], type: 'market', initial_dump: false }));
    await new Promise((r) => setTimeout(r, seconds * 1000));
    socket.close();
    await poll();
    writer.flush();
    const dir = examplesDir();
    mkdirSync(dir, { recursive: true });
    copyFileSync(writer.state!.path, join(dir, EXAMPLE));
    console.log(JSON.stringify({ tape: join(dir, EXAMPLE), market: m.question, events: writer.state!.events }));
  } finally {
    await upstream.close();
    rmSync(upstreamDir, { recursive: true, force: true });
    rmSync(tapeDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
