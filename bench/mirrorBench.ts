/**
 * Mirror (issue 22): 50 public markets at 200 upstream events/s in total, from a synthetic public upstream
 * (bench/mirrorUpstream.ts), mirrored by the real engine in its own process (`--mirror <50 condition ids>
 * --upstream-clob/--upstream-ws … --no-sim`), beside a bare relay of the same events in its own process
 * (bench/bareRelay.ts) in the same run. For both: CPU per upstream event (from /proc) and latency from the
 * upstream send to the local stream event at a client subscribed to all 100 tokens.
 *
 * Correlation: every level change the generator makes carries a size unique in the run, so a mirror event is
 * found by (token, price, size) of its outcome-0 level; the relay forwards frames as received, so its frames
 * are found by their text. Both are measured over the same upstream events (those that set a level).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { parseUnits } from '../engine/protocol/amounts.js';
import { ROOT, spawnWithReadyLine, startEngineProcess, type ReadyProcess } from './engineProcess.js';
import { levelKey, startMirrorUpstream } from './mirrorUpstream.js';
import { percentile, processCpuSeconds } from './orderLoad.js';

export interface StreamFigures {
  /** CPU µs of the process per upstream event published in the window. */
  cpuUsPerEvent: number;
  /** CPU of the process over the window, % of one core. */
  cpuPercent: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU with the upstream connected but silent (same processes, before the events start), % of one core. */
  idleCpuPercent: number;
  /** CPU per upstream event above that idle rate: what the events themselves cost. */
  marginalCpuUsPerEvent: number;
  /** Level-setting upstream events of the window that reached the client (the mirror's stream coalesces two changes of one level within a flush). */
  delivered: number;
  measured: number;
  /** Frames and bytes the local client received in the window. */
  frames: number;
  bytes: number;
}

export interface MirrorBenchResult {
  markets: number;
  tokens: number;
  eventsPerSecond: number;
  windowSeconds: number;
  warmupSeconds: number;
  seed: number;
  /** Upstream event frames published in the window (a match is four: a print and a book per token). */
  events: number;
  relay: StreamFigures;
  /** Undefined when the engine could not mirror (reason in `mirrorError`). */
  mirror?: StreamFigures;
  mirrorError?: string;
  /** Seconds from the engine's spawn until every market was live and subscribed. */
  mirrorStartSeconds?: number;
  /** True: the compiled engine in dist/ ran; false: the sources through tsx. */
  engineCompiled: boolean;
  /** 1-minute load average of the machine when the window ended. */
  loadAverage: number;
}

export interface MirrorBenchOptions {
  markets?: number;
  eventsPerSecond?: number;
  windowSeconds?: number;
  warmupSeconds?: number;
  /** Seconds measured with the upstream silent, before the events start (default 3). */
  idleSeconds?: number;
  seed?: number;
  /** Skip the engine (the relay path alone). */
  relayOnly?: boolean;
}

function progress(what: string): void {
  if (process.env.BENCH_QUIET !== '1') console.error(`  mirror: ${what}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local stream client: calls `onFrame(text, receivedAt)` for each frame. */
async function subscribe(url: string, tokens: readonly string[], onFrame: (text: string, at: number) => void): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('message', (data) => onFrame(data.toString(), performance.now()));
  ws.send(JSON.stringify({ assets_ids: tokens, type: 'market', initial_dump: true }));
  return ws;
}

/** The (token, price, size) keys of a local stream frame's level changes. */
function levelKeysOf(text: string): string[] {
  if (!text.startsWith('{') && !text.startsWith('[')) return [];
  const parsed = JSON.parse(text) as unknown;
  const keys: string[] = [];
  for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
    const changes = (e as { price_changes?: unknown }).price_changes;
    if (!Array.isArray(changes)) continue;
    for (const c of changes as Array<{ asset_id?: unknown; price?: unknown; size?: unknown }>) {
      const price = typeof c.price === 'string' ? parseUnits(c.price) : undefined;
      const size = typeof c.size === 'string' ? parseUnits(c.size) : undefined;
      if (typeof c.asset_id === 'string' && price !== undefined && size !== undefined) keys.push(levelKey(c.asset_id, price, size));
    }
  }
  return keys;
}

/** Latencies of the measured events that arrived (first arrival of each), and what the client received. */
class Latencies {
  readonly sentAt = new Map<string, number>();
  private readonly got = new Map<string, number>();
  frames = 0;
  bytes = 0;
  counting = false;
  frame(text: string): void {
    if (!this.counting) return;
    this.frames++;
    this.bytes += text.length;
  }
  expect(key: string, at: number): void {
    this.sentAt.set(key, at);
  }
  receive(key: string, at: number): void {
    const sent = this.sentAt.get(key);
    if (sent !== undefined && !this.got.has(key)) this.got.set(key, at - sent);
  }
  figures(cpuSeconds: number, idleCpuPercent: number, windowSeconds: number, events: number): StreamFigures {
    const lat = [...this.got.values()].sort((a, b) => a - b);
    return {
      cpuUsPerEvent: (cpuSeconds * 1e6) / events,
      cpuPercent: (100 * cpuSeconds) / windowSeconds,
      idleCpuPercent,
      marginalCpuUsPerEvent: ((cpuSeconds - (idleCpuPercent / 100) * windowSeconds) * 1e6) / events,
      p50Ms: percentile(lat, 50),
      p99Ms: percentile(lat, 99),
      delivered: lat.length,
      measured: this.sentAt.size,
      frames: this.frames,
      bytes: this.bytes,
    };
  }
}

/** Polls the engine's market records until every mirrored market says `live`; returns why not on timeout. */
async function waitMirrorsLive(trading: string, conditionIds: readonly string[], timeoutMs: number): Promise<string | undefined> {
  const end = Date.now() + timeoutMs;
  let pending = [...conditionIds];
  let last = '';
  while (pending.length && Date.now() < end) {
    const still: string[] = [];
    for (const cid of pending) {
      const res = await fetch(`${trading}/markets/${cid}`);
      const body = (await res.json()) as { mirror?: { upstreamState?: string } | null };
      if (res.status !== 200 || body.mirror?.upstreamState !== 'live') {
        still.push(cid);
        last = `${res.status} ${JSON.stringify(body).slice(0, 200)}`;
      }
    }
    pending = still;
    if (pending.length) await sleep(250);
  }
  return pending.length ? `${pending.length} of ${conditionIds.length} markets not live after ${timeoutMs / 1000} s (last answer: ${last})` : undefined;
}

/** Whether startEngineProcess runs dist/ (scripts/engineEntry.mjs decides, by the build's age). */
async function engineCompiled(): Promise<boolean> {
  const { engineEntry } = (await import(pathToFileURL(join(ROOT, 'scripts', 'engineEntry.mjs')).href)) as { engineEntry(): { compiled: boolean } };
  return engineEntry().compiled;
}

export async function runMirrorBench(opts: MirrorBenchOptions = {}): Promise<MirrorBenchResult> {
  const nMarkets = opts.markets ?? 50;
  const rate = opts.eventsPerSecond ?? 200;
  const windowSeconds = opts.windowSeconds ?? Number(process.env.BENCH_MIRROR_SECONDS ?? 20);
  const warmupSeconds = opts.warmupSeconds ?? Number(process.env.BENCH_MIRROR_WARMUP ?? 3);
  const seed = opts.seed ?? 22;
  const upstream = await startMirrorUpstream({ seed, markets: nMarkets });
  const conditionIds = upstream.markets.markets.map((m) => m.conditionId);
  const tokens = upstream.markets.markets.flatMap((m) => [...m.tokenIds]);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-mirror-'));
  const sockets: WebSocket[] = [];
  let relay: ReadyProcess<{ port: number }> | undefined;
  let engine: ReadyProcess<{ trading: string; ws: string }> | undefined;
  try {
    relay = await spawnWithReadyLine<{ port: number }>(['--import', 'tsx', join(ROOT, 'bench', 'bareRelay.ts'), upstream.wsUrl]);
    let mirrorError: string | undefined;
    let mirrorStartSeconds: number | undefined;
    if (!opts.relayOnly) {
      progress(`starting the engine mirroring ${nMarkets} markets of the synthetic upstream`);
      const t0 = performance.now();
      try {
        engine = await startEngineProcess([
          ...['--port', '0', '--data-dir', dataDir, '--chain', 'none', '--no-demo', '--no-sim', '--no-rate-limits'],
          ...['--upstream-clob', upstream.clobUrl, '--upstream-gamma', upstream.clobUrl, '--upstream-ws', upstream.wsUrl],
          ...['--mirror', conditionIds.join(',')],
        ]);
        mirrorError = await waitMirrorsLive(engine.ready.trading, conditionIds, 60_000);
        mirrorStartSeconds = (performance.now() - t0) / 1000;
      } catch (e) {
        // The spawn error repeats the whole command line (50 condition ids): keep what the engine said.
        const msg = e instanceof Error ? e.message : String(e);
        mirrorError = msg.slice(msg.indexOf('before ready:') >= 0 ? msg.indexOf('before ready:') : 0).slice(0, 300).trim();
      }
    }

    const relayLat = new Latencies();
    const mirrorLat = new Latencies();
    let measuring = false;
    // The relay forwards frames as received (found by their text); the mirror's level changes by (token, price, size).
    const relayKeyOf = new Map<string, string>();
    upstream.onSend = (frame, text, at) => {
      if (!measuring || !frame.key) return;
      relayLat.expect(frame.key, at);
      relayKeyOf.set(text, frame.key);
      mirrorLat.expect(frame.key, at);
    };
    sockets.push(
      await subscribe(`ws://127.0.0.1:${relay.ready.port}`, tokens, (text, at) => {
        relayLat.frame(text);
        const key = relayKeyOf.get(text);
        if (key) relayLat.receive(key, at);
      }),
    );
    const mirrorOn = engine !== undefined && mirrorError === undefined;
    if (mirrorOn) {
      sockets.push(
        await subscribe(`${engine!.ready.ws}/market`, tokens, (text, at) => {
          mirrorLat.frame(text);
          for (const k of levelKeysOf(text)) mirrorLat.receive(k, at);
        }),
      );
    }

    // What both processes cost with the upstream connected and silent: the engine's fixed share (timers, polls).
    const idleSeconds = opts.idleSeconds ?? 3;
    progress(`${idleSeconds} s with the upstream silent, then ${rate} events/s over ${nMarkets} markets: ${warmupSeconds} s warm-up and a ${windowSeconds} s window`);
    await sleep(500);
    const idle0 = [processCpuSeconds(relay.pid), mirrorOn ? processCpuSeconds(engine!.pid) : 0, performance.now()] as const;
    await sleep(idleSeconds * 1000);
    const idleWall = (performance.now() - idle0[2]) / 1000;
    const relayIdle = (100 * (processCpuSeconds(relay.pid) - idle0[0])) / idleWall;
    const engineIdle = mirrorOn ? (100 * (processCpuSeconds(engine!.pid) - idle0[1])) / idleWall : 0;
    upstream.start(rate);
    await sleep(warmupSeconds * 1000);
    measuring = true;
    relayLat.counting = mirrorLat.counting = true;
    const sent0 = upstream.sent;
    const relayCpu0 = processCpuSeconds(relay.pid);
    const engineCpu0 = mirrorOn ? processCpuSeconds(engine!.pid) : 0;
    const w0 = performance.now();
    await sleep(windowSeconds * 1000);
    const window = (performance.now() - w0) / 1000;
    const relayCpu = processCpuSeconds(relay.pid) - relayCpu0;
    const engineCpu = mirrorOn ? processCpuSeconds(engine!.pid) - engineCpu0 : 0;
    const events = upstream.sent - sent0;
    measuring = false;
    relayLat.counting = mirrorLat.counting = false;
    const loadAverage = (await import('node:os')).loadavg()[0]!;
    upstream.stop();
    // Late deliveries of the window's last events still count (their latency says how late).
    await sleep(1000);
    return {
      markets: nMarkets,
      tokens: tokens.length,
      eventsPerSecond: rate,
      windowSeconds: window,
      warmupSeconds,
      seed,
      events,
      relay: relayLat.figures(relayCpu, relayIdle, window, events),
      ...(mirrorOn ? { mirror: mirrorLat.figures(engineCpu, engineIdle, window, events) } : {}),
      ...(mirrorError !== undefined ? { mirrorError } : {}),
      ...(mirrorStartSeconds !== undefined ? { mirrorStartSeconds } : {}),
      loadAverage,
      engineCompiled: await engineCompiled(),
    };
  } finally {
    for (const s of sockets) s.terminate();
    await engine?.stop();
    await relay?.stop();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
