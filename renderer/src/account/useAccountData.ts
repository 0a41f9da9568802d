import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LocalAccount } from 'viem';
import { ExchangeClient } from '../../../engine/client/index.js';
import { useSession } from '../api/hooks.js';
import { SERVICES } from '../env.js';
import { rateLimitFetch } from '../api/rateLimitUse.js';
import { activeCredentials, useWallets } from '../wallets/walletStore.js';

/** The client library signed in as the selected wallet (for the calls the terminal API lacks: redeem). */
function useSignedClient(): ExchangeClient | undefined {
  const { account, config } = useSession();
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const creds = activeCredentials({ credentials, activeKey }, account?.address);
  return useMemo(
    () =>
      account && config && creds
        ? new ExchangeClient({ baseUrl: SERVICES.trading, dataUrl: SERVICES.data, fetch: rateLimitFetch, chainId: config.chainId, signer: account as LocalAccount, creds: { key: creds.key, secret: creds.secret, passphrase: creds.passphrase } })
        : undefined,
    [account, config, creds],
  );
}

const publicClient = new ExchangeClient({ baseUrl: SERVICES.trading, dataUrl: SERVICES.data, fetch: rateLimitFetch });

/** GET /data-api/activity of a wallet, newest first. */
export function useActivity(address: string | undefined) {
  return useQuery({ queryKey: ['activity', address?.toLowerCase()], queryFn: () => publicClient.activity({ user: address!, limit: 200 }), enabled: !!address, refetchInterval: 3000 });
}

/** POST /redeem for one resolved market, then refresh balances and positions. */
export function useRedeem() {
  const client = useSignedClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (conditionId: string) => {
      if (!client) throw new Error('Create an API key first: redeeming needs the wallet’s credentials.');
      return client.redeem(conditionId);
    },
    onSuccess: () => qc.invalidateQueries(),
  });
}

/** GET /data/orders/history of the signed-in wallet: every order, newest first, with cancel reasons. */
export function useOrderHistory() {
  const session = useSession();
  return useQuery({
    queryKey: ['trader', session.address?.toLowerCase(), 'order-history'],
    queryFn: () => session.trader!.orderHistory(),
    enabled: !!session.trader?.hasCredentials,
    refetchInterval: 3000,
  });
}
