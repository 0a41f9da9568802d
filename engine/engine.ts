import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import type { ChainHandle } from './chain/chainHandle.js';
import { startChain } from './chain/startChain.js';
import { resolveConfig, type EngineConfig } from './config.js';
import { BODY_LIMIT, buildApp } from './http/app.js';
import { createLeanServer, type LeanServer } from './http/leanServer.js';
import { applyRequestDeadlines, BODY_TIMEOUT_MS, HEAD_TIMEOUT_MS, type RequestDeadlines } from './http/requestDeadlines.js';
import { ConnectionTracker } from './http/connectionTracker.js';
import { leanOrderRouter } from './http/routes/leanOrderRoutes.js';
import { DATA_PREFIX, RELAYER_PREFIX } from './http/routes/index.js';
import { AuthService } from './services/auth/authService.js';
import { BuilderAuth } from './services/auth/builderAuth.js';
import { systemClock, type Clock } from './services/clock.js';
import type { EngineContext } from './http/engineContext.js';
import { DataService } from './services/data/dataService.js';
import { PaperService } from './services/paper/paperService.js';
import { HeartbeatService } from './services/heartbeats/heartbeatService.js';
import { seedDemoMarkets } from './services/markets/seedDemoMarkets.js';
import { MarketDataService } from './services/markets/marketDataService.js';
import { MarketListings } from './services/markets/marketListings.js';
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
  clock?: Clock;
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
  const clock = opts.clock ?? systemClock;
  const stored = loadOrCreateSecrets(config.dataDir);
  const secrets = config.rotateOperatorToken || config.operatorToken ? rotateOperatorToken(config.dataDir, stored, config.operatorToken) : stored;
  const db = openDatabase(join(config.dataDir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);

  let chain: ChainHandle | undefined;
  let orders: OrderService | undefined;
  let ctx: EngineContext;
  try {
    chain = await startChain(config, secrets);
    // Each service gets exactly its deps; this is the one place that knows who uses whom (docs/architecture.md).
    const auth = new AuthService({ clock, config, db, secrets, writes });
    const builderAuth = new BuilderAuth({ clock, config, db, secrets });
    const markets = new MarketService({ chain, clock, db, writes });
    const trading = new OrderService({ chain, clock, config, db, writes, markets });
    orders = trading;
    // The two links that point back up are events: a first key earns the welcome grant, and a
    // resolution cancels the market's resting orders before anyone hears of it.
    auth.onFirstKey.add((address) => trading.creditCollateral(address, config.initialCollateral, 'welcome'));
    markets.onResolving.add((m) => trading.cancelMarketOrders(m.conditionId, 'market resolved'));
    const rateLimiter = new RateLimiter({ clock, config, auth });
    const relayer = new RelayerService({ chain, clock, config, db, secrets, writes });
    const marketData = new MarketDataService({ clock, markets, orders: trading });
    const listings = new MarketListings({ markets }, marketData);
    const data = new DataService({ db, markets, orders: trading });
    const paper = new PaperService({ clock, config, db, data, orders: trading });
    const heartbeats = new HeartbeatService({ clock, orders: trading });
    const sim = new SimulationService({ chain, clock, config, db, markets, orders: trading });
    const scenarios = new ScenarioService({ clock, markets, sim });
    const streams = new StreamService({ clock, auth, markets, orders: trading });
    const operatorBootstrap = new OperatorBootstrap(clock, () => secrets.operatorToken);
    const chainProxy = new ChainProxy({ chain });
    ctx = { config, clock, db, writes, secrets, chain, auth, builderAuth, markets, marketData, listings, orders: trading, rateLimiter, relayer, data, paper, heartbeats, sim, operatorBootstrap, chainProxy, scenarios, streams };
    streams.attach();

    await markets.init();
    await trading.init();
    await relayer.init();
    if (config.seedDemo) await seedDemoMarkets({ chain, clock, config, db, writes, markets, orders: trading });
    await sim.init();
  } catch (e) {
    await chain?.stop().catch(() => undefined);
    orders?.close();
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
