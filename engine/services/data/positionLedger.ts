/**
 * Average-cost positions from the fill ledger (data-api.md §5, decisions §5), as the PnL subgraph keeps
 * them per (user, token): amount, avgPrice, realizedPnl, totalBought.
 *
 *   buy q at p:  cost += q·p; amount += q; totalBought += q; avgPrice = cost / amount
 *   sell q at p: q' = min(q, amount); realized += q'·p − q'·cost/amount; amount −= q'; avgPrice unchanged
 *
 * A mint is a buy of each side at its own price and a merge a sell of each side (the ledger already holds
 * one share movement per token); a redemption sells the whole holding at the payout (1 winner, 0 loser).
 *
 * The cost basis is kept exactly in pico-units (micro price × micro size) rather than as a rounded average
 * price, so many small fills never drift; the only rounding is the pro-rata share of cost a partial sell
 * removes (half away from zero, at 1e-12 of a collateral unit).
 */
import { divRound } from './wireNumber.js';

/** Below or at this many shares (0.01) a position counts as closed (data-api.md §9.6). */
export const CLOSED_DUST = 10_000n;

export type MovementKind = 'trade' | 'redeem' | 'split' | 'merge';

/** One change of one wallet's holding of one outcome token, in ledger order. */
export interface ShareMovement {
  readonly asset: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  /** BUY when shares came in. */
  readonly side: 'BUY' | 'SELL';
  /** Shares moved, micro-units, > 0. */
  readonly size: bigint;
  /** Price per share on this token, micro-units (the payout for a redemption). */
  readonly price: bigint;
  readonly timeMs: number;
  readonly kind: MovementKind;
}

export interface PositionState {
  readonly asset: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  /** Shares held, micro-units. */
  amount: bigint;
  /** Cost basis of the shares held, pico-units. */
  costPico: bigint;
  /** Average entry price, micro-units; unchanged by sells, so a closed position keeps its last average. */
  avgPrice: bigint;
  /** Realized PnL, pico-units. */
  realizedPico: bigint;
  /** Lifetime shares acquired, micro-units. */
  totalBought: bigint;
  /** Time of the movement that last brought the holding to ≤ CLOSED_DUST, while it stays there. */
  closedAtMs: number | undefined;
  /** Time of the latest movement. */
  lastMs: number;
}

export function isOpen(p: PositionState): boolean {
  return p.amount > CLOSED_DUST;
}

/** Positions of one wallet, keyed by token id. */
export class PositionLedger {
  private readonly byAsset = new Map<string, PositionState>();

  apply(m: ShareMovement): void {
    if (m.size <= 0n) return;
    let p = this.byAsset.get(m.asset);
    if (!p) {
      p = {
        asset: m.asset,
        conditionId: m.conditionId,
        outcomeIndex: m.outcomeIndex,
        amount: 0n,
        costPico: 0n,
        avgPrice: 0n,
        realizedPico: 0n,
        totalBought: 0n,
        closedAtMs: undefined,
        lastMs: m.timeMs,
      };
      this.byAsset.set(m.asset, p);
    }
    p.lastMs = m.timeMs;
    if (m.side === 'BUY') {
      p.costPico += m.size * m.price;
      p.amount += m.size;
      p.totalBought += m.size;
      p.avgPrice = divRound(p.costPico, p.amount);
      if (p.amount > CLOSED_DUST) p.closedAtMs = undefined;
      return;
    }
    // Shares the ledger never saw come in (none in this exchange, but the rule is the subgraph's) earn no PnL.
    const q = m.size < p.amount ? m.size : p.amount;
    if (q === 0n) return;
    const removed = q === p.amount ? p.costPico : divRound(p.costPico * q, p.amount);
    p.realizedPico += q * m.price - removed;
    p.costPico -= removed;
    p.amount -= q;
    if (p.amount <= CLOSED_DUST && p.closedAtMs === undefined) p.closedAtMs = m.timeMs;
  }

  get(asset: string): PositionState | undefined {
    return this.byAsset.get(asset);
  }

  all(): PositionState[] {
    return [...this.byAsset.values()];
  }
}

/** Replays movements (already in ledger order) into positions. */
export function replayPositions(movements: Iterable<ShareMovement>): PositionLedger {
  const ledger = new PositionLedger();
  for (const m of movements) ledger.apply(m);
  return ledger;
}
