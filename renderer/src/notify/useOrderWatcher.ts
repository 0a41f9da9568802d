import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { publicApi } from '../api/clientAdapter.js';
import { useMarkets, useOpenOrders, usePositions, useSession } from '../api/hooks.js';
import { newlyResolved } from './resolution.js';
import type { Market, OrderRecord } from '../api/types.js';
import type { TraderApi } from '../api/terminalApi.js';
import { notify } from './notify.js';
import { averageFill, fillsOfOrder, fillText, orderText } from './orderText.js';

/** Ids the terminal itself cancelled: their disappearance is already toasted by the cancel. */
export const cancelledHere = new Set<string>();

/** An order as toasts name it (side, size, outcome, price, market), never by its id. */
export function orderLabel(o: Pick<OrderRecord, 'market' | 'outcome' | 'side' | 'price' | 'originalSize'>, markets: readonly Market[] | undefined, size = o.originalSize): string {
  const m = markets?.find((x) => x.condition_id === o.market);
  const outcome = m?.tokens[Number(o.outcome.split(':').pop())]?.outcome ?? '';
  return orderText({ side: o.side, size, outcome, price: o.price, ...(m ? { question: m.question, tick: String(m.minimum_tick_size) } : {}) });
}

/**
 * Announces what an order filled, with its size-weighted average price from the trader's trades (the
 * order record carries only the matched size). Used for immediate fills (the ticket) and later ones
 * (the watcher), so every fill reads the same (issue 23, item 6).
 */
export async function announceFill(trader: TraderApi, o: OrderRecord, markets: readonly Market[] | undefined): Promise<void> {
  const m = markets?.find((x) => x.condition_id === o.market);
  const outcome = m?.tokens[Number(o.outcome.split(':').pop())]?.outcome ?? '';
  const avg = averageFill(fillsOfOrder(await trader.trades().catch(() => []), o.id));
  const what = fillText({ side: o.side, size: avg?.size ?? o.sizeMatched, outcome, price: avg?.price ?? o.price, ...(m ? { question: m.question, tick: String(m.minimum_tick_size) } : {}) });
  if (o.sizeMatched === o.originalSize || o.status === 'filled') notify.filled(what);
  else notify.partiallyFilled(what, o.sizeMatched, o.originalSize);
}

/**
 * Watches the open orders between polls and toasts what happened to them without the trader acting:
 * partly filled, filled by someone else, expired, or cancelled because the market resolved (defect 5).
 */
export function useOrderWatcher(): void {
  const session = useSession();
  const orders = useOpenOrders(session.trader);
  const { data: markets } = useMarkets();
  const qc = useQueryClient();
  const seen = useRef(new Map<string, OrderRecord>());
  useResolutionWatcher();

  useEffect(() => {
    const trader = session.trader;
    if (!trader || !orders.data) return;
    const now = new Map(orders.data.map((o) => [o.id, o]));
    for (const [id, before] of seen.current) {
      const after = now.get(id);
      if (after && after.sizeMatched !== before.sizeMatched) void announceFill(trader, after, markets);
      if (after || cancelledHere.has(id)) continue;
      // The market list polls slowly: read it afresh to tell a resolution from a plain cancel.
      void Promise.all([trader.order(id), qc.fetchQuery({ queryKey: ['markets'], queryFn: () => publicApi.markets(), staleTime: 0 })]).then(
        ([o, fresh]) => {
          const market = fresh.find((x) => x.condition_id === o.market);
          if (o.status === 'filled') void announceFill(trader, o, fresh);
          else if (o.expiration !== '0' && Number(o.expiration) * 1000 <= Date.now() + 60_000) notify.expired(orderLabel(o, fresh));
          else if (market?.closed) notify.resolved(orderLabel(o, fresh));
          else notify.cancelled(orderLabel(o, fresh));
        },
        () => notify.cancelled(orderLabel(before, markets)),
      );
    }
    seen.current = now;
  }, [orders.data, session.trader, markets, qc]);
}

/**
 * Tells every holder when a market they hold resolves, whether or not an order of theirs was cancelled
 * (issue 23, item 3): who won, and for each position whether it won (what to redeem) or lost.
 */
function useResolutionWatcher(): void {
  const session = useSession();
  const positions = usePositions(session.address);
  const { data: markets } = useMarkets();
  const qc = useQueryClient();
  const known = useRef<{ address: string; resolved: Set<string> } | null>(null);
  // Positions poll slowly while the streams are up, and a resolution brings the holder no event of
  // their own: the market list (polled, and refreshed by market_resolved) says when to look again.
  useEffect(() => {
    const held = positions.data?.filter((p) => !p.redeemable).map((p) => p.conditionId) ?? [];
    if (held.some((c) => markets?.find((m) => m.condition_id === c)?.tokens.some((t) => t.winner))) void qc.invalidateQueries({ queryKey: ['positions'] });
  }, [markets, positions.data, qc]);
  useEffect(() => {
    const address = session.address?.toLowerCase();
    if (!address || !positions.data) return;
    // The first look at a wallet: what is already resolved is not news.
    if (known.current?.address !== address) {
      known.current = { address, resolved: new Set(positions.data.filter((p) => p.redeemable).map((p) => p.conditionId)) };
      return;
    }
    for (const n of newlyResolved(known.current.resolved, positions.data)) {
      known.current.resolved.add(n.conditionId);
      notify.holdingResolved(n.winner, n.text);
    }
  }, [positions.data, session.address]);
}
