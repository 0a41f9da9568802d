import type { ReplayService } from '../services/tapes/replayService.js';
import type { TapeService } from '../services/tapes/tapeService.js';
import type { AgentService } from '../services/agents/agentService.js';
import type { DataService } from '../services/data/dataService.js';
import type { Infra } from '../services/infra.js';
import type { MarketDataService } from '../services/markets/marketDataService.js';
import type { MarketService } from '../services/markets/marketService.js';
import type { MirrorService } from '../services/mirror/mirrorService.js';
import type { OrderService } from '../services/orders/orderService.js';
import type { SimulationService } from '../services/participants/simulationService.js';
import type { ClockService } from '../services/runs/clockService.js';
import type { ReportService } from '../services/reports/reportService.js';
import type { ScenarioService } from '../services/scenarios/scenarioService.js';
import type { StreamService } from '../services/streams/streamService.js';

/**
 * The services the MCP tools call, handed over by whoever serves them (the HTTP layer's `/mcp` and the
 * stdio command both pass the composition root's record). Tools never reach the HTTP layer itself.
 */
export type McpContext = Infra & {
  readonly tapes: TapeService;
  readonly replays: ReplayService;
  readonly agents: AgentService;
  readonly clockService: ClockService;
  readonly data: DataService;
  readonly markets: MarketService;
  readonly marketData: MarketDataService;
  readonly mirrors: MirrorService;
  readonly orders: OrderService;
  readonly reports: ReportService;
  readonly scenarios: ScenarioService;
  readonly sim: SimulationService;
  readonly streams: Pick<StreamService, 'onBookChange'>;
};
