import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { startChain } from './chain/startChain.js';
import { resolveConfig, type EngineConfig } from './config.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildApp } from './http/app.js';
import { closeWithGrace, type ServerLimits } from './http/serverLimits.js';
import { DATA_PREFIX, RELAYER_PREFIX } from './http/routes/index.js';
import { AuthService } from './services/auth/authService.js';
import { systemClock, type Clock } from './services/clock.js';
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

/** `requestDeadlines` and `maxConnections` (ServerLimits) bound every connection; tests shorten them. */
export interface CreateEngineOptions extends ServerLimits {
  clock?: Clock;
  logger?: boolean;
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

  const ctx = { config, clock, db, writes, secrets } as EngineContext;
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
    ctx.operatorBootstrap = new OperatorBootstrap(clock, () => secrets.operatorToken);
    ctx.chainProxy = new ChainProxy(ctx);
    ctx.scenarios = new ScenarioService(ctx);
    ctx.streams = new StreamService(ctx);
    ctx.streams.attach();

    await ctx.markets.init();
    await ctx.orders.init();
    await ctx.relayer.init();
    if (config.seedDemo) await seedDemoMarkets(ctx);
    await ctx.sim.init();
  } catch (e) {
    if (chainStarted) await ctx.chain.stop().catch(() => undefined);
    ctx.orders?.close();
    writes.close();
    db.close();
    throw e;
  }

  const app = await buildApp(ctx, { logger: opts.logger ?? false, requestDeadlines: opts.requestDeadlines, maxConnections: opts.maxConnections });
  const streamRoutes = attachStreamRoutes(app.server, ctx.streams, app.requestGuard);
  let closed = false;

  return {
    ctx,
    app,
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
      ctx.scenarios.stop();
      ctx.sim.stop();
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
