import { TradeRepo, type TradeRow } from '../../store/tradeRepo.js';
import type { Db } from '../../store/database.js';
import type { MarketService } from '../markets/marketService.js';
import type { OrderService } from '../orders/orderService.js';
import { markOf } from './markOf.js';
import { fillsOf, RunLedger, type AccountReport, type EquityPoint, type Mark } from './runLedger.js';

/** What the ledger reads: committed trades, and the books and last trades that mark positions. */
export interface TradeLedgerDeps {
  readonly db: Db;
  readonly markets: Pick<MarketService, 'byToken'>;
  readonly orders: Pick<OrderService, 'book' | 'lastTrade'>;
}

/**
 * The report maths (runLedger.ts) fed from the trades table: it reads the trades committed since its
 * last look before every sample and report, groups tokens by market, and marks with markOf. The run
 * recorder (fast and stepped runs) and the live report of a real-time engine both sit on it, so the
 * MCP report, the terminal and report.json give the same numbers.
 */
export class TradeLedger {
  private readonly ledger: RunLedger;
  private readonly trades: TradeRepo;
  readonly mark: Mark;

  /** Reads the trades after `afterId` ('' for every trade in the data directory). */
  constructor(
    private readonly ctx: TradeLedgerDeps,
    private lastTradeId: string,
    private readonly onTrades?: (rows: TradeRow[]) => void,
  ) {
    this.trades = new TradeRepo(ctx.db);
    this.ledger = new RunLedger((tokenId) => ctx.markets.byToken(tokenId)?.market.conditionId ?? tokenId);
    this.mark = (tokenId) => markOf(this.ctx)(tokenId);
  }

  /** Applies the trades committed since the last call; answers how many. */
  catchUp(): number {
    const rows = this.trades.since(this.lastTradeId);
    if (rows.length === 0) return 0;
    for (const t of rows) for (const f of fillsOf(t)) this.ledger.apply(f);
    this.onTrades?.(rows);
    this.lastTradeId = rows.at(-1)!.id;
    return rows.length;
  }

  /** A point of every account's curve at exchange time `t` (or, without, only the drawdown's check). */
  sample(t?: number): Map<string, bigint> {
    this.catchUp();
    return this.ledger.sample(this.mark, t);
  }

  report(capital?: bigint): AccountReport[] {
    this.catchUp();
    return this.ledger.report(this.mark, capital);
  }

  /** One account's line as of now (no extra equity sample, so the curve's own figures are unchanged). */
  account(address: string, capital?: bigint): AccountReport | undefined {
    this.catchUp();
    return this.ledger.reportOf(address, this.mark, capital);
  }

  curve(address: string): EquityPoint[] {
    this.catchUp();
    return this.ledger.curve(address);
  }
}
