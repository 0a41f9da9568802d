import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatUnits } from '../../protocol/amounts.js';
import { TradeRepo, type TradeRow } from '../../store/tradeRepo.js';
import type { Db } from '../../store/database.js';
import type { Clock, ClockMode } from '../clock.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';
import { fillsOf, RunLedger, type AccountReport, type Mark } from './runLedger.js';
import { markOf } from './markOf.js';

const CSV_COLUMNS = ['id', 'match_time', 'condition_id', 'kind', 'taker_address', 'taker_asset_id', 'taker_side', 'price', 'maker_address', 'maker_asset_id', 'maker_side', 'maker_price', 'size', 'fee', 'maker_rebate', 'taker_order_id', 'maker_order_id', 'transaction_hash'] as const;

function exportRow(t: TradeRow): Record<(typeof CSV_COLUMNS)[number], string | number> {
  return {
    id: t.id,
    match_time: t.matchTime,
    condition_id: t.conditionId,
    kind: t.kind,
    taker_address: t.takerAddress,
    taker_asset_id: t.takerAssetId,
    taker_side: t.takerSide,
    price: formatUnits(t.price),
    maker_address: t.makerAddress,
    maker_asset_id: t.makerAssetId,
    maker_side: t.makerSide,
    maker_price: formatUnits(t.makerPrice),
    size: formatUnits(t.size),
    fee: formatUnits(t.fee),
    maker_rebate: formatUnits(t.makerRebate),
    taker_order_id: t.takerOrderId,
    maker_order_id: t.makerOrderId,
    transaction_hash: t.transactionHash,
  };
}

/** What the recorder reads: committed trades, the books and last trades that mark positions, the clock. */
export interface RecorderDeps {
  readonly clock: Clock;
  readonly db: Db;
  /** The run folder goes under `<dataDir>/runs/`. */
  readonly dataDir: string;
  readonly markets: Pick<MarketService, 'byToken'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade'>;
  /** True for a simulated participant's address (the report flags them, so a bot finds itself among them). */
  readonly isSimulated: (address: string) => boolean;
}

/**
 * What a fast or stepped run leaves behind (decisions §11), under `<data>/runs/<run id>/`:
 * `trades.csv` and `trades.jsonl` (every trade of the run, appended as they commit), `equity.jsonl`
 * (each account's net PnL once per exchange minute) and `report.json` (per account: realised and
 * unrealised PnL, fees, trades, turnover, max drawdown; rewritten after every advance).
 */
export class RunRecorder {
  readonly runId: string;
  readonly dir: string;
  private readonly ledger = new RunLedger();
  private readonly trades: TradeRepo;
  private lastTradeId = '';
  private tradeCount = 0;

  constructor(
    private readonly ctx: RecorderDeps,
    private readonly mode: ClockMode,
    private readonly startedAt: number,
    private readonly seed: number,
  ) {
    this.trades = new TradeRepo(ctx.db);
    this.runId = `${new Date(startedAt).toISOString().replace(/[:.]/g, '-')}-${mode}-seed${seed}`;
    this.dir = join(ctx.dataDir, 'runs', this.runId);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, 'trades.csv'), CSV_COLUMNS.join(',') + '\n');
    writeFileSync(join(this.dir, 'trades.jsonl'), '');
    writeFileSync(join(this.dir, 'equity.jsonl'), '');
    // Trades already in the data directory belong to earlier runs.
    this.lastTradeId = this.trades.lastId();
  }

  /** One point of every account's equity curve, at exchange time `t` (the driver calls it each minute). */
  sample(t: number): void {
    this.catchUp();
    const eq = this.ledger.sample(this.mark);
    if (eq.size === 0) return;
    appendFileSync(join(this.dir, 'equity.jsonl'), JSON.stringify({ t, equity: Object.fromEntries([...eq].map(([a, e]) => [a, formatUnits(e)])) }) + '\n');
  }

  /** Brings the export and the ledger up to the committed trades, then rewrites the report. */
  write(): string {
    this.catchUp();
    const now = this.ctx.clock.nowMs();
    this.ledger.sample(this.mark);
    const report = {
      runId: this.runId,
      mode: this.mode,
      seed: this.seed,
      startedAt: this.startedAt,
      now,
      trades: this.tradeCount,
      marking: 'mid of the book; the last trade where a side is empty; the payout once resolved; cost where nothing marks it',
      accounts: this.ledger.report(this.mark).map((a) => ({ ...a, simulated: this.ctx.isSimulated(a.account) })),
    };
    writeFileSync(join(this.dir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
    return this.dir;
  }

  private catchUp(): void {
    const rows = this.trades.since(this.lastTradeId);
    if (rows.length === 0) return;
    let csv = '';
    let jsonl = '';
    for (const t of rows) {
      for (const f of fillsOf(t)) this.ledger.apply(f);
      const r = exportRow(t);
      csv += CSV_COLUMNS.map((c) => r[c]).join(',') + '\n';
      jsonl += JSON.stringify(r) + '\n';
    }
    appendFileSync(join(this.dir, 'trades.csv'), csv);
    appendFileSync(join(this.dir, 'trades.jsonl'), jsonl);
    this.lastTradeId = rows.at(-1)!.id;
    this.tradeCount += rows.length;
  }

  /** A token's mark (markOf.ts). */
  private readonly mark: Mark = (tokenId) => markOf(this.ctx)(tokenId);

  /** One account's line of the report as of now (no extra equity sample, so the run's own figures are unchanged). */
  account(address: string): AccountReport | undefined {
    this.catchUp();
    const key = address.toLowerCase();
    return this.ledger.report(this.mark).find((a) => a.account === key);
  }
}
