import { useMarkets } from '../api/hooks.js';

/** How the trader's tables name a market and an outcome: the market's question and outcome label when known. */
export function useMarketLabels() {
  const { data: markets } = useMarkets();
  const marketOf = (conditionId: string) => markets?.find((m) => m.condition_id === conditionId);
  return {
    /** The market's tick as text, to format prices in tables. */
    tick: (conditionId: string) => {
      const t = marketOf(conditionId)?.minimum_tick_size;
      return t === undefined ? undefined : String(t);
    },
    question: (conditionId: string) => marketOf(conditionId)?.question ?? conditionId.slice(0, 10),
    /** `outcome` is the wire's `<conditionId>:<outcomeIndex>`; falls back to it when the market is unknown. */
    outcome: (conditionId: string, outcome: string) => marketOf(conditionId)?.tokens[Number(outcome.split(':').pop())]?.outcome ?? outcome,
  };
}
