import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { OrderHistoryEntry } from '../api/types.js';

/** What the Order history shows of any order, stored by the exchange or refused by it. */
interface OrderFacts {
  at: number;
  market: string;
  outcome: string;
  side: string;
  price: string;
  size: string;
  type: string;
}

/**
 * An order the exchange refused: it was never stored, so the terminal keeps what it sent and the
 * answer (issue 23, item 10: order history with rejected orders and their reasons).
 */
export interface RejectedOrder extends OrderFacts {
  code: string;
  reason: string;
}

const KEEP = 200;

interface RejectionState {
  byWallet: Record<string, RejectedOrder[]>;
  record(wallet: string, r: RejectedOrder): void;
}

/** Rejections per wallet (newest first, the last 200), kept across reloads; no secrets in them. */
export const useRejections = create<RejectionState>()(
  persist(
    (set) => ({
      byWallet: {},
      record: (wallet, r) => set((s) => ({ byWallet: { ...s.byWallet, [wallet.toLowerCase()]: [r, ...(s.byWallet[wallet.toLowerCase()] ?? [])].slice(0, KEEP) } })),
    }),
    { name: 'sandbox-terminal.rejections' },
  ),
);

/** One row of the Order history view. */
export interface HistoryRow extends OrderFacts {
  key: string;
  filled: string;
  status: 'open' | 'partially filled' | 'filled' | 'cancelled' | 'expired' | 'rejected';
  reason: string;
}

/**
 * The exchange's order history (open, filled, cancelled, expired: a cancel for "expired" is shown as
 * expired) merged with the rejections the terminal received, newest first. `outcome` is named by
 * `outcomeOf` (the wire's `<conditionId>:<index>`).
 */
export function historyRows(entries: readonly OrderHistoryEntry[], rejected: readonly RejectedOrder[], outcomeOf: (market: string, outcome: string) => string): HistoryRow[] {
  const rows: HistoryRow[] = entries.map((o) => ({
    key: o.id,
    at: Date.parse(o.createdAt),
    market: o.market,
    outcome: outcomeOf(o.market, o.outcome),
    side: o.side,
    price: o.price,
    size: o.originalSize,
    filled: o.sizeMatched,
    type: o.type,
    status: o.status === 'cancelled' ? (o.cancelReason === 'expired' ? 'expired' : 'cancelled') : o.status === 'partially_filled' ? 'partially filled' : o.status,
    reason: o.status === 'cancelled' ? (o.cancelReason ?? 'cancelled') : '',
  }));
  for (const [i, r] of rejected.entries()) {
    const { code, reason, ...facts } = r;
    rows.push({ ...facts, key: `rejected-${r.at}-${i}`, filled: '0', status: 'rejected', reason: `${reason} (${code})` });
  }
  return rows.sort((a, b) => b.at - a.at);
}
