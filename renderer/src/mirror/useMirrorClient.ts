import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MirrorClient } from '../../../engine/client/index.js';
import { SERVICES } from '../env.js';
import { useOperatorToken } from '../api/useOperatorToken.js';
import { useUi } from '../state/uiStore.js';

/** The operator's mirror client, or undefined until the operator token is known. */
export function useMirrorClient(): MirrorClient | undefined {
  const token = useOperatorToken();
  return useMemo(() => (token.data ? new MirrorClient(SERVICES.trading, token.data) : undefined), [token.data]);
}

/** After a mirror or replay started: the market list is refetched, then the new market opens in the terminal. */
export function useOpenNewMarket(): (conditionId: string) => Promise<void> {
  const qc = useQueryClient();
  const selectMarket = useUi((s) => s.selectMarket);
  return async (conditionId) => {
    await qc.invalidateQueries({ queryKey: ['markets'] });
    await qc.invalidateQueries({ queryKey: ['mirrors'] });
    selectMarket(conditionId);
  };
}
