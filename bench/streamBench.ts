/**
 * Streams: fan-out of one busy market's events to 1,000 market-channel subscribers (delivered events/s
 * and latency from each order's HTTP answer to its event at a subscriber), beside a bare `ws` broadcast
 * of the same frames to the same number of sockets; and POST /order throughput with 100 subscribers
 * connected against none. The subscribers run in this process: on a shared 2-core machine the load
 * generator's CPU is taken from the server's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import WebSocket from 'ws';
import type { Address } from '../engine/protocol/eip712.js';
import { ROOT, spawnWithReadyLine, startEngineProcess } from './engineProcess.js';
import { createMarket, createTrader, prepareOrders, serializeOrders } from './httpBench.js';
import { l2Headers, medianRound, measuredRound, openConnections, percentile, signedBuyBody, type HttpRound, type OrderDomain } from './orderLoad.js';
import { serializeRequest, type RawConnection } from './rawHttpClient.js';

export interface FanOutFigures {
  subscribers: number;
  events: number;
  eventsPerSecond: number;
  /** Engine: from the order's HTTP answer to the event (0 when the event came first); bare: from send. */
  p50Ms: number;
  p99Ms: number;
  /** From the moment the order (or the bare frame) was sent to the event at the subscriber. */
  fromSendP50Ms: number;
  fromSendP99Ms: number;
}

export interface StreamBenchResult {
  engine: FanOutFigures;
  bare: FanOutFigures;
  orderPath: { without: HttpRound; with100: HttpRound; percent: number; framesPerOrder: number; bytesPerOrder: number };
}

function progress(what: string): void {
  if (process.env.BENCH_QUIET !== '1') console.error(`  streams: ${what}`);
}

/** Subscribers whose receive times are kept (every one counts events; parsing all 1,000 would measure this process). */
const SAMPLE_EVERY = 25;

interface Subscriber {
  ws: WebSocket;
  /** Book changes received (a frame may carry several events, an event several changes). */
  count: number;
  /** Frames and bytes received. */
  frames: number;
  bytes: number;
  /** Sampled: event key → receive time. */
  times?: Map<string, number>;
}

async function openSubscribers(url: string, n: number, first: string | undefined, keys: (text: string) => string[]): Promise<Subscriber[]> {
  const subs: Subscriber[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        new Promise<Subscriber>((resolve, reject) => {
          const ws = new WebSocket(url);
          const sub: Subscriber = { ws, count: 0, frames: 0, bytes: 0, ...((i + j) % SAMPLE_EVERY === 0 ? { times: new Map<string, number>() } : {}) };
          ws.on('message', (data) => {
            const text = data.toString();
            sub.frames += 1;
            sub.bytes += text.length;
            sub.count += countOf(text, EVENT_MARK);
            if (sub.times) {
              const now = performance.now();
              for (const k of keys(text)) sub.times.set(k, now);
            }
          });
          ws.once('open', () => {
            if (first) ws.send(first);
            resolve(sub);
          });
          ws.once('error', reject);
        }),
      ),
    );
    subs.push(...batch);
  }
  return subs;
}

async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pred() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

/** One level change inside a price_change (the engine merges a turn's changes into one event per asset; each order of the run is one change). */
const EVENT_MARK = '{"asset_id":"';

function countOf(text: string, mark: string): number {
  let n = 0;
  for (let i = text.indexOf(mark); i >= 0; i = text.indexOf(mark, i + mark.length)) n++;
  return n;
}

function figures(subs: Subscriber[], answered: Map<string, number>, sent: Map<string, number>, t0: number, expected: number): FanOutFigures {
  const lat: number[] = [];
  const fromSend: number[] = [];
  let last = t0;
  for (const s of subs) {
    if (!s.times) continue;
    for (const [k, t] of s.times) {
      const at = answered.get(k);
      if (at !== undefined) lat.push(Math.max(0, t - at));
      const sentAt = sent.get(k);
      if (sentAt !== undefined) fromSend.push(t - sentAt);
      if (t > last) last = t;
    }
  }
  lat.sort((a, b) => a - b);
  fromSend.sort((a, b) => a - b);
  const delivered = subs.reduce((a, s) => a + s.count, 0);
  return {
    subscribers: subs.length,
    events: expected,
    eventsPerSecond: delivered / ((last - t0) / 1000),
    p50Ms: percentile(lat, 50),
    p99Ms: percentile(lat, 99),
    fromSendP50Ms: percentile(fromSend, 50),
    fromSendP99Ms: percentile(fromSend, 99),
  };
}

/** The prices of a frame's level changes: each order of the fan-out run rests alone at its own price. */
const pricesOf = (text: string): string[] => [...text.matchAll(/\{"asset_id":"\d+","price":"([0-9.]+)"/g)].map((m) => m[1]!);

export async function runStreamBench(opts: { subscribers?: number; orders?: number } = {}): Promise<StreamBenchResult> {
  const nSubs = opts.subscribers ?? 1000;
  const nOrders = opts.orders ?? 1000;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-streams-'));
  const engine = await startEngineProcess(['--port', '0', '--data-dir', dataDir, '--chain', 'none', '--no-demo', '--no-rate-limits']);
  const bare = await spawnWithReadyLine<{ port: number }>(['--import', 'tsx', join(ROOT, 'bench', 'bareBroadcastServer.ts')]);
  let conns: RawConnection[] = [];
  const closers: Array<() => void> = [];
  try {
    const ready = engine.ready;
    const config = (await (await fetch(`${ready.trading}/config`)).json()) as { chainId: number; contracts: { exchange: Address } };
    const domain: OrderDomain = { chainId: config.chainId, verifyingContract: config.contracts.exchange };
    const traders = await Promise.all(Array.from({ length: 8 }, () => createTrader(ready)));

    // ── fan-out: every order rests alone at its own price (YES bids below 0.5, NO bids mirrored above) ──
    const market = await createMarket(ready, '0.0001');
    progress(`opening ${nSubs} engine subscribers`);
    const subs = await openSubscribers(`${ready.ws}/market`, nSubs, JSON.stringify({ assets_ids: [market.yes], type: 'market', initial_dump: false }), pricesOf);
    closers.push(() => subs.forEach((s) => s.ws.terminate()));
    await new Promise((r) => setTimeout(r, 300));
    const reqs: Array<{ bytes: Buffer; price: string }> = [];
    for (let i = 0; i < nOrders; i++) {
      const t = traders[i % traders.length]!;
      const yes = i % 2 === 0;
      const p = BigInt(100 + Math.floor(i / 2)); // 0.0100, 0.0101, … in micro-units of 100
      const body = signedBuyBody(t, market.conditionId, yes ? market.yes : market.no, p * 100n, 5_000_000n, 5_000_000 + i, 'GTC', domain);
      const price = yes ? p * 100n : 1_000_000n - p * 100n;
      reqs.push({ bytes: serializeRequest(new URL(ready.trading).host, 'POST', '/order', l2Headers(t.address, t.creds, 'POST', '/order', body), body), price: (Number(price) / 1e6).toString() });
    }
    const answered = new Map<string, number>();
    const sentAt = new Map<string, number>();
    // Connections are opened right before each phase: one left idle past the server's keep-alive timeout
    // (a slow phase on a loaded machine) would be closed under the load generator.
    conns = await openConnections(ready.trading, 8);
    progress(`sending ${nOrders} orders`);
    const t0 = performance.now();
    await sendAll(conns, reqs, answered, sentAt);
    await waitFor(() => subs.every((s) => s.count >= nOrders), 60_000);
    const engineFigures = figures(subs, answered, sentAt, t0, nOrders);
    const frames = [...(subs[0]!.times?.keys() ?? [])].length;
    if (frames < nOrders) console.error(`fan-out: sampled subscriber 0 saw ${frames}/${nOrders} events`);

    // ── the same frames through a bare ws broadcast to as many sockets ──
    progress('bare ws broadcast');
    const bareUrl = `ws://127.0.0.1:${bare.ready.port}`;
    const bareSubs = await openSubscribers(bareUrl + '/sub', nSubs, undefined, (text) => [...text.matchAll(/"k":"(\d+)"/g)].map((m) => m[1]!));
    closers.push(() => bareSubs.forEach((s) => s.ws.terminate()));
    const pub = await new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(bareUrl + '/pub');
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
    closers.push(() => pub.terminate());
    await new Promise((r) => setTimeout(r, 300));
    // The engine's frames are ~the same size: a price_change text with a key the subscribers can read.
    const sample = `{"event_type":"price_change","market":"${market.conditionId}","timestamp":"${Date.now()}","price_changes":[{"asset_id":"${market.yes}","price":"0.0123","size":"5","side":"BUY","hash":"${'0'.repeat(40)}","best_bid":"0.0123","best_ask":"0.9877"}],"hash":"${'0'.repeat(40)}","seq":1,"k":"`;
    // Paced as the orders arrived at the engine (each frame at its order's send offset), so both see the same load.
    const offsets = [...sentAt.values()].map((t) => t - t0).sort((a, b) => a - b);
    const sentBare = new Map<string, number>();
    const b0 = performance.now();
    for (let i = 0; i < nOrders; i++) {
      while (performance.now() - b0 < offsets[i]!) await new Promise((r) => setImmediate(r));
      sentBare.set(String(i), performance.now());
      pub.send(sample + i + '"}');
    }
    await waitFor(() => bareSubs.every((s) => s.count >= nOrders), 60_000);
    const bareFigures = figures(bareSubs, sentBare, sentBare, b0, nOrders);
    for (const c of closers.splice(0)) c();

    // ── the order path with 100 subscribers vs none ──
    let framesPerOrder = 0;
    let bytesPerOrder = 0;
    const round = async (subscribers: number): Promise<HttpRound> => {
      const m = await createMarket(ready, '0.01');
      const watchers = subscribers === 0 ? [] : await openSubscribers(`${ready.ws}/market`, subscribers, JSON.stringify({ assets_ids: [m.yes, m.no], type: 'market' }), () => []);
      try {
        const orderReqs = serializeOrders(ready.trading, prepareOrders(8_000, traders, m, domain));
        const r = (await measuredRound(engine.pid, conns, orderReqs)).round;
        await new Promise((res) => setTimeout(res, 100));
        if (watchers.length > 0) {
          // What the streams cost the subscribers' side: frames and bytes all of them received per order.
          framesPerOrder = watchers.reduce((a, w) => a + w.frames, 0) / r.accepted;
          bytesPerOrder = watchers.reduce((a, w) => a + w.bytes, 0) / r.accepted;
        }
        return r;
      } finally {
        watchers.forEach((s) => s.ws.terminate());
      }
    };
    for (const c of conns) c.close();
    conns = await openConnections(ready.trading, 64);
    progress('order path: warm-up, then 3 rounds without and with 100 subscribers');
    await round(0); // warm-up
    const without: HttpRound[] = [];
    const with100: HttpRound[] = [];
    for (let r = 0; r < 3; r++) {
      without.push(await round(0));
      with100.push(await round(100));
    }
    const w = medianRound(without);
    const s = medianRound(with100);
    return { engine: engineFigures, bare: bareFigures, orderPath: { without: w, with100: s, percent: (100 * s.acceptedPerSecond) / w.acceptedPerSecond, framesPerOrder, bytesPerOrder } };
  } finally {
    for (const c of closers) c();
    for (const c of conns) c.close();
    await bare.stop();
    await engine.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Sends every order (one at a time per connection), noting when each price's answer arrived. */
function sendAll(conns: RawConnection[], reqs: Array<{ bytes: Buffer; price: string }>, answered: Map<string, number>, sentAt: Map<string, number>): Promise<void> {
  let next = 0;
  return new Promise((resolve, reject) => {
    let active = conns.length;
    const go = (c: RawConnection): void => {
      const i = next++;
      if (i >= reqs.length) {
        if (--active === 0) resolve();
        return;
      }
      sentAt.set(reqs[i]!.price, performance.now());
      c.request(
        reqs[i]!.bytes,
        (status, body) => {
          if (status !== 201) return reject(new Error(`order ${i}: ${status} ${body.toString('utf8', 0, 200)}`));
          answered.set(reqs[i]!.price, performance.now());
          go(c);
        },
        reject,
      );
    };
    for (const c of conns) go(c);
  });
}


if (import.meta.url === `file://${process.argv[1]}`) {
  runStreamBench()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}

