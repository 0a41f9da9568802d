import { formatUnits } from '../../../engine/protocol/amounts.js';
import { toMicros } from '../format.js';

/** The figures of the account picture, decimal text (issue 23, item 10). */
export interface PortfolioFigures {
  /** Collateral, including what open orders reserve. */
  cash: string;
  /** Open positions at mark (Σ size × curPrice). */
  positionsValue: string;
  /** cash + positionsValue. */
  value: string;
  /** Σ (value at mark − cost) of the open positions. */
  unrealised: string;
  /** Realised on the open positions' exits so far and on every closed (sold, merged, redeemed) one. */
  realised: string;
  /** unrealised + realised. */
  totalPnl: string;
}

type Open = { currentValue: number; cashPnl: number; realizedPnl: number };
type Closed = { realizedPnl: number };

// The data API sends numbers; each is read at 6 decimals and summed exactly.
const m = (n: number) => toMicros(Number.isFinite(n) ? n : 0) ?? 0n;

export function portfolioFigures(balanceBaseUnits: string, open: readonly Open[], closed: readonly Closed[]): PortfolioFigures {
  const cash = BigInt(/^-?\d+$/.test(balanceBaseUnits) ? balanceBaseUnits : '0');
  let positions = 0n;
  let unrealised = 0n;
  let realised = 0n;
  for (const p of open) {
    positions += m(p.currentValue);
    unrealised += m(p.cashPnl);
    realised += m(p.realizedPnl);
  }
  for (const p of closed) realised += m(p.realizedPnl);
  return {
    cash: formatUnits(cash),
    positionsValue: formatUnits(positions),
    value: formatUnits(cash + positions),
    unrealised: formatUnits(unrealised),
    realised: formatUnits(realised),
    totalPnl: formatUnits(unrealised + realised),
  };
}

/** The first total PnL the terminal saw on a UTC day, per wallet: the day PnL's base. */
export interface DayMark {
  day: string;
  totalPnl: string;
  /** When it was taken (ms), so the view can say "since HH:MM" when that was after midnight. */
  at: number;
}

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Day PnL: total PnL now less the total PnL first seen today. Total PnL leaves deposits and paper
 * grants out (it comes from the positions), so a funding does not count as profit. A mark from an
 * earlier day is replaced by today's first reading.
 */
export function dayPnl(totalPnl: string, mark: DayMark | undefined, nowMs: number): { pnl: string; mark: DayMark } {
  const today = utcDay(nowMs);
  const base = mark && mark.day === today ? mark : { day: today, totalPnl, at: nowMs };
  return { pnl: formatUnits((toMicros(totalPnl) ?? 0n) - (toMicros(base.totalPnl) ?? 0n)), mark: base };
}
