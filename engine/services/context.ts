import type { EngineConfig } from '../config.js';
import type { ChainHandle } from '../chain/chainHandle.js';
import type { Db } from '../store/database.js';
import type { Secrets } from '../store/secrets.js';
import type { WriteBatcher } from '../store/writeBatcher.js';
import type { AgentService } from './agents/agentService.js';
import type { AuthService } from './auth/authService.js';
import type { Clock } from './clock.js';
import type { ClockService } from './runs/clockService.js';
import type { RunIds } from './runs/runIds.js';
import type { ChainProxy } from './chainProxy/chainProxy.js';
import type { OperatorBootstrap } from './operatorAccess/operatorBootstrap.js';
import type { DataService } from './data/dataService.js';
import type { HeartbeatService } from './heartbeats/heartbeatService.js';
import type { MarketService } from './markets/marketService.js';
import type { OrderService } from './orders/orderService.js';
import type { RateLimiter } from './ratelimit/rateLimiter.js';
import type { RelayerService } from './relayer/relayerService.js';
import type { SimulationService } from './participants/simulationService.js';
import type { ScenarioService } from './scenarios/scenarioService.js';
import type { StreamService } from './streams/streamService.js';

/**
 * Everything the engine is made of, wired once by the composition root (engine/engine.ts).
 * Each service's constructor takes this context and reads its peers from it at call time, so the
 * construction order only matters for the `init()` steps the composition root runs in sequence.
 */
export interface EngineContext {
  readonly config: EngineConfig;
  /** Exchange time (decisions §11): orders, trades, participants, scenarios, GTD expiry, candles, streams. */
  readonly clock: Clock;
  /** Wall time: auth windows, GET /time, rate limits, heartbeats, bootstrap codes. Absent: the same as `clock`. */
  readonly wallClock?: Clock;
  /** Ids drawn from the run's seed (fast and stepped runs); absent: random ids. */
  readonly ids?: RunIds;
  readonly db: Db;
  readonly writes: WriteBatcher;
  readonly secrets: Secrets;
  /** The local or remote chain; `chain.enabled` is false with `--chain none`. Addresses are always known. */
  chain: ChainHandle;
  auth: AuthService;
  markets: MarketService;
  orders: OrderService;
  rateLimiter: RateLimiter;
  relayer: RelayerService;
  data: DataService;
  heartbeats: HeartbeatService;
  sim: SimulationService;
  operatorBootstrap: OperatorBootstrap;
  chainProxy: ChainProxy;
  scenarios: ScenarioService;
  streams: StreamService;
  clockService: ClockService;
  /** Agent tokens, their wallets and limits, and the MCP audit log (issue 24). */
  agents: AgentService;
}
