/**
 * `npm run bench`: every performance figure of the engine, each printed beside its target and the
 * reference measured in the same run. A benchmark, not a timed test: it reports, it does not fail CI.
 * `npm run bench -- matching crypto http reference cold sim soak streams clock mcp mirror` runs a subset (`http` includes
 * `reference`; `streams` is the WebSocket fan-out and the order path with subscribers; `mirror` is issue 22's public
 * mirror beside a bare relay, and the fast replay of a one-hour tape).
 */
import { runColdStartBench } from './coldStartBench.js';
import { runCryptoBench } from './cryptoBench.js';
import { runHttpBench } from './httpBench.js';
import { runMatchingBench } from './matchingBench.js';
import { runReferenceBench, type ReferenceResult } from './referenceBench.js';
import { runSimBench } from './simBench.js';
import { runSoakBench } from './soakBench.js';
import { runClockBench } from './clockBench.js';
import { runMcpAdvanceBench, runMcpBench, type GcShare as McpGcShare } from './mcpBench.js';
import { runStreamBench } from './streamBench.js';
import { runMirrorBench, type StreamFigures as MirrorStreamFigures } from './mirrorBench.js';
import { FLUSH_INTERVAL_MS } from '../engine/services/streams/streamTransport.js';
import { runReplayBench } from './mirrorReplayBench.js';
import type { ReferenceStage } from './referenceServer.js';

const wanted = new Set(process.argv.slice(2));
const want = (k: string) => wanted.size === 0 || wanted.has(k);

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const rows: Array<[string, string, string, string]> = [];
const row = (what: string, figure: string, target: string, ok: boolean) => rows.push([what, figure, target, verdict(ok)]);

/** The entry with the highest throughput (the targets allow any connection count ≥ 50). */
const fastest = <T>(xs: T[], perSecond: (x: T) => number): T => xs.reduce((a, b) => (perSecond(b) > perSecond(a) ? b : a));

const REFERENCE_LABELS: Record<ReferenceStage, string> = {
  http: 'bare node:http, fixed 201, no work',
  verify: '+ L2 HMAC, JSON, digest, signature (nothing stored)',
  durable: '+ one durable row per order (least before a 201)',
  prototype: "the issue's prototype (node:http, createHmac, recovery, one row)",
};

async function referencePipelines(): Promise<ReferenceResult[]> {
  console.error('… reference pipelines: the same load generator and orders against the least work an order needs, 64 and 256 connections, 3 rounds each');
  return runReferenceBench();
}

function referenceRows(results: ReferenceResult[], twoCoreCeiling: number | undefined): void {
  rows.push(["  this machine's reference pipelines (same load generator; best of 64 / 256 connections)", '', '', '']);
  for (const stage of Object.keys(REFERENCE_LABELS) as ReferenceStage[]) {
    const runs = results.filter((r) => r.stage === stage);
    if (runs.length === 0) continue;
    const best = fastest(runs, (r) => r.median.acceptedPerSecond);
    const m = best.median;
    const share = twoCoreCeiling ? `, ${fmt((100 * m.acceptedPerSecond) / twoCoreCeiling, 1)} % of ceiling` : '';
    rows.push([
      `    ${REFERENCE_LABELS[stage]}`,
      `${fmt(m.acceptedPerSecond)}/s at ${best.connections}${share}`,
      `rounds ${runs.map((r) => r.rounds.map((x) => fmt(x.acceptedPerSecond)).join(' / ')).join(' | ')}; CPU ${fmt(m.engineCpuUsPerOrder)} / ${fmt(m.loadGeneratorCpuUsPerOrder)} µs; p99 ${fmt(m.p99Ms, 1)} ms`,
      '',
    ]);
  }
}

async function main(): Promise<void> {
  let twoCoreCeiling: number | undefined;

  if (want('matching')) {
    console.error('… matching core: 1,000,000 mixed orders, ours vs the npm order books');
    const m = await runMatchingBench();
    row('matching core (1M mixed orders)', `${fmt(m.ours.ordersPerSecond)} orders/s`, '≥ 2,000,000 orders/s', m.ours.ordersPerSecond >= 2_000_000);
    for (const lib of m.libraries) {
      const figure = lib.error ? `error: ${lib.error}` : `${fmt(lib.ordersPerSecond)} orders/s${lib.fullStream ? '' : ` (on ${fmt(lib.ordersMeasured)} orders)`}`;
      rows.push([`  reference: ${lib.name}@${lib.version}`, figure, '', '']);
    }
    if (m.ratioToFastest !== undefined) row(`  ours ÷ fastest library (${m.fastestLibrary})`, `${fmt(m.ratioToFastest, 1)}×`, '≥ 30×', m.ratioToFastest >= 30);
  }

  if (want('crypto') || want('http') || want('reference')) {
    console.error('… signature crypto: digests, recoveries, two-core ceiling');
    const c = await runCryptoBench();
    twoCoreCeiling = c.recoveriesPerSecTwoCores;
    row('EIP-712 order digest (fast)', `${fmt(c.usPerDigestFast, 2)} µs (${fmt(c.digestsPerSecFast)}/s)`, `viem: ${fmt(c.digestsPerSecViem)}/s`, c.digestsPerSecFast > c.digestsPerSecViem);
    row('signer recovery, one core (native)', `${fmt(c.recoveriesPerSecNative)}/s`, `viem/noble: ${fmt(c.recoveriesPerSecViem)}/s`, c.recoveriesPerSecNative > c.recoveriesPerSecViem);
    rows.push([
      'signature batch verification, one core (32 a batch)',
      c.batchVerifiesPerSec === null ? 'addon not built' : `${fmt(c.batchVerifiesPerSec)}/s`,
      'what the order path uses once it knows the signer',
      '',
    ]);
    rows.push(['signer recovery ceiling, two cores', `${fmt(c.recoveriesPerSecTwoCores)}/s`, 'reference for the HTTP figure', '']);
  }

  if (want('http')) {
    // The target asks for ≥ 50 connections: 64, and 256 where batches grow (each with its latency).
    const sweep = [];
    for (const connections of [64, 256]) {
      console.error(`… HTTP end to end: pre-signed orders, ${connections} connections, engine in its own process, 3 rounds`);
      sweep.push(await runHttpBench({ connections }));
    }
    const h = sweep[0]!;
    const best = fastest(sweep, (r) => r.acceptedPerSecond);
    row(
      'POST /order end to end (durable before 201)',
      `${fmt(best.acceptedPerSecond)} accepted/s at ${best.connections} connections`,
      '≥ 12,000/s',
      best.acceptedPerSecond >= 12_000,
    );
    if (twoCoreCeiling) {
      const share = (100 * best.acceptedPerSecond) / twoCoreCeiling;
      row('  share of the two-core recovery ceiling', `${fmt(share, 1)} %`, '≥ 45 %', share >= 45);
    }
    // What the machine itself allows, beside the engine's figure: the least work an order needs, under the same load.
    const references = await referencePipelines();
    for (const r of sweep) {
      // The bare node:http server (fixed 201, no work) at the same connection count: the HTTP floor under this load.
      const bare = references.find((x) => x.stage === 'http' && x.connections === r.connections)?.median;
      rows.push([
        `  ${r.connections} connections: median of rounds`,
        `${fmt(r.acceptedPerSecond)} accepted/s (${fmt(r.accepted)}/${fmt(r.orders)} in ${fmt(r.seconds, 2)} s)`,
        bare ? `bare node:http: ${fmt(bare.acceptedPerSecond)}/s` : '',
        '',
      ]);
      rows.push(['    latency p50 / p99', `${fmt(r.p50Ms, 2)} / ${fmt(r.p99Ms, 2)} ms`, bare ? `bare node:http: ${fmt(bare.p50Ms, 2)} / ${fmt(bare.p99Ms, 2)} ms` : '', '']);
      rows.push(['    rounds', r.rounds.map((x) => fmt(x.acceptedPerSecond)).join(' / ') + ' accepted/s', '', '']);
      rows.push(['    CPU per order: engine / load generator', `${fmt(r.engineCpuUsPerOrder)} / ${fmt(r.loadGeneratorCpuUsPerOrder)} µs`, '', '']);
      rows.push(['    signatures batch-verified', `${fmt(r.pipeline.batchVerifiedPercent, 1)} %`, '', '']);
    }
    referenceRows(references, twoCoreCeiling);
    row('batch lookup of 500 ids (p50, HTTP)', `${fmt(h.lookup500.p50Ms, 2)} ms (p99 ${fmt(h.lookup500.p99Ms, 2)})`, '< 25 ms', h.lookup500.p50Ms < 25);
    row(
      `GET /book at ${h.book1000Levels.levels} levels (p50, HTTP)`,
      `${fmt(h.book1000Levels.p50Ms, 3)} ms (p99 ${fmt(h.book1000Levels.p99Ms, 3)}; minus empty-route round trip ${fmt(h.book1000Levels.serverP50Ms, 3)})`,
      '< 1 ms',
      h.book1000Levels.p50Ms < 1,
    );
  }

  if (want('reference') && !want('http')) referenceRows(await referencePipelines(), twoCoreCeiling);

  if (want('streams')) {
    console.error('… streams: 1,000 market subscribers on one busy market vs a bare ws broadcast; POST /order with 100 subscribers vs none');
    const st = await runStreamBench();
    const ratio = (100 * st.engine.eventsPerSecond) / st.bare.eventsPerSecond;
    row(
      `stream fan-out to ${fmt(st.engine.subscribers)} subscribers (${fmt(st.engine.events)} orders, one book change each)`,
      `${fmt(st.engine.eventsPerSecond)} changes/s delivered (${fmt(ratio, 1)} % of bare)`,
      `≥ 50 % of bare ws broadcast ${fmt(st.bare.eventsPerSecond)}/s (one frame per change)`,
      ratio >= 50,
    );
    row('  latency HTTP answer → event (p50 / p99)', `${fmt(st.engine.p50Ms, 1)} / ${fmt(st.engine.p99Ms, 1)} ms (0: the event came first)`, 'p99 ≤ 50 ms', st.engine.p99Ms <= 50);
    rows.push([
      '  latency order sent → event (p50 / p99)',
      `${fmt(st.engine.fromSendP50Ms, 1)} / ${fmt(st.engine.fromSendP99Ms, 1)} ms`,
      `bare ws, frame sent → received: ${fmt(st.bare.fromSendP50Ms, 1)} / ${fmt(st.bare.fromSendP99Ms, 1)} ms`,
      '',
    ]);
    row(
      'POST /order with 100 subscribers',
      `${fmt(st.orderPath.with100.acceptedPerSecond)}/s (${fmt(st.orderPath.percent, 1)} %)`,
      `≥ 90 % of ${fmt(st.orderPath.without.acceptedPerSecond)}/s without`,
      st.orderPath.percent >= 90,
    );
    // CPU per order says what the subscribers cost where throughput is noisy: the engine's share, and the
    // load generator's (the 100 subscribers' sockets live in this process, on the same two cores).
    rows.push([
      '  CPU per order: engine / load generator',
      `${fmt(st.orderPath.with100.engineCpuUsPerOrder)} / ${fmt(st.orderPath.with100.loadGeneratorCpuUsPerOrder)} µs with 100 subscribers`,
      `${fmt(st.orderPath.without.engineCpuUsPerOrder)} / ${fmt(st.orderPath.without.loadGeneratorCpuUsPerOrder)} µs without`,
      '',
    ]);
    rows.push([
      '  streamed to the 100 subscribers per order',
      `${fmt(st.orderPath.bytesPerOrder / 1024, 1)} KiB in ${fmt(st.orderPath.framesPerOrder, 2)} frames`,
      'every level change carries asset_id and hash (public format)',
      '',
    ]);
    {
      // The subscribers' own CPU shares the two cores: even if streaming cost the engine nothing, an order
      // would cost (engine without) + (generator with) instead of (engine + generator without).
      const w = st.orderPath.without;
      const bound = (100 * (w.engineCpuUsPerOrder + w.loadGeneratorCpuUsPerOrder)) / (w.engineCpuUsPerOrder + st.orderPath.with100.loadGeneratorCpuUsPerOrder);
      rows.push(['  ceiling on this machine if streaming cost the engine nothing', `${fmt(bound, 1)} %`, 'the subscribers run on the same 2 cores', '']);
    }
  }

  if (want('cold')) {
    console.error('… cold start: fresh data dir with anvil + deployment + demo markets, restart, no chain');
    const cs = await runColdStartBench();
    const best = (xs: number[]) => Math.min(...xs);
    row('cold start to ready, fresh dir + anvil', `${cs.freshMs.map((x) => fmt(x)).join(' / ')} ms`, '< 3,000 ms', best(cs.freshMs) < 3_000);
    rows.push(['  restart on the same dir', `${cs.restartMs.map((x) => fmt(x)).join(' / ')} ms`, '', '']);
    rows.push(['  fresh dir, --chain none', `${cs.freshNoChainMs.map((x) => fmt(x)).join(' / ')} ms`, '', '']);
  }

  if (want('sim')) {
    console.error('… simulated participants: calm-market in fast mode, then CPU over 10 s with and without participants on the demo markets');
    const s = await runSimBench();
    row('scenario calm-market in fast mode', `${fmt(s.fast.speedup)}× real time (${fmt(s.fast.simulatedSeconds)} s in ${fmt(s.fast.wallSeconds, 2)} s, ${fmt(s.fast.trades)} trades)`, '≥ 100×', s.fast.speedup >= 100);
    // The difference of two noisy windows can come out at zero on a shared machine, so the verdict uses
    // the whole process's CPU with participants on, an upper bound of what they cost.
    row('participants CPU, default presets, 4 demo markets (whole process, upper bound)', `${fmt(s.cpuWithSimPercent, 2)} % of one core`, '≤ 5 %', s.cpuWithSimPercent <= 5);
    rows.push([`  same engine without participants (${s.windowSeconds} s window); difference`, `${fmt(s.cpuWithoutSimPercent, 2)} %; ${fmt(s.participantsPercent, 2)} %`, `${fmt(s.participantOrders)} participant orders in the window`, '']);
    const lat = s.userLatencyMs;
    row('user order latency p50 with participants / --no-sim', `${fmt(lat.withSim.p50, 2)} / ${fmt(lat.withoutSim.p50, 2)} ms (p99 ${fmt(lat.withSim.p99, 2)} / ${fmt(lat.withoutSim.p99, 2)})`, 'within 10 %', lat.withSim.p50 <= lat.withoutSim.p50 * 1.1);
    // Issue 21's figures of the frozen seed ladder, measured on the same markets before this change.
    for (const r of s.realism) {
      const st = r.stats;
      row(`realism, 10 simulated min: ${r.market}`, `1-tick spread ${fmt(100 * st.oneTickSpreadShare)} % of 1-s samples, mid moves every ${fmt(st.secondsPerMidChange, 1)} s (${fmt(st.distinctMids)} mids)`, '≥ 60 %, ≤ 10 s (was 2–3 ticks, 1–4 mids in 300 s)', st.oneTickSpreadShare >= 0.6 && st.secondsPerMidChange <= 10);
      rows.push(['  VR(10), VR(50) of trade-to-trade returns; jumps ≥ 3 ticks', `${fmt(st.vr10, 2)}, ${fmt(st.vr50, 2)}; ${fmt(st.jumps)} jumps`, '[0.7, 1.3] (was 0.13, 0.04)', '']);
      rows.push(['  trade sizes p10/p50/p90 max (shares); trades', `${fmt(st.tradeShares.p10)}/${fmt(st.tradeShares.p50)}/${fmt(st.tradeShares.p90)} max ${fmt(st.tradeShares.max)}; ${fmt(st.trades)}`, 'heavy tail (was 11/17/35 max 49)', '']);
    }
    rows.push(['  CPU of those 10 simulated minutes (4 markets)', `${fmt(s.realismCpuSeconds, 2)} s`, '', '']);
  }

  if (want('soak')) {
    console.error('… participants soak: one liquid demo market for 24 simulated hours in fast mode (seed 7)');
    const k = await runSoakBench();
    const first = k.tradesPerHour[0]!;
    const last = k.tradesPerHour.at(-1)!;
    const ok = k.broke.length === 0 && k.refused <= k.orders / 20 && last >= first / 2;
    row(`soak: ${k.hours} simulated hours, trades first / last hour`, `${fmt(first)} / ${fmt(last)} (fewest ${fmt(Math.min(...k.tradesPerHour))})`, 'last ≥ half the first; nobody broke; refused ≤ 5 %', ok);
    rows.push(['  participants with nothing left; orders, refused, top-ups', `${k.broke.length ? k.broke.join(', ') : 'none'}; ${fmt(k.orders)}, ${fmt(k.refused)}, ${fmt(k.topUps)}`, '', '']);
    rows.push(['  wall / CPU time', `${fmt(k.wallSeconds, 1)} s / ${fmt(k.cpuSeconds, 1)} s (${fmt((k.hours * 3600) / k.wallSeconds)}× real time)`, '', '']);
  }

  if (want('clock')) {
    console.error('… stepped clock: one simulated hour of the calm preset, POST /admin/clock/advance vs --clock fast (best of two each)');
    const c = await runClockBench();
    row('advance of one simulated hour, calm preset', `${fmt(c.advanceSpeedup)}× real time (${fmt(c.advanceWallSeconds, 2)} s, ${fmt(c.participantOrders)} participant orders)`, '≥ 100×', c.advanceSpeedup >= 100);
    row('  same hour, advance rate ÷ --clock fast rate', `${fmt(c.ratio, 2)} (fast: ${fmt(c.fastSpeedup)}× in ${fmt(c.fastWallSeconds, 2)} s)`, '≥ 0.8', c.ratio >= 0.8);
  }

  if (want('mcp')) {
    console.error(`… MCP reads: a tool call over Streamable HTTP (SDK client) vs the same REST read (both node fetch, keep-alive), sequential, 5 alternating rounds of ${process.env.MCP_BENCH_CALLS ?? 2000} each`);
    for (const m of await runMcpBench()) {
      const ratio = m.toolP99Ms / m.restP99Ms;
      row(
        `MCP get_${m.name} p99 vs REST (${m.name === 'book' ? 'GET /book' : 'GET /data-api/positions'}), median of rounds`,
        `tool ${fmt(m.toolP99Ms, 2)} ms (p50 ${fmt(m.toolP50Ms, 2)}) | REST ${fmt(m.restP99Ms, 2)} ms (p50 ${fmt(m.restP50Ms, 2)}) = ${fmt(ratio, 2)}×`,
        `≤ 2×; rounds tool/REST ${m.rounds.map((x) => `${fmt(x.toolP99Ms, 1)}/${fmt(x.restP99Ms, 1)}`).join(' ')}`,
        ratio <= 2,
      );
      const gc = (g: McpGcShare) => `${fmt(g.perThousandCalls, 1)} collections, ${fmt(g.pauseMsPerThousandCalls, 1)} ms paused`;
      rows.push([`  same tools/call as a plain JSON-RPC POST (no SDK client): the server's share`, `${fmt(m.rpcP99Ms, 2)} ms (p50 ${fmt(m.rpcP50Ms, 2)})`, `rounds ${m.rounds.map((x) => fmt(x.rpcP99Ms, 1)).join(' ')}`, '']);
      rows.push([`  garbage collection per 1,000 get_${m.name} calls (client and engine, one process)`, `tool ${gc(m.toolGc)}; plain POST ${gc(m.rpcGc)}`, `REST ${gc(m.restGc)}`, '']);
    }
    console.error('… MCP advance: one simulated hour of the calm preset by the advance tool vs --clock fast (best of two each)');
    const a = await runMcpAdvanceBench();
    row('MCP advance of one simulated hour ÷ --clock fast rate', `${fmt(a.ratio, 2)} (tool ${fmt(a.toolWallSeconds, 2)} s, fast ${fmt(a.fastWallSeconds, 2)} s)`, '≥ 0.8', a.ratio >= 0.8);
  }

  if (want('mirror')) {
    const seconds = Number(process.env.BENCH_MIRROR_SECONDS ?? 20);
    console.error(`… mirror: 50 synthetic public markets at 200 upstream events/s, the engine mirroring them vs a bare relay, ${seconds} s window (BENCH_MIRROR_SECONDS)`);
    const r = await runMirrorBench({ windowSeconds: seconds });
    const lat = (f: { p50Ms: number; p99Ms: number; delivered: number; measured: number }) =>
      `p50 ${fmt(f.p50Ms, 2)} / p99 ${fmt(f.p99Ms, 2)} ms (${fmt(f.delivered)}/${fmt(f.measured)} level changes arrived)`;
    rows.push([
      `mirror run: ${r.markets} markets (${r.tokens} tokens), ${r.eventsPerSecond} events/s, seed ${r.seed}`,
      `${fmt(r.events)} upstream events in ${fmt(r.windowSeconds, 1)} s after ${r.warmupSeconds} s warm-up`,
      `load average ${fmt(r.loadAverage, 2)} (2 cores); engine ${r.engineCompiled ? 'compiled dist/' : 'sources through tsx'}`,
      '',
    ]);
    const extra = (f: MirrorStreamFigures) =>
      `idle ${fmt(f.idleCpuPercent, 2)} % of a core; above idle ${fmt(f.marginalCpuUsPerEvent, 1)} µs/event; client got ${fmt(f.frames / r.windowSeconds)} frames/s, ${fmt(f.bytes / r.windowSeconds / 1024, 1)} KiB/s`;
    rows.push(['  bare relay (JSON.parse + re-send, own process): CPU per upstream event', `${fmt(r.relay.cpuUsPerEvent, 1)} µs (${fmt(r.relay.cpuPercent, 2)} % of a core)`, 'reference', '']);
    rows.push(['    ', extra(r.relay), '', '']);
    rows.push(['  bare relay: upstream send → local client', lat(r.relay), 'reference', '']);
    if (r.mirror) {
      const m = r.mirror;
      row('  engine mirror (--mirror, --no-sim): CPU per upstream event', `${fmt(m.cpuUsPerEvent, 1)} µs (${fmt(m.cpuPercent, 2)} % of a core; ${fmt(m.cpuUsPerEvent / r.relay.cpuUsPerEvent, 2)}× relay)`, `≤ 1.5× relay = ${fmt(1.5 * r.relay.cpuUsPerEvent, 1)} µs`, m.cpuUsPerEvent <= 1.5 * r.relay.cpuUsPerEvent);
      rows.push(['    ', extra(m), '', '']);
      row('  engine mirror: upstream send → local stream event', lat(m), `p99 ≤ relay p99 + 10 = ${fmt(r.relay.p99Ms + 10, 2)} ms`, m.p99Ms <= r.relay.p99Ms + 10 && m.delivered > 0);
      rows.push(['    ', `the engine's streams publish at most every ${FLUSH_INTERVAL_MS} ms (changes of one flush coalesce)`, '', '']);
      if (r.mirrorStartSeconds !== undefined) rows.push(['  engine start until every market live', `${fmt(r.mirrorStartSeconds, 1)} s`, '', '']);
    } else row('  engine mirror', `not measured: ${r.mirrorError ?? 'skipped'}`, 'CPU ≤ 1.5× relay; p99 ≤ relay + 10 ms', false);

    console.error('… replay: a one-hour busy synthetic tape, --replay <tape> --clock fast in its own process');
    try {
      const p = await runReplayBench();
      const t = p.tape;
      rows.push([
        `replay tape: one market, ${fmt(t.spanMs / 3_600_000, 2)} h`,
        `${fmt(t.events)} upstream events (${fmt(t.events / (t.spanMs / 1000), 1)}/s), ${fmt(t.entries)} entries, ${fmt(t.bytes / 1e6, 1)} MB gzip`,
        '',
        '',
      ]);
      row(`  --replay --clock fast, spawn to exit (${p.compiled ? 'compiled dist/' : 'sources through tsx: npm run build:engine starts faster'})`, `${fmt(p.processSpeedup)}× real time (${fmt(p.processWallSeconds, 2)} s)`, '≥ 100×', p.processSpeedup >= 100);
      if (p.loopSpeedup !== undefined) {
        rows.push(['  replay loop alone (the engine\'s report)', `${fmt(p.loopSpeedup)}× (${fmt(p.loopWallSeconds!, 2)} s; ${fmt(p.played ?? 0)} entries played, ${fmt(p.problems ?? 0)} problems)`, '', '']);
      }
    } catch (e) {
      row('  --replay --clock fast', `not measured: ${e instanceof Error ? e.message : String(e)}`, '≥ 100×', false);
    }
  }

  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), 6));
  const line = (r: string[]) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c)).join('  ');
  console.log(line(['figure', 'measured', 'target / reference', '']));
  console.log(line(widths.map((w) => '-'.repeat(w)).concat('----')));
  for (const r of rows) console.log(line(r));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
