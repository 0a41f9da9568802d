import { useMarkets } from '../api/hooks.js';
import type { Market } from '../api/types.js';

/**
 * The operator's global breaker, from the public market list: every open market refuses orders while
 * none of them is paused on its own. Announced to every page, not only to whoever tries to trade.
 */
export function systemPaused(markets: readonly Pick<Market, 'closed' | 'accepting_orders' | 'paused'>[] | undefined): boolean {
  const open = (markets ?? []).filter((m) => !m.closed);
  return open.length > 0 && open.every((m) => m.accepting_orders === false && !m.paused);
}

export function SystemPauseBanner() {
  const { data: markets } = useMarkets();
  if (!systemPaused(markets)) return null;
  return (
    <div className="system-paused" role="alert" data-testid="system-paused">
      <b>Trading paused</b> by the exchange operator on every market: new orders are refused until it resumes; cancels still work.
    </div>
  );
}
