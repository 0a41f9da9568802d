import type { AgentService } from '../services/agents/agentService.js';
import type { AuthService } from '../services/auth/authService.js';
import type { BuilderAuth } from '../services/auth/builderAuth.js';
import type { ChainProxy } from '../services/chainProxy/chainProxy.js';
import type { DataService } from '../services/data/dataService.js';
import type { HeartbeatService } from '../services/heartbeats/heartbeatService.js';
import type { Infra } from '../services/infra.js';
import type { MarketDataService } from '../services/markets/marketDataService.js';
import type { MarketListings } from '../services/markets/marketListings.js';
import type { MidHistory } from '../services/markets/midHistory.js';
import type { MarketService } from '../services/markets/marketService.js';
import type { OperatorBootstrap } from '../services/operatorAccess/operatorBootstrap.js';
import type { OrderService } from '../services/orders/orderService.js';
import type { PaperService } from '../services/paper/paperService.js';
import type { SimulationService } from '../services/participants/simulationService.js';
import type { RateLimiter } from '../services/ratelimit/rateLimiter.js';
import type { RelayerService } from '../services/relayer/relayerService.js';
import type { ScenarioService } from '../services/scenarios/scenarioService.js';
import type { StreamService } from '../services/streams/streamService.js';
import type { ClockService } from '../services/runs/clockService.js';
import type { ReplayService } from '../services/tapes/replayService.js';
import type { TapeService } from '../services/tapes/tapeService.js';
import type { MirrorService } from '../services/mirror/mirrorService.js';

/**
 * What the HTTP layer serves: the infrastructure and every service, built and wired by the composition
 * root (engine/engine.ts) and handed to buildApp. Only routes read it; services never see it (each
 * gets its own few peers in its constructor).
 */
export interface EngineContext extends Infra {
  readonly auth: AuthService;
  readonly builderAuth: BuilderAuth;
  readonly markets: MarketService;
  readonly marketData: MarketDataService;
  readonly listings: MarketListings;
  readonly orders: OrderService;
  readonly rateLimiter: RateLimiter;
  readonly relayer: RelayerService;
  readonly data: DataService;
  readonly paper: PaperService;
  readonly heartbeats: HeartbeatService;
  readonly sim: SimulationService;
  readonly operatorBootstrap: OperatorBootstrap;
  readonly chainProxy: ChainProxy;
  readonly scenarios: ScenarioService;
  readonly streams: StreamService;
  readonly clockService: ClockService;
  readonly mids: MidHistory;
  readonly agents: AgentService;
  readonly tapes: TapeService;
  readonly replays: ReplayService;
  readonly mirrors: MirrorService;
}
