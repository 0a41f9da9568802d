import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MarketStream, UserStream, type MarketEvent, type UserEvent } from '../../../engine/client/index.js';
import { traderKey, useExchangeConfig, useMarkets, useSelection, useSession } from '../api/hooks.js';
import { useUi } from '../state/uiStore.js';
import { activeCredentials, useWallets } from '../wallets/walletStore.js';
import { CoalescedRefresh } from './coalescedRefresh.js';
import { useStreamHealth } from './streamHealth.js';

/** The shortest time between two refetches of one list on user-channel events. */
const USER_REFRESH_MS = 500;

/** The stream base URL: GET /config's `ws`, else the page's own origin (the engine serves the terminal). */
function wsBase(configWs: string | undefined): string | undefined {
  if (configWs) return configWs;
  if (typeof window === 'undefined') return undefined;
  return window.location.origin.replace(/^http/, 'ws') + '/ws';
}

/** Book snapshots in GET /book's shape from the stream's local book (the book panel reads that cache). */
function onMarketEvent(qc: QueryClient, stream: MarketStream, e: MarketEvent): void {
  const assets = e.event_type === 'price_change' ? [...new Set(e.price_changes.map((c) => c.asset_id))] : 'asset_id' in e && typeof e.asset_id === 'string' ? [e.asset_id] : [];
  for (const asset of assets) {
    const b = stream.book(asset)?.toBook();
    if (b && (e.event_type === 'book' || e.event_type === 'price_change' || e.event_type === 'tick_size_change')) {
      const { market, asset_id, timestamp, hash, bids, asks, min_order_size, tick_size, neg_risk, last_trade_price } = b;
      qc.setQueryData(['book', asset], { market, asset_id, timestamp, hash, bids, asks, min_order_size, tick_size, neg_risk, last_trade_price });
    }
    if (e.event_type === 'last_trade_price') void qc.invalidateQueries({ queryKey: ['tape', asset] });
  }
  // A new tick changes the market record (header, ticket validation) as well as the book.
  if (e.event_type === 'new_market' || e.event_type === 'market_resolved' || e.event_type === 'tick_size_change') void qc.invalidateQueries({ queryKey: ['markets'] });
}

/**
 * Keeps the terminal's query caches current from the streams: the selected market's books (both
 * tokens) from the market channel, and the wallet's orders, trades, balance and positions refetched on
 * its user-channel events. Queries still poll, slowly, as the fallback (see streamPollMs).
 */
export function useLiveStreams(): void {
  const qc = useQueryClient();
  const { data: config } = useExchangeConfig();
  const { market } = useSelection();
  const session = useSession();
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const setMarket = useStreamHealth((s) => s.setMarket);
  const setUser = useStreamHealth((s) => s.setUser);
  const base = wsBase((config as { ws?: string } | undefined)?.ws);
  // The selected market's tokens and the watchlist's (each starred market's first outcome), one stream.
  const { data: markets } = useMarkets();
  const favourites = useUi((s) => s.favourites);
  const watched = favourites.flatMap((id) => markets?.find((m) => m.condition_id === id)?.tokens.slice(0, 1).map((t) => t.token_id) ?? []);
  const tokens = [...new Set([...(market?.tokens.map((t) => t.token_id) ?? []), ...watched])].join(',');

  useEffect(() => {
    if (!base || !tokens) return;
    const stream = new MarketStream({ url: `${base}/market`, assets: tokens.split(','), custom: true });
    const offEvents = stream.on((e) => onMarketEvent(qc, stream, e));
    const offStatus = stream.onStatus((s) => setMarket(s));
    // Last-message age moves without events: refresh the status every second.
    const timer = setInterval(() => setMarket({ ...stream.status }), 1000);
    return () => {
      clearInterval(timer);
      offEvents();
      offStatus();
      stream.close();
      setMarket(undefined);
    };
  }, [base, tokens, qc, setMarket]);

  const address = session.address;
  const creds = activeCredentials({ credentials, activeKey }, address);
  const key = creds?.key;
  useEffect(() => {
    if (!base || !creds || !address) return;
    const trader = session.trader;
    const stream = new UserStream({ url: `${base}/user`, creds: { key: creds.key, secret: creds.secret, passphrase: creds.passphrase } });
    // A burst of events (hundreds of fills) refetches each list once per window, not once per event:
    // the first event refetches at once, the rest of the window's events share one refetch at its end.
    const refresh = new CoalescedRefresh(USER_REFRESH_MS, (keys) => {
      for (const k of keys) void qc.invalidateQueries({ queryKey: k });
    });
    const onEvent = (e: UserEvent): void => {
      if (e.event_type === 'error') return;
      refresh.add(traderKey(trader, 'open-orders'));
      refresh.add(traderKey(trader, 'balance'));
      if (e.event_type === 'trade') {
        refresh.add(traderKey(trader, 'trades'));
        refresh.add(['positions', address.toLowerCase()]);
      }
    };
    const offEvents = stream.on(onEvent);
    const offStatus = stream.onStatus((s) => setUser(s));
    return () => {
      refresh.cancel();
      offEvents();
      offStatus();
      stream.close();
      setUser(undefined);
    };
    // creds is re-derived each render; its key identifies it (session.trader too: its address and key).
  }, [base, key, address, qc, setUser]);
}
