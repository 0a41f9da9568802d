import { useQuery } from '@tanstack/react-query';
import { ExchangeClient } from '../../../engine/client/index.js';
import { SERVICES } from '../env.js';
import { RANGES, type ChartRange } from './chartSeries.js';

const client = new ExchangeClient({ baseUrl: SERVICES.trading, dataUrl: SERVICES.data });

/** GET /prices-history for one outcome and range; refreshed slowly, the live trades fill the gap. */
export function usePriceHistory(tokenId: string | undefined, range: ChartRange) {
  const spec = RANGES[range];
  return useQuery({
    queryKey: ['prices-history', tokenId, range],
    queryFn: async () => (await client.getPricesHistory({ market: tokenId!, interval: spec.interval, fidelity: spec.fidelity })).history,
    enabled: !!tokenId,
    refetchInterval: 15_000,
    placeholderData: (prev) => prev,
  });
}
