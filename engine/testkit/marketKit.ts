import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, type EngineConfig } from '../config.js';
import { openDatabase } from '../store/database.js';
import { WriteBatcher } from '../store/writeBatcher.js';
import type { Clock } from '../services/clock.js';
import type { EngineContext } from '../http/engineContext.js';
import type { WritableContext } from './engineKit.js';
import { OrderService } from '../services/orders/orderService.js';
import { RateLimiter } from '../services/ratelimit/rateLimiter.js';
import { MarketService } from '../services/markets/marketService.js';

/**
 * A real engine context without a chain, auth, relayer or data service, for tests of the market
 * registry and its routes: real SQLite in a temp dir, the real market, order and rate-limit services.
 */
export async function createMarketTestContext(clock: Clock, config: Partial<EngineConfig> = {}): Promise<{ ctx: EngineContext; close(): void }> {
  // A given dataDir outlives the context (restart tests); a temporary one is removed on close.
  const owned = config.dataDir === undefined;
  const dataDir = config.dataDir ?? mkdtempSync(join(tmpdir(), 'market-ctx-'));
  const db = openDatabase(join(dataDir, 'exchange.sqlite'));
  const writes = new WriteBatcher(db);
  const ctx = {
    config: resolveConfig({ chain: 'none', seedDemo: false, rateLimits: false, ...config, dataDir }),
    clock,
    db,
    writes,
    secrets: { masterKey: 'm', operatorToken: 'operator-token-for-tests', operatorPrivateKey: `0x${'1'.repeat(64)}`, relayPrivateKey: `0x${'2'.repeat(64)}` },
    chain: {
      enabled: false,
      chainId: 31337,
      rpcUrl: null,
      operatorAddress: '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A',
      contracts: {
        exchange: '0x00000000000000000000000000000000000000e1',
        negRiskExchange: '0x00000000000000000000000000000000000000e2',
        exchangeV2: '0x00000000000000000000000000000000000000e3',
        negRiskExchangeV2: '0x00000000000000000000000000000000000000e4',
        collateral: '0x00000000000000000000000000000000000000c0',
        conditionalTokens: '0x00000000000000000000000000000000000000c7',
        safeFactory: null,
        safeSingleton: null,
        multiSend: null,
        proxyFactory: null,
        relayHub: null,
      },
      stop: async () => undefined,
    },
  } as unknown as WritableContext;
  ctx.markets = new MarketService(ctx);
  ctx.orders = new OrderService(ctx);
  const orders = ctx.orders;
  ctx.markets.onResolving.add((m) => orders.cancelMarketOrders(m.conditionId, 'market resolved'));
  ctx.rateLimiter = new RateLimiter(ctx);
  await ctx.markets.init();
  await ctx.orders.init();
  return {
    ctx,
    close() {
      ctx.orders.close();
      writes.close();
      db.close();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
