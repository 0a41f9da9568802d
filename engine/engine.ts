import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import type { ChainHandle } from './chain/chainHandle.js';
import { startChain } from './chain/startChain.js';
import { DEFAULT_RUN_SEED, resolveConfig, type EngineConfig } from './config.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildApp } from './http/app.js';
import { closeWithGrace, type ServerLimits } from './http/serverLimits.js';
import { DATA_PREFIX, RELAYER_PREFIX } from './http/routes/index.js';
import { AgentService } from './services/agents/agentService.js';
import { AuthService } from './services/auth/authService.js';
import { BuilderAuth } from './services/auth/builderAuth.js';
import { ScaledClock, SteppedClock, systemClock, type Clock } from './services/clock.js';
import { ClockService } from './services/runs/clockService.js';
import { RunIds } from './services/runs/runIds.js';
import { RunRecorder } from './services/runs/runRecorder.js';
import { ReportService } from './services/reports/reportService.js';
import type { EngineContext } from './http/engineContext.js';
import { DataService } from './services/data/dataService.js';
import { PaperService } from './services/paper/paperService.js';
import { HeartbeatService } from './services/heartbeats/heartbeatService.js';
import { seedDemoMarkets } from './services/markets/seedDemoMarkets.js';
import { MarketDataService } from './services/markets/marketDataService.js';
import { MarketListings } from './services/markets/marketListings.js';
import { MidHistory } from './services/markets/midHistory.js';
import { MarketService } from './services/markets/marketService.js';
import { OrderService } from './services/orders/orderService.js';
import { RateLimiter } from './services/ratelimit/rateLimiter.js';
import { RelayerService } from './services/relayer/relayerService.js';
import { SimulationService } from './services/participants/simulationService.js';
import { ScenarioService } from './services/scenarios/scenarioService.js';
import { StreamService } from './services/streams/streamService.js';
import { attachStreamRoutes, WS_PREFIX } from './http/streamRoutes.js';
import { LiveDataService } from './services/liveData/liveDataService.js';
import { openDatabase } from './store/database.js';
import { loadOrCreateSecrets, rotateOperatorToken } from './store/secrets.js';
import { ChainProxy } from './services/chainProxy/chainProxy.js';
import { OperatorBootstrap } from './services/operatorAccess/operatorBootstrap.js';
import { WriteBatcher } from './store/writeBatcher.js';
import { replayReport } from './services/tapes/replayReport.js';
import { ReplayService } from './services/tapes/replayService.js';
import { readTape } from './services/tapes/tapeReader.js';
import { examplesDir, TapeService } from './services/tapes/tapeService.js';
import { MirrorService } from './services/mirror/mirrorService.js';
import { createMarketDecoder } from './services/mirror/marketDecoder.js';
import { UpstreamClient } from './services/mirror/upstream/upstreamClient.js';
import { UpstreamFeed, type UpstreamFeedOptions } from './services/mirror/upstream/upstreamFeed.js';

export interface ReadyLine {
  ready: true;
  trading: string;
  relayer: string;
  data: string;
  /** Base of the stream endpoints: `${ws}/market`, `${ws}/user`. */
  ws: string;
  operatorToken: string;
  dataDir: string;
  chainId: number;
}

/** How long close() waits for a simulation job already running (one stuck on the network must not hold the exit). */
const SHUTDOWN_JOB_WAIT_MS = 5_000;

export interface Engine {
  readonly ctx: EngineContext;
  readonly app: FastifyInstance;
  /** The real-time data socket at /ws/live-data (its keepalive limits are here; tests shorten them). */
  readonly liveData: LiveDataService;
  /** Starts listening; resolves with the ready line of decisions §7. */
  listen(): Promise<ReadyLine>;
  /**
   * Stops the listener, timers, chain process and database, in that order; resolves once nothing of the
   * engine touches its data directory any more (a running simulation job and the database's worker threads have ended).
   */
  close(): Promise<void>;
}

/** `requestDeadlines` and `maxConnections` (ServerLimits) bound every connection; tests shorten them. */
export interface CreateEngineOptions extends ServerLimits {
  /** Exchange clock (real mode; a fast or stepped run takes it when it is a SteppedClock). */
  clock?: Clock;
  /** Wall clock of a fast or stepped run (default: the system clock; in real mode, `clock`). */
  wallClock?: Clock;
  logger?: boolean;
  /** The mirror feed's ping, stall, reconnect backoff and market poll timings (tests shorten them). */
  mirrorFeed?: Partial<Pick<UpstreamFeedOptions, 'pingIntervalMs' | 'deadAfterMs' | 'backoff' | 'marketPollMs' | 'onProblem'>>;
}

/**
 * The composition root: open the store, start (or connect to) the chain, wire the services, rebuild
 * the books, seed a fresh data directory, build the HTTP app. The headless command and the desktop
 * app's main process both call this.
 */
export async function createEngine(partial: Partial<EngineConfig> = {}, opts: CreateEngineOptions = {}): Promise<Engine> {
  const resolved = resolveConfig(partial);
  // Tapes first: `--replay` starts the run's clock at the tape's start (decisions §11) unless --start pins it.
  let resyncFeed: ((conditionId: string) => void) | undefined;
  const tapes = new TapeService({
    dataDir: resolved.dataDir,
    upstream: { clob: resolved.upstreamClob, ws: resolved.upstreamWs },
    record: resolved.record,
    examplesDir: examplesDir(),
    requestResync: (conditionId) => resyncFeed?.(conditionId),
  });
  const replayGroups = tapeGroups(resolved.replays.map((r) => tapes.resolve(r)));
  const config = replayGroups.length > 0 && resolved.clockStart === undefined ? { ...resolved, clockStart: Math.min(...replayGroups.map((g) => g.startedAt)) } : resolved;
  const { clock, wallClock } = clocksOf(config, opts);
  const startedAt = clock.nowMs();
  // Fast and stepped runs draw every id from the seed (decisions §11), the operator key of a fresh data directory included.
  const ids = config.clock === 'real' ? undefined : new RunIds(config.seed ?? DEFAULT_RUN_SEED);
  const stored = loadOrCreateSecrets(config.dataDir, ids ? { operatorPrivateKey: ids.privateKey('operator'), relayPrivateKey: ids.privateKey('relay') } : {});
  const secrets = config.rotateOperatorToken || config.operatorToken ? rotateOperatorToken(config.dataDir, stored, config.operatorToken) : stored;
  const db = openDatabase(join(config.dataDir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);

  let chain: ChainHandle | undefined;
  let orders: OrderService | undefined;
  let mirrors: MirrorService | undefined;
  let ctx: EngineContext;
  try {
    chain = await startChain(config, secrets);
    // Each service gets exactly its deps; this is the one place that knows who uses whom (docs/architecture.md).
    // `clock` is exchange time, `wallClock` wall time (decisions §11); `ids` draws every id from the run's seed.
    const seeded = ids ? { ids } : {};
    const auth = new AuthService({ clock, wallClock, config, db, secrets, writes, ...seeded });
    const builderAuth = new BuilderAuth({ clock, wallClock, config, db, secrets });
    const markets = new MarketService({ chain, clock, db, writes });
    // The order service asks the mirror service (built after it, as it feeds the order service's public layer) for a market's upstream state.
    const trading = new OrderService({ chain, clock, config, db, writes, markets, mirrorOf: (conditionId) => mirrors?.status(conditionId), ...seeded });
    orders = trading;
    // The two links that point back up are events: a first key earns the welcome grant, and a
    // resolution cancels the market's resting orders before anyone hears of it.
    auth.onFirstKey.add((address) => trading.creditCollateral(address, config.initialCollateral, 'welcome'));
    markets.onResolving.add((m) => trading.cancelMarketOrders(m.conditionId, 'market resolved'));
    const rateLimiter = new RateLimiter({ clock, wallClock, config, auth });
    const relayer = new RelayerService({ chain, clock, config, db, secrets, writes, ...seeded });
    const mids = new MidHistory();
    const upstream = new UpstreamClient({ clobBase: config.upstreamClob, gammaBase: config.upstreamGamma, wallClock });
    const feed = new UpstreamFeed({ wsUrl: config.upstreamWs, client: upstream, clock, onProblem: (p) => console.warn(`[mirror] ${p}`), ...opts.mirrorFeed });
    const mirror = new MirrorService({ clock, wallClock, markets, orders: trading, upstream, feed, decoderFor: (identity) => createMarketDecoder(identity) });
    mirrors = mirror;
    // Recording: every upstream entry as received, and a fresh book when a tape starts mid-stream.
    mirror.onEntry.add(tapes.record);
    mirror.recording = () => tapes.recording;
    resyncFeed = (conditionId) => void feed.resync(conditionId).catch(() => undefined);
    const marketData = new MarketDataService({ clock, markets, orders: trading, mids, mirrors: mirror });
    const listings = new MarketListings({ markets }, marketData);
    const data = new DataService({ db, markets, orders: trading });
    const paper = new PaperService({ clock, config, db, data, orders: trading });
    const heartbeats = new HeartbeatService({ clock, wallClock, orders: trading, ...seeded });
    const sim = new SimulationService({ chain, clock, config, db, markets, orders: trading });
    const scenarios = new ScenarioService({ clock, markets, sim });
    const streams = new StreamService({ clock, config, auth, markets, orders: trading, mids });
    const operatorBootstrap = new OperatorBootstrap(wallClock, () => secrets.operatorToken);
    const chainProxy = new ChainProxy({ chain });
    streams.attach();

    await markets.init();
    await trading.init();
    await mirror.init();
    await relayer.init();
    if (config.seedDemo) await seedDemoMarkets({ chain, clock, config, db, writes, markets, orders: trading, ...seeded });
    await sim.init();
    // `--mirror`: a public market that cannot be resolved stops the start with the upstream's reason.
    for (const ref of config.mirrors) await mirror.start(ref);
    // A fast or stepped run reports what happened after its setup (demo seeding) under <data>/runs/.
    const recorder = config.clock === 'real' ? undefined : new RunRecorder({ clock, db, dataDir: config.dataDir, markets, orders: trading, isSimulated: (a) => sim.isSimulated(a), capital: config.initialCollateral }, config.clock, startedAt, ids!.seed);
    const reports = new ReportService({ clock, db, dataDir: config.dataDir, capital: config.initialCollateral, markets, orders: trading, recorder });
    reports.start();
    const clockService = new ClockService({ clock, sim }, config.clock, startedAt, recorder);
    const agents = new AgentService({ chain, clock, config, ids, orders: trading });
    const reportDeps = { clock, db, markets, orders: trading, latencyMs: config.latencyMs, isSimulated: (a: string) => sim.isSimulated(a) };
    const replays = new ReplayService({
      clock,
      markets,
      orders: trading,
      // The live mirror's decoder: a replayed market behaves as the live one did.
      decoderFor: (identity) => createMarketDecoder(identity),
      scheduler: sim.scheduler,
      tapes,
      mirrors: mirror,
      report: (state, timeline) => replayReport(reportDeps, state, timeline),
      runDir: () => recorder?.dir ?? join(config.dataDir, 'runs', `${new Date(startedAt).toISOString().replace(/[:.]/g, '-')}-${config.clock}`),
    });
    for (const g of replayGroups) await replays.start({ tape: g.paths.join(',') });
    ctx = { config, clock, wallClock, ...seeded, db, writes, secrets, chain, auth, builderAuth, markets, marketData, listings, orders: trading, rateLimiter, relayer, data, paper, heartbeats, sim, operatorBootstrap, chainProxy, scenarios, streams, clockService, mids, agents, tapes, replays, mirrors: mirror, reports };
  } catch (e) {
    await mirrors?.stop().catch(() => undefined);
    await chain?.stop().catch(() => undefined);
    orders?.close();
    writes.close();
    db.close();
    throw e;
  }

  const app = await buildApp(ctx, { logger: opts.logger ?? false, requestDeadlines: opts.requestDeadlines, maxConnections: opts.maxConnections });
  const liveData = new LiveDataService(ctx, ctx.streams);
  const streamRoutes = attachStreamRoutes(app.server, ctx.streams, app.requestGuard, liveData);
  let closed = false;

  return {
    ctx,
    app,
    liveData,
    async listen() {
      // One listener, as node's own listen(host) binds: fastify would bind every address of a name
      // (localhost: 127.0.0.1 and ::1), and the extra listeners would lack the connection cap.
      const host = isIP(config.host) ? config.host : (await lookup(config.host)).address;
      await app.listen({ port: config.port, host });
      const addr = app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : config.port;
      app.requestGuard.listening(port);
      const base = `http://${config.host}:${port}`;
      return {
        ready: true,
        trading: base,
        relayer: base + RELAYER_PREFIX,
        data: base + DATA_PREFIX,
        ws: `ws://${config.host}:${port}${WS_PREFIX}`,
        operatorToken: secrets.operatorToken,
        dataDir: config.dataDir,
        chainId: config.chainId,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await ctx.heartbeats.stop();
      ctx.reports.stop();
      ctx.scenarios.stop();
      ctx.sim.stop();
      // A job already running (a participant's order, a replay's last entry closing its market and
      // writing its report) ends before the run report is written and the stores close.
      await ctx.sim.scheduler.idle(SHUTDOWN_JOB_WAIT_MS);
      try {
        ctx.clockService.recorder?.write();
      } catch {
        // The report is a by-product: a full disk must not keep the engine from closing.
      }
      await ctx.mirrors.stop();
      // After the mirror: the entries it handed over last are written too.
      ctx.tapes.close();
      ctx.orders.stop();
      ctx.relayer.stop();
      streamRoutes.close();
      // In-flight requests are answered (their writes are durable first), idle keep-alive connections
      // close now, and whatever is left goes after a short grace: no client can hold the exit.
      await closeWithGrace(app);
      await ctx.chain.stop();
      ctx.orders.close();
      writes.close();
      db.close();
    },
  };
}

/** `--replay` tapes by market (tapes of one market, e.g. consecutive days, play as one replay), each with its start. */
function tapeGroups(paths: readonly string[]): Array<{ paths: string[]; startedAt: number }> {
  const groups = new Map<string, { paths: string[]; startedAt: number }>();
  for (const p of paths) {
    const t = readTape(p);
    const key = t.identity.conditionId.toLowerCase();
    const g = groups.get(key) ?? { paths: [], startedAt: t.header.startedAt };
    g.paths.push(p);
    g.startedAt = Math.min(g.startedAt, t.header.startedAt);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** Exchange and wall clocks of a mode (decisions §11). */
function clocksOf(config: EngineConfig, opts: CreateEngineOptions): { clock: Clock; wallClock: Clock } {
  if (config.clock === 'real') {
    const base = opts.clock ?? systemClock;
    // A pinned start (`--start`, a replay's tape start) moves exchange time there even at speed 1.
    const clock = config.speed === 1 && config.clockStart === undefined ? base : new ScaledClock(config.clockStart ?? base.nowMs(), config.speed, base);
    return { clock, wallClock: base };
  }
  const wallClock = opts.wallClock ?? systemClock;
  const clock = opts.clock instanceof SteppedClock ? opts.clock : new SteppedClock(config.clockStart ?? wallClock.nowMs());
  return { clock, wallClock };
}
