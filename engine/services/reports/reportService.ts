import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../protocol/errors.js';
import { formatUnits } from '../../protocol/amounts.js';
import type { Db } from '../../store/database.js';
import { wallDelayMs, type Clock } from '../clock.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';
import type { RunRecorder } from '../runs/runRecorder.js';
import type { AccountReport, EquityPoint, PerformanceReport, RunSummary } from '../../protocol/agentTypes.js';

export type { PerformanceReport, RunSummary };
import { TradeLedger } from '../runs/tradeLedger.js';

const MINUTE_MS = 60_000;
/** Most equity points one answer carries (a day of minutes); older points are thinned evenly past it. */
export const MAX_CURVE_POINTS = 1_440;

export interface ReportDeps {
  readonly clock: Clock;
  readonly db: Db;
  readonly dataDir: string;
  readonly capital: bigint;
  readonly markets: Pick<MarketService, 'byToken'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade'>;
  /** A fast or stepped run's recorder (its ledger is the one reported); absent in real time. */
  readonly recorder?: RunRecorder | undefined;
}

const RUN_ID = /^[\w.-]{1,200}$/;

/**
 * Performance reports of any account (issue 24): the user's, an agent's, a participant's. In a fast or
 * stepped run it reads the run recorder's ledger; in real time it keeps its own ledger over every trade
 * of the data directory and samples each account's equity once per exchange minute on a timer. Either
 * way the maths is runLedger.ts, so the MCP report, the terminal and report.json agree. Finished runs
 * are read back from their folders.
 */
export class ReportService {
  private readonly ledger: TradeLedger;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly ctx: ReportDeps) {
    this.ledger = ctx.recorder?.ledger ?? new TradeLedger(ctx, '');
  }

  /** Real time only: samples every account's equity at each exchange minute until `stop`. */
  start(): void {
    if (this.ctx.recorder || this.timer || this.stopped) return;
    const arm = () => {
      const next = (Math.floor(this.ctx.clock.nowMs() / MINUTE_MS) + 1) * MINUTE_MS;
      this.timer = setTimeout(() => {
        if (this.stopped) return;
        this.ledger.sample(next);
        arm();
      }, wallDelayMs(this.ctx.clock, next) + 1);
      this.timer.unref();
    };
    arm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One account now (an account that never traded has an empty line). */
  account(address: string): PerformanceReport {
    const key = address.toLowerCase();
    const line = this.ledger.account(key, this.ctx.capital) ?? emptyReport(key);
    return { ...line, source: this.ctx.recorder ? 'run' : 'live', runId: this.ctx.recorder?.runId ?? null, asOf: this.ctx.clock.nowMs(), capital: formatUnits(this.ctx.capital), curve: thin(this.ledger.curve(key)) };
  }

  /** Every account that traded, without curves (the run's table). */
  accounts(): AccountReport[] {
    return this.ledger.report(this.ctx.capital);
  }

  /** The runs under `<data>/runs/`, newest first. */
  runs(): RunSummary[] {
    const dir = join(this.ctx.dataDir, 'runs');
    if (!existsSync(dir)) return [];
    const out: RunSummary[] = [];
    for (const id of readdirSync(dir)) {
      const r = this.readRun(id);
      if (!r) continue;
      out.push({
        runId: id,
        mode: r.mode,
        seed: r.seed,
        startedAt: r.startedAt,
        now: r.now,
        trades: r.trades,
        accounts: r.accounts.map((a) => ({ account: a.account, pnl: a.pnl, trades: a.trades, ...(a.simulated === undefined ? {} : { simulated: a.simulated }) })),
        current: id === this.ctx.recorder?.runId,
      });
    }
    return out.sort((a, b) => b.startedAt - a.startedAt || (a.runId < b.runId ? 1 : -1));
  }

  /** One account of a run as its folder has it: report.json's line and equity.jsonl's curve. */
  runReport(runId: string, address: string): PerformanceReport {
    if (!RUN_ID.test(runId)) throw new ApiError('invalid_field', `run id must be a folder name of <data>/runs (GET /admin/runs lists them); got ${JSON.stringify(runId)}.`, { details: { field: 'id' } });
    const r = this.readRun(runId);
    if (!r) throw new ApiError('run_not_found', `No run ${JSON.stringify(runId)} with a report.json under the data directory's runs/. GET /admin/runs lists them.`);
    const key = address.toLowerCase();
    const line = r.accounts.find((a) => a.account === key);
    if (!line) throw new ApiError('account_not_in_run', `The account ${key} made no trade in run ${runId}. Its accounts: GET /admin/runs lists them.`);
    const curve: EquityPoint[] = [];
    const file = join(this.ctx.dataDir, 'runs', runId, 'equity.jsonl');
    if (existsSync(file)) {
      for (const l of readFileSync(file, 'utf8').split('\n')) {
        if (l === '') continue;
        const p = JSON.parse(l) as { t: number; equity: Record<string, string> };
        const e = p.equity[key];
        if (e !== undefined) curve.push({ t: p.t, equity: e });
      }
    }
    const { simulated: _simulated, ...rest } = line;
    return { ...emptyReport(key), ...rest, source: 'finished', runId, asOf: r.now, capital: formatUnits(this.ctx.capital), curve: thin(curve) };
  }

  private readRun(id: string): (Omit<RunSummary, 'runId' | 'current' | 'accounts'> & { accounts: Array<AccountReport & { simulated?: boolean }> }) | undefined {
    if (!RUN_ID.test(id)) return undefined;
    const file = join(this.ctx.dataDir, 'runs', id, 'report.json');
    if (!existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ReturnType<ReportService['readRun']>;
    } catch {
      // A report being rewritten this instant, or a damaged one: not listed rather than a 500.
      return undefined;
    }
  }
}


/** Keeps at most MAX_CURVE_POINTS points, evenly spread, always with the first and the last. */
function thin(curve: EquityPoint[]): EquityPoint[] {
  if (curve.length <= MAX_CURVE_POINTS) return curve;
  const step = (curve.length - 1) / (MAX_CURVE_POINTS - 1);
  return Array.from({ length: MAX_CURVE_POINTS }, (_, i) => curve[Math.round(i * step)]!);
}

export function emptyReport(account: string): AccountReport {
  return { account, pnl: '0', realisedPnl: '0', unrealisedPnl: '0', fees: '0', trades: 0, turnover: '0', maxDrawdown: '0', return: '0', sharpe: null, hitRate: null, closingFills: 0, winningFills: 0, equityPoints: 0, positions: [], markets: [] };
}
