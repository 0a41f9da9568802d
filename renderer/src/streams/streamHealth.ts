import { create } from 'zustand';
import type { StreamStatus } from '../../../engine/client/index.js';

/** The terminal's view of its streams, for the status bar and the polling fallback. */
export interface StreamHealth {
  market: StreamStatus | undefined;
  user: StreamStatus | undefined;
  setMarket(s: StreamStatus | undefined): void;
  setUser(s: StreamStatus | undefined): void;
}

export const useStreamHealth = create<StreamHealth>((set) => ({
  market: undefined,
  user: undefined,
  setMarket: (market) => set({ market }),
  setUser: (user) => set({ user }),
}));

/** Polling only as a fallback: while the market stream is open, queries poll this many times less often. */
export const HEALTHY_POLL_FACTOR = 10;

/** A query's refetch interval: `base` while the streams are down, much longer while they are open. */
export function streamPollMs(base: number): number {
  return useStreamHealth.getState().market?.state === 'open' ? base * HEALTHY_POLL_FACTOR : base;
}

/** The stream's state as the status bar shows it: open, connecting, reconnecting, closed or off. */
export function streamLabel(s: StreamStatus | undefined): string {
  return s ? s.state : 'off';
}
