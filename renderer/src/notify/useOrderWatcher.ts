import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { publicApi } from '../api/clientAdapter.js';
import { useMarkets, useOpenOrders, useSession } from '../api/hooks.js';
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
