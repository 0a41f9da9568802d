import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ExchangeClient, type ClosedPosition } from '../../../engine/client/index.js';
import { useBalance, usePositions, useSession } from '../api/hooks.js';
import { SERVICES } from '../env.js';
import { rateLimitFetch } from '../api/rateLimitUse.js';
import { fixedDecimals } from '../format.js';
import { dayPnl, portfolioFigures, type DayMark, type PortfolioFigures } from './portfolio.js';

const publicClient = new ExchangeClient({ baseUrl: SERVICES.trading, dataUrl: SERVICES.data, fetch: rateLimitFetch });

/** GET /data-api/closed-positions of a wallet: sold, merged or redeemed, with their realised PnL. */
export function useClosedPositions(address: string | undefined) {
  return useQuery({
    queryKey: ['closed-positions', address?.toLowerCase()],
    // Pages of 50 (the route's most): total PnL needs every closed position's realised PnL.
    queryFn: async () => {
      const out: ClosedPosition[] = [];
      for (let offset = 0; offset <= 10_000; offset += 50) {
        const page = await publicClient.closedPositions({ user: address!, limit: 50, offset });
        out.push(...page);
        if (page.length < 50) break;
      }
      return out;
    },
    enabled: !!address,
    refetchInterval: 3000,
  });
}

const markKey = (address: string) => `sandbox-terminal.day-pnl.${address.toLowerCase()}`;

function readMark(address: string): DayMark | undefined {
  try {
    const v = JSON.parse(localStorage.getItem(markKey(address)) ?? 'null') as DayMark | null;
    return v && typeof v.day === 'string' && typeof v.totalPnl === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The account picture of the selected wallet: value, PnL, and the day PnL with its base (issue 23, item 10). */
export function usePortfolio(): (PortfolioFigures & { dayPnl: string; daySince: number }) | undefined {
  const session = useSession();
  const balance = useBalance(session.trader);
  const positions = usePositions(session.address);
  const closed = useClosedPositions(session.address);
  const figures = useMemo(
    () => (balance.data && positions.data && closed.data ? portfolioFigures(balance.data.balance, positions.data, closed.data) : undefined),
    [balance.data, positions.data, closed.data],
  );
  const address = session.address;
  const day = figures && address ? dayPnl(figures.totalPnl, readMark(address), Date.now()) : undefined;
  useEffect(() => {
    if (day && address) localStorage.setItem(markKey(address), JSON.stringify(day.mark));
  }, [day?.mark.day, day?.mark.totalPnl, address]);
  return figures && day ? { ...figures, dayPnl: day.pnl, daySince: day.mark.at } : undefined;
}

/** "+6.00" / "-1.20": PnL with its sign, at cents. */
export const signedUsd = (v: string) => `${v.startsWith('-') ? '' : '+'}${fixedDecimals(v, 2)}`;
export const pnlClass = (v: string) => (v.startsWith('-') ? 'down' : 'up');
