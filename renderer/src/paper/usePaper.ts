import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../api/hooks.js';
import { activeCredentials, useWallets } from '../wallets/walletStore.js';
import { createPaperApi } from './paperApi.js';

/** The selected wallet's paper routes, or undefined without an API key. */
export function usePaperApi() {
  const { address } = useSession();
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const creds = activeCredentials({ credentials, activeKey }, address);
  return useMemo(() => (address && creds ? { address, api: createPaperApi(address, { key: creds.key, secret: creds.secret, passphrase: creds.passphrase }) } : undefined), [address, creds]);
}

export function usePaperSessions() {
  const paper = usePaperApi();
  return useQuery({ queryKey: ['paper-sessions', paper?.address.toLowerCase()], queryFn: () => paper!.api.sessions(), enabled: !!paper, refetchInterval: 10_000 });
}

/** Resets the paper account, then refreshes every per-trader query (balances, orders, positions). */
export function usePaperReset() {
  const paper = usePaperApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => paper!.api.reset(),
    onSuccess: async () => {
      await qc.invalidateQueries();
    },
  });
}
