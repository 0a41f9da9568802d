/**
 * Simulated participants (issues 13, 21): the fast-mode speed of the calm-market scenario; the CPU the
 * participants cost with the default presets on every demo market, measured with process.cpuUsage over
 * a wall-clock window beside the same engine with simulation off; a user's order latency in both
 * (orders through OrderService.place, the path of POST /order); and the realism statistics of the
 * liquid demo markets over ten simulated minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine } from '../engine/engine.js';
import { ManualClock } from '../engine/services/clock.js';
import { FAST_EPOCH, runScenarioFast, type FastRunReport } from '../engine/services/scenarios/fastRun.js';
import { DemoSigner } from '../engine/services/markets/seedDemoMarkets.js';
import { LIQUID_DEMO_MARKETS } from '../engine/services/participants/presets.js';
import { realismStats, sampleBook, tradesSince, type RealismStats } from '../engine/services/participants/realismStats.js';
import { ONE } from '../engine/protocol/amounts.js';
import { COLLATERAL } from '../engine/store/balanceRepo.js';

export interface SimBenchResult {
  fast: FastRunReport;
  windowSeconds: number;
  /** CPU of the whole process over the window, % of one core. */
  cpuWithSimPercent: number;
  cpuWithoutSimPercent: number;
  /** The difference: what the participants cost. */
  participantsPercent: number;
  participantOrders: number;
  /** A user's order placement latency (ms) with participants on and off, over the same windows. */
  userLatencyMs: { withSim: { p50: number; p99: number }; withoutSim: { p50: number; p99: number } };
  /** Ten simulated minutes on the liquid demo markets, default presets (seed `seed`). */
  realism: Array<{ market: string; seed: number | undefined; stats: RealismStats }>;
  /** CPU seconds of those ten simulated minutes (all four markets simulated). */
  realismCpuSeconds: number;
}

async function withEngine<T>(simulation: boolean, clock: ManualClock | undefined, body: (e: Awaited<ReturnType<typeof createEngine>>) => Promise<T>, seed?: number): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-bench-'));
  const engine = await createEngine({ dataDir: dir, chain: 'none', rateLimits: false, serveRenderer: false, simulation, ...(seed === undefined ? {} : { seed }) }, clock ? { clock } : {});
  try {
    return await body(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU % of one core used by this process during `seconds` of wall time. */
async function cpuOver(seconds: number): Promise<number> {
  const start = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await sleep(seconds * 1000);
  const used = process.cpuUsage(start);
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  return (100 * (used.user + used.system)) / wallUs;
}

type BenchEngine = Awaited<ReturnType<typeof createEngine>>;
let salt = 1_000;

/**
 * A user resting and cancelling small bids far from the price every 100 ms during `seconds`, with the
 * demo signer (native secp256k1, signing outside the timed part): placement latency percentiles.
 */
async function userLatency(e: BenchEngine, seconds: number): Promise<{ p50: number; p99: number }> {
  const user = new DemoSigner(e.ctx, `0x${'42'.repeat(32)}`);
  const address = user.address.toLowerCase();
  if (e.ctx.orders.balanceOf(address, COLLATERAL).available < 100n * ONE) await e.ctx.orders.creditCollateral(address, 1_000n * ONE, 'bench');
  const market = e.ctx.markets.list()[0]!;
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const body = user.order(market, 0, 'BUY', 10_000n, 5n * ONE, String(++salt));
    const t0 = performance.now();
    const r = await e.ctx.orders.place({ address }, body);
    times.push(performance.now() - t0);
    if (r.order_id) await e.ctx.orders.cancel({ address }, [r.order_id]);
    await sleep(100);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

/** Ten simulated minutes on the demo markets: the statistics of the liquid ones. */
export async function realismRun(seed: number | undefined): Promise<{ stats: SimBenchResult['realism']; cpuSeconds: number }> {
  return withEngine(
    true,
    new ManualClock(FAST_EPOCH),
    async (e) => {
      const markets = LIQUID_DEMO_MARKETS.map((i) => e.ctx.markets.list()[i]!);
      const start = e.ctx.clock.nowMs();
      const samples = markets.map((m) => sampleBook(e.ctx, m.conditionId, 600));
      const cpu0 = process.cpuUsage();
      await e.ctx.sim.runFor(600_000);
      const cpu = process.cpuUsage(cpu0);
      return {
        stats: markets.map((m, i) => ({ market: m.question.slice(0, 40), seed, stats: realismStats(samples[i]!, tradesSince(e.ctx, m.conditionId, start + 1), Number(m.tickSize)) })),
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
      };
    },
    seed,
  );
}

export async function runSimBench(windowSeconds = 10): Promise<SimBenchResult> {
  const fast = await withEngine(true, new ManualClock(FAST_EPOCH), (e) => runScenarioFast(e.ctx, e.ctx.scenarios.byName('calm-market')));
  const realism = await realismRun(undefined);
  const measured = await withEngine(true, undefined, async (e) => {
    await sleep(1000); // past the start-up work
    const before = e.ctx.sim.participants().reduce((s, p) => s + p.orders, 0);
    const cpu = await cpuOver(windowSeconds);
    const orders = e.ctx.sim.participants().reduce((s, p) => s + p.orders, 0) - before;
    return { cpu, orders };
  });
  const reference = await withEngine(false, undefined, async () => {
    await sleep(1000);
    return { cpu: await cpuOver(windowSeconds) };
  });
  // Latency in one engine, alternating six times between its participants running and turned off
  // (same books, same process), so load changes on the shared machine hit both sides alike; the
  // figures are the medians of the rounds' percentiles.
  const rounds = await withEngine(true, undefined, async (e) => {
    await sleep(1000);
    const out: Array<{ on: { p50: number; p99: number }; off: { p50: number; p99: number } }> = [];
    const markets = e.ctx.markets.list();
    for (let i = 0; i < 6; i++) {
      const on = await userLatency(e, windowSeconds / 4);
      for (const m of markets) await e.ctx.sim.disableMarket(m.conditionId);
      const off = await userLatency(e, windowSeconds / 4);
      for (const m of markets) await e.ctx.sim.enableMarket(m.conditionId);
      out.push({ on, off });
    }
    return out;
  });
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const latency = (side: 'on' | 'off') => ({ p50: median(rounds.map((r) => r[side].p50)), p99: median(rounds.map((r) => r[side].p99)) });
  return {
    fast,
    windowSeconds,
    cpuWithSimPercent: measured.cpu,
    cpuWithoutSimPercent: reference.cpu,
    participantsPercent: Math.max(0, measured.cpu - reference.cpu),
    participantOrders: measured.orders,
    userLatencyMs: { withSim: latency('on'), withoutSim: latency('off') },
    realism: realism.stats,
    realismCpuSeconds: realism.cpuSeconds,
  };
}
