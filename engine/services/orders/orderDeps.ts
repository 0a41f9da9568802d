import type { Infra } from '../infra.js';
import type { MirrorStatus } from '../mirror/mirrorTypes.js';
import type { TradableMarket } from './liveOrder.js';

/**
 * The markets the order service trades, read-only (the markets service satisfies it). Orders never
 * call back into the markets service: a resolution reaches them as an event the composition root
 * wires (markets.onResolving → cancelMarketOrders).
 */
export interface MarketLookup {
  byCondition(conditionId: string): TradableMarket | undefined;
  byToken(tokenId: string): { market: TradableMarket; outcomeIndex: 0 | 1 } | undefined;
  list(): readonly TradableMarket[];
  pauseState(conditionId: string): 'system_paused' | 'condition_paused' | null;
}

/** What the order service and its parts use, wired by engine/engine.ts. */
export type OrderDeps = Pick<Infra, 'config' | 'clock' | 'ids' | 'db' | 'writes' | 'chain'> & {
  readonly markets: MarketLookup;
  /** A mirrored market's upstream state (the mirror service); undefined for a local market. Stale refuses marketable orders, closed every new order. */
  readonly mirrorOf?: (conditionId: string) => MirrorStatus | undefined;
};
