/**
 * Wire shapes of the agents' operator routes and the performance reports (docs/agents.md): what the
 * engine's services answer and what the client library (engine/client/agentsClient.ts) reads.
 */

/** What one agent token may do (issue 24 scope 3). */
export interface AgentLimits {
  /** Largest price × size of one order, collateral (6-dp decimal text). */
  maxOrderNotional: string;
  maxOpenOrders: number;
  maxOrdersPerMinute: number;
}

/** An agent as the operator sees it (never its token or key). */
export interface AgentInfo {
  id: string;
  name: string;
  /** The paper wallet the engine holds and signs with for this agent (lower case). */
  address: string;
  limits: AgentLimits;
  createdAt: number;
  revokedAt: number | null;
}

/** One MCP tool call as the audit log keeps it. */
export interface AuditEntry {
  /** Wall time of the answer, unix ms. */
  t: number;
  /** Exchange time of the answer, unix ms (differs from `t` under a stepped or scaled clock). */
  exchangeTime: number;
  agentId: string;
  /** The first characters of the token that made the call (never the whole secret). */
  token: string;
  tool: string;
  arguments: unknown;
  ok: boolean;
  /** The tool's structured result (or its error text), cut to 16,000 characters of JSON. */
  result: unknown;
  ms: number;
}

/** One market's share of an account's report. */
export interface MarketLine {
  market: string;
  pnl: string;
  realisedPnl: string;
  unrealisedPnl: string;
  fees: string;
  trades: number;
  turnover: string;
}

/** One point of an account's equity curve: exchange time (unix ms) and net PnL (decimal text). */
export interface EquityPoint {
  t: number;
  equity: string;
}

export interface AccountReport {
  account: string;
  /** realised + unrealised − fees, collateral. */
  pnl: string;
  realisedPnl: string;
  unrealisedPnl: string;
  /** Fees paid less maker rebates earned (negative when rebates exceed fees). */
  fees: string;
  trades: number;
  /** Σ price × size of every fill, collateral. */
  turnover: string;
  /** The largest fall of the equity curve (net PnL sampled once per exchange minute and at the end) from its running peak. */
  maxDrawdown: string;
  /** pnl ÷ the starting paper balance, as a decimal fraction ("0.0123" is 1.23 %); null when no capital is given. */
  return: string | null;
  /**
   * Sharpe-like ratio of the equity curve: the mean of its per-minute changes over their standard
   * deviation (sample, n − 1), not annualised; null with fewer than two changes or none that differ.
   */
  sharpe: number | null;
  /** Share of the fills that closed (part of) a position at a profit; null before any fill closed one. */
  hitRate: number | null;
  /** Fills that closed (part of) a position, and of them those that realised more than 0. */
  closingFills: number;
  winningFills: number;
  /** Points of the equity curve (once per exchange minute). */
  equityPoints: number;
  positions: Array<{ tokenId: string; size: string; averagePrice: string; mark: string | null }>;
  /** The same figures per market (condition id; the token id where the ledger was given no market lookup). */
  markets: MarketLine[];
}

/** One account's performance: the report line, where it comes from, and its equity curve. */
export interface PerformanceReport extends AccountReport {
  /** `run`: the fast or stepped run being recorded; `live`: a real-time engine's ledger since it started; `finished`: read back from a run's folder. */
  source: 'run' | 'live' | 'finished';
  runId: string | null;
  /** Exchange time of the figures, unix ms. */
  asOf: number;
  /** The starting paper balance the return is measured on. */
  capital: string;
  curve: EquityPoint[];
}

/** A run's folder under `<data>/runs/`, as its report.json describes it. */
export interface RunSummary {
  runId: string;
  mode: string;
  seed: number;
  startedAt: number;
  /** Exchange time of the report's last rewrite. */
  now: number;
  trades: number;
  accounts: Array<{ account: string; pnl: string; trades: number; simulated?: boolean }>;
  /** True for the run this engine is recording now. */
  current: boolean;
}
