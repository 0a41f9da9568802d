import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { publicApi } from '../api/clientAdapter.js';
import { useMarkets, useOpenOrders, useSession } from '../api/hooks.js';
import type { OrderRecord } from '../api/types.js';
import { notify } from './notify.js';

/** Ids the terminal itself cancelled: their disappearance is already toasted by the cancel. */
export const cancelledHere = new Set<string>();

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
    const label = (o: OrderRecord) => {
      const m = markets?.find((x) => x.condition_id === o.market);
      const outcome = m?.tokens[Number(o.outcome.split(':').pop())]?.outcome ?? '';
      return `${o.side} ${outcome} @ ${o.price}${m ? ` · ${m.question}` : ''}`;
    };
    for (const [id, before] of seen.current) {
      const after = now.get(id);
      if (after && after.sizeMatched !== before.sizeMatched) notify.partiallyFilled(label(after), after.sizeMatched, after.originalSize);
      if (after || cancelledHere.has(id)) continue;
      // The market list polls slowly: read it afresh to tell a resolution from a plain cancel.
      void Promise.all([trader.order(id), qc.fetchQuery({ queryKey: ['markets'], queryFn: () => publicApi.markets(), staleTime: 0 })]).then(
        ([o, fresh]) => {
          const market = fresh.find((x) => x.condition_id === o.market);
          if (o.status === 'filled') notify.filled(label(o));
          else if (o.expiration !== '0' && Number(o.expiration) * 1000 <= Date.now() + 60_000) notify.expired(label(o));
          else if (market?.closed) notify.resolved(label(o));
          else notify.cancelled(label(o));
        },
        () => notify.cancelled(label(before)),
      );
    }
    seen.current = now;
  }, [orders.data, session.trader, markets, qc]);
}
