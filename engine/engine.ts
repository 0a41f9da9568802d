import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { startChain } from './chain/startChain.js';
import { DEFAULT_RUN_SEED, resolveConfig, type EngineConfig } from './config.js';
import { BODY_LIMIT, buildApp } from './http/app.js';
import { createLeanServer, type LeanServer } from './http/leanServer.js';
import { applyRequestDeadlines, BODY_TIMEOUT_MS, HEAD_TIMEOUT_MS, type RequestDeadlines } from './http/requestDeadlines.js';
import { ConnectionTracker } from './http/connectionTracker.js';
import { leanOrderRouter } from './http/routes/leanOrderRoutes.js';
import { DATA_PREFIX, RELAYER_PREFIX } from './http/routes/index.js';
import { AgentService } from './services/agents/agentService.js';
import { AuthService } from './services/auth/authService.js';
import { ScaledClock, SteppedClock, systemClock, type Clock } from './services/clock.js';
import { ClockService } from './services/runs/clockService.js';
import { RunIds } from './services/runs/runIds.js';
import { RunRecorder } from './services/runs/runRecorder.js';
import type { EngineContext } from './services/context.js';
import { DataService } from './services/data/dataService.js';
import { HeartbeatService } from './services/heartbeats/heartbeatService.js';
import { seedDemoMarkets } from './services/markets/seedDemoMarkets.js';
import { MarketService } from './services/markets/marketService.js';
import { OrderService } from './services/orders/orderService.js';
import { RateLimiter } from './services/ratelimit/rateLimiter.js';
import { RelayerService } from './services/relayer/relayerService.js';
import { SimulationService } from './services/participants/simulationService.js';
import { ScenarioService } from './services/scenarios/scenarioService.js';
import { StreamService } from './services/streams/streamService.js';
import { attachStreamRoutes, WS_PREFIX } from './http/streamRoutes.js';
import { openDatabase } from './store/database.js';
import { loadOrCreateSecrets, rotateOperatorToken } from './store/secrets.js';
import { ChainProxy } from './services/chainProxy/chainProxy.js';
import { OperatorBootstrap } from './services/operatorAccess/operatorBootstrap.js';
import { WriteBatcher } from './store/writeBatcher.js';

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

export interface Engine {
  readonly ctx: EngineContext;
  readonly app: FastifyInstance;
  /** Starts listening; resolves with the ready line of decisions §7. */
  listen(): Promise<ReadyLine>;
  /** Stops the listener, timers, chain process and database, in that order. */
  close(): Promise<void>;
}

export interface CreateEngineOptions {
  /** Exchange clock (real mode; a fast or stepped run takes it when it is a SteppedClock). */
  clock?: Clock;
  /** Wall clock of a fast or stepped run (default: the system clock; in real mode, `clock`). */
  wallClock?: Clock;
  logger?: boolean;
  /** Head and body deadlines of both HTTP paths (default 10 s and 30 s); tests shorten them. */
  requestDeadlines?: RequestDeadlines;
}

/**
 * The composition root: open the store, start (or connect to) the chain, wire the services, rebuild
 * the books, seed a fresh data directory, build the HTTP app. The headless command and the desktop
 * app's main process both call this.
 */
export async function createEngine(partial: Partial<EngineConfig> = {}, opts: CreateEngineOptions = {}): Promise<Engine> {
  const config = resolveConfig(partial);
  const { clock, wallClock } = clocksOf(config, opts);
  const startedAt = clock.nowMs();
  // Fast and stepped runs draw every id from the seed (decisions §11), the operator key of a fresh data directory included.
  const ids = config.clock === 'real' ? undefined : new RunIds(config.seed ?? DEFAULT_RUN_SEED);
  const stored = loadOrCreateSecrets(config.dataDir, ids ? { operatorPrivateKey: ids.privateKey('operator'), relayPrivateKey: ids.privateKey('relay') } : {});
  const secrets = config.rotateOperatorToken || config.operatorToken ? rotateOperatorToken(config.dataDir, stored, config.operatorToken) : stored;
  const db = openDatabase(join(config.dataDir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);

  const ctx = { config, clock, wallClock, ...(ids ? { ids } : {}), db, writes, secrets } as EngineContext;
  let chainStarted = false;
  try {
    ctx.chain = await startChain(config, secrets);
    chainStarted = true;
    ctx.auth = new AuthService(ctx);
    ctx.markets = new MarketService(ctx);
    ctx.orders = new OrderService(ctx);
    ctx.rateLimiter = new RateLimiter(ctx);
    ctx.relayer = new RelayerService(ctx);
    ctx.data = new DataService(ctx);
    ctx.heartbeats = new HeartbeatService(ctx);
    ctx.sim = new SimulationService(ctx);
    ctx.operatorBootstrap = new OperatorBootstrap(wallClock, () => secrets.operatorToken);
    ctx.chainProxy = new ChainProxy(ctx);
    ctx.scenarios = new ScenarioService(ctx);
    ctx.streams = new StreamService(ctx);
    ctx.streams.attach();

    await ctx.markets.init();
    await ctx.orders.init();
    await ctx.relayer.init();
    if (config.seedDemo) await seedDemoMarkets(ctx);
    await ctx.sim.init();
    // A fast or stepped run reports what happened after its setup (demo seeding) under <data>/runs/.
    const recorder = config.clock === 'real' ? undefined : new RunRecorder({ clock, db, dataDir: config.dataDir, markets: ctx.markets, orders: ctx.orders }, config.clock, startedAt, ids!.seed);
    ctx.clockService = new ClockService(ctx, config.clock, startedAt, recorder);
    ctx.agents = new AgentService(ctx);
  } catch (e) {
    if (chainStarted) await ctx.chain.stop().catch(() => undefined);
    ctx.orders?.close();
    writes.close();
    db.close();
    throw e;
  }

  const app = await buildApp(ctx, { logger: opts.logger ?? false });
  const streamRoutes = attachStreamRoutes(app.server, ctx.streams, app.requestGuard);
  let closed = false;
  let lean: LeanServer | undefined;
  let tracker: ConnectionTracker | undefined;

  return {
    ctx,
    app,
    async listen() {
      // The lean front listens; fastify's server (not listening itself) takes every connection it hands over.
      await app.ready();
      const deadlines = opts.requestDeadlines ?? { headTimeoutMs: HEAD_TIMEOUT_MS, bodyTimeoutMs: BODY_TIMEOUT_MS };
      // fastify's server is fed sockets, never listens: give it the lean front's deadlines explicitly.
      applyRequestDeadlines(app.server, deadlines);
      const front = createLeanServer({ fallback: app.server, route: leanOrderRouter(ctx, app.requestGuard), bodyLimit: BODY_LIMIT, ...deadlines });
      await new Promise<void>((resolve, reject) => {
        front.server.once('error', reject);
        front.server.listen(config.port, config.host, () => {
          front.server.off('error', reject);
          resolve();
        });
      });
      lean = front;
      tracker = new ConnectionTracker(front.server, app.server);
      const addr = front.server.address();
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
      ctx.scenarios.stop();
      ctx.sim.stop();
      try {
        ctx.clockService.recorder?.write();
      } catch {
        // The report is a by-product: a full disk must not keep the engine from closing.
      }
      ctx.orders.stop();
      ctx.relayer.stop();
      streamRoutes.close();
      // In-flight requests are answered (their writes are durable first), idle keep-alive connections
      // close now, and whatever is left goes after a short grace: no client can hold the exit.
      const closing = Promise.all([lean?.close(), app.close()]);
      await tracker?.close((s) => lean?.busy(s) ?? false);
      await closing;
      await ctx.chain.stop();
      ctx.orders.close();
      writes.close();
      db.close();
    },
  };
}

/** Exchange and wall clocks of a mode (decisions §11). */
function clocksOf(config: EngineConfig, opts: CreateEngineOptions): { clock: Clock; wallClock: Clock } {
  if (config.clock === 'real') {
    const base = opts.clock ?? systemClock;
    const clock = config.speed === 1 ? base : new ScaledClock(config.clockStart ?? base.nowMs(), config.speed, base);
    return { clock, wallClock: base };
  }
  const wallClock = opts.wallClock ?? systemClock;
  const clock = opts.clock instanceof SteppedClock ? opts.clock : new SteppedClock(config.clockStart ?? wallClock.nowMs());
  return { clock, wallClock };
}
