import { fixedDecimals } from '../format.js';

type Held = { conditionId: string; outcome: string; oppositeOutcome: string; size: number; curPrice: number; redeemable: boolean; title: string };

/** A resolved position's fate: its payout per share is 1 if its outcome won, 0 if it lost. */
export function positionOutcome(p: Pick<Held, 'redeemable' | 'curPrice'>): 'won' | 'lost' | undefined {
  if (!p.redeemable) return undefined;
  return p.curPrice > 0 ? 'won' : 'lost';
}

/** Who won, from a resolved position: its own outcome, or the opposite one. */
export function winningOutcome(p: Pick<Held, 'outcome' | 'oppositeOutcome' | 'curPrice'>): string {
  return p.curPrice > 0 ? p.outcome : p.oppositeOutcome;
}

/**
 * What to tell a holder when markets they hold resolve: one line per market newly resolved since the
 * last look (issue 23, item 3: only traders with a cancelled order heard of it), keyed by condition id.
 */
export function newlyResolved(before: ReadonlySet<string>, now: readonly Held[]): { conditionId: string; winner: string; text: string }[] {
  const byMarket = new Map<string, Held[]>();
  for (const p of now) if (p.redeemable && !before.has(p.conditionId)) byMarket.set(p.conditionId, [...(byMarket.get(p.conditionId) ?? []), p]);
  return [...byMarket].map(([conditionId, held]) => {
    const winner = winningOutcome(held[0]!);
    const fates = held.map((p) =>
      positionOutcome(p) === 'won'
        ? `your ${fixedDecimals(p.size.toFixed(6), 2)} ${p.outcome} shares won: redeem ${fixedDecimals((p.size * p.curPrice).toFixed(6), 2)} USDC in Positions`
        : `your ${fixedDecimals(p.size.toFixed(6), 2)} ${p.outcome} shares lost`,
    );
    return { conditionId, winner, text: `${held[0]!.title}: ${fates.join('; ')}.` };
  });
}
