/**
 * CSV export of the account views (RFC 4180: comma separated, CRLF line ends, fields with a comma,
 * quote or line break quoted with inner quotes doubled). Cells that a spreadsheet would run as a
 * formula (=, +, -, @ first) are prefixed with an apostrophe unless they are plain numbers.
 */
import type { Position, TradeRecord } from '../api/types.js';
import type { Activity } from '../../../engine/client/index.js';
import { myFill } from './myFill.js';

export type Cell = string | number | boolean | null | undefined;

const NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function positionsCsv(positions: readonly Position[]): string {
  return toCsv(
    ['market', 'outcome', 'asset', 'size', 'avg_price', 'mark', 'value', 'unrealized_pnl', 'realized_pnl', 'redeemable'],
    positions.map((p) => [p.title, p.outcome, p.asset, p.size, p.avgPrice, p.curPrice, p.currentValue, p.cashPnl, p.realizedPnl, p.redeemable]),
  );
}

/**
 * One row per trade as the caller saw it: its own side, outcome, price and size (myFill, the same as the
 * trade views), the market by its question, its role, and the maker orders the fill matched.
 */
export function tradesCsv(trades: readonly TradeRecord[], address?: string, question: (conditionId: string) => string = (c) => c): string {
  return toCsv(
    ['trade_id', 'time_utc', 'market', 'condition_id', 'outcome', 'side', 'price', 'size', 'role', 'fee_rate_bps', 'matched_orders', 'transaction_hash'],
    trades.map((t) => {
      const mine = myFill(t, address);
      return [
        t.id,
        new Date(Number(t.match_time) * 1000).toISOString(),
        question(t.market),
        t.market,
        mine.outcome,
        mine.side,
        mine.price,
        mine.size,
        mine.role,
        t.fee_rate_bps,
        t.maker_orders.map((m) => `${m.order_id}:${m.matched_amount}@${m.price}`).join(' '),
        t.transaction_hash,
      ];
    }),
  );
}

/** The Activity view as CSV: trades, redemptions, merges and splits, with the market named. */
export function activityCsv(rows: readonly Activity[]): string {
  return toCsv(
    ['time_utc', 'type', 'market', 'outcome', 'side', 'shares', 'price', 'usdc', 'transaction_hash'],
    rows.map((a) => [new Date(a.timestamp * 1000).toISOString(), a.type, a.title, a.outcome, a.side, a.size, a.price, a.usdcSize, a.transactionHash]),
  );
}
