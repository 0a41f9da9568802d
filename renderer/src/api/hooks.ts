import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAccount, useConfig as useWagmiConfig } from 'wagmi';
import { privateKeyToAccount } from 'viem/accounts';
import type { Account } from 'viem';
import { useUi } from '../state/uiStore.js';
import { activeCredentials, useWallets } from '../wallets/walletStore.js';
import { injectedAccount } from '../wallets/injectedAccount.js';
import { createTraderApi, publicApi } from './clientAdapter.js';
import type { TraderApi } from './terminalApi.js';
import type { ExchangeConfig, Market } from './types.js';
import { streamPollMs } from '../streams/streamHealth.js';
import { healthAnswered, healthFailed, healthPollMs } from './engineState.js';

export const POLL_MS = 1000;

export function useExchangeConfig() {
  return useQuery({ queryKey: ['config'], queryFn: () => publicApi.config(), staleTime: Infinity });
}

/**
 * Engine liveness: GET /ok every 2 s, never retried, so a stopped engine shows as down within seconds;
 * it alone keeps polling (backing off to 8 s) while the other queries wait for it (engineState.ts).
 */
export function useEngineHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: async () => {
      try {
        const r = await publicApi.health();
        healthAnswered();
        return r;
      } catch (e) {
        healthFailed();
        throw e;
      }
    },
    refetchInterval: () => healthPollMs(),
    retry: false,
    refetchIntervalInBackground: true,
    networkMode: 'always',
  });
}

export function useMarkets() {
  return useQuery({ queryKey: ['markets'], queryFn: () => publicApi.markets(), refetchInterval: 5000 });
}

export interface Selection {
  market: Market | undefined;
  outcomeIndex: number;
  tokenId: string | undefined;
}

/** The selected market and outcome, falling back to the first market so the terminal is never empty. */
export function useSelection(): Selection {
  const { data: markets } = useMarkets();
  const conditionId = useUi((s) => s.conditionId);
  const outcomeIndex = useUi((s) => s.outcomeIndex);
  // A fresh profile opens on a market that takes orders, not merely the first one listed.
  const market = markets?.find((m) => m.condition_id === conditionId) ?? markets?.find((m) => m.accepting_orders !== false && !m.closed) ?? markets?.[0];
  const idx = market && outcomeIndex < market.tokens.length ? outcomeIndex : 0;
  return { market, outcomeIndex: idx, tokenId: market?.tokens[idx]?.token_id };
}

export function useBook(tokenId: string | undefined) {
  return useQuery({
    queryKey: ['book', tokenId],
    queryFn: () => publicApi.book(tokenId!),
    enabled: !!tokenId,
    refetchInterval: () => streamPollMs(POLL_MS),
    placeholderData: (prev) => (prev?.asset_id === tokenId ? prev : undefined),
  });
}

export function useTape(tokenId: string | undefined) {
  return useQuery({ queryKey: ['tape', tokenId], queryFn: () => publicApi.tape(tokenId!), enabled: !!tokenId, refetchInterval: () => streamPollMs(POLL_MS) });
}

export interface Session {
  kind: 'burner' | 'injected' | 'none';
  label: string;
  account: Account | undefined;
  address: string | undefined;
  trader: TraderApi | undefined;
  config: ExchangeConfig | undefined;
}

/** The selected wallet as a viem Account, its API credentials, and the trader API built from both. */
export function useSession(): Session {
  const selection = useWallets((s) => s.selection);
  const burners = useWallets((s) => s.burners);
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const injected = useAccount();
  const wagmiConfig = useWagmiConfig();
  const { data: config } = useExchangeConfig();

  const burner = selection?.kind === 'burner' ? burners.find((b) => b.id === selection.id) : undefined;
  const injectedAddress = selection?.kind === 'injected' && injected.isConnected ? injected.address : undefined;

  const account = useMemo<Account | undefined>(() => {
    if (burner) return privateKeyToAccount(burner.privateKey);
    if (injectedAddress) return injectedAccount(wagmiConfig, injectedAddress);
    return undefined;
  }, [burner, injectedAddress, wagmiConfig]);

  const creds = activeCredentials({ credentials, activeKey }, account?.address);
  const trader = useMemo(
    () => (account && config ? createTraderApi({ account, config, creds: creds && { key: creds.key, secret: creds.secret, passphrase: creds.passphrase } }) : undefined),
    [account, config, creds],
  );

  return {
    kind: burner ? 'burner' : injectedAddress ? 'injected' : 'none',
    label: burner?.label ?? (injectedAddress ? 'Injected wallet' : 'No wallet'),
    account,
    address: account?.address,
    trader,
    config,
  };
}

/** Keys of per-trader queries: they change with the wallet and the API key. */
export function traderKey(trader: TraderApi | undefined, what: string, ...rest: unknown[]): unknown[] {
  return ['trader', trader?.address.toLowerCase() ?? null, trader?.hasCredentials ?? false, what, ...rest];
}

export function useBalance(trader: TraderApi | undefined) {
  return useQuery({
    queryKey: traderKey(trader, 'balance'),
    queryFn: () => trader!.balance(),
    enabled: !!trader?.hasCredentials,
    refetchInterval: () => streamPollMs(2000),
  });
}

export function useOpenOrders(trader: TraderApi | undefined) {
  return useQuery({ queryKey: traderKey(trader, 'open-orders'), queryFn: () => trader!.openOrders(), enabled: !!trader?.hasCredentials, refetchInterval: () => streamPollMs(POLL_MS) });
}

/** Queue positions move when OTHER traders' orders ahead fill or cancel, which no user event reports: poll. */
export function useQueuePositions(trader: TraderApi | undefined) {
  return useQuery({ queryKey: traderKey(trader, 'queue'), queryFn: () => trader!.queuePositions(), enabled: !!trader?.hasCredentials, refetchInterval: POLL_MS });
}

export function useMyTrades(trader: TraderApi | undefined) {
  return useQuery({ queryKey: traderKey(trader, 'trades'), queryFn: () => trader!.trades(), enabled: !!trader?.hasCredentials, refetchInterval: () => streamPollMs(2000) });
}

export function usePositions(address: string | undefined) {
  return useQuery({ queryKey: ['positions', address?.toLowerCase()], queryFn: () => publicApi.positions(address!), enabled: !!address, refetchInterval: () => streamPollMs(2000) });
}

export function useHolders(conditionId: string | undefined) {
  return useQuery({ queryKey: ['holders', conditionId], queryFn: () => publicApi.holders(conditionId!), enabled: !!conditionId, refetchInterval: 3000 });
}
