import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { Side } from '../../../engine/protocol/eip712.js';
import type { PriceStyle } from '../format.js';

/** The side column's tab below the ticket (issue 23, item 7). */
export type SideTab = 'wallet' | 'keys' | 'safe';

export type BottomTab = 'orders' | 'trades' | 'positions' | 'holders' | 'relayer' | 'admin' | 'mirrors' | 'agents' | 'report';

/** A price/size the user clicked in the book, pushed into the order ticket. */
export interface TicketPrefill {
  side: Side;
  price: string;
  size?: string;
  /** Switches the ticket to this mode (a position's Close asks for a market SELL). */
  mode?: 'limit' | 'market';
  /** Changes on every click so the same level clicked twice still refills the ticket. */
  seq: number;
}

interface UiState {
  conditionId: string | null;
  outcomeIndex: number;
  bottomTab: BottomTab;
  sideTab: SideTab;
  /** Prices as decimals (0.38) or cents (38¢), as the trader chose. */
  priceStyle: PriceStyle;
  prefill: TicketPrefill | null;
  marketFilter: string;
  /** Ask before sending an order (on by default, issue 14 defect 3). */
  confirmOrders: boolean;
  /** Colour-vision-safe palette (blue/orange instead of green/red). */
  cvdSafe: boolean;
  /** Starred markets (condition ids), in the order starred: the watchlist. */
  favourites: string[];
  /** Markets open as tabs (condition ids), left to right; `conditionId` is the active one. */
  tabs: string[];
  toggleFavourite(conditionId: string): void;
  closeTab(conditionId: string): void;
  /** Activates the next (+1) or previous (-1) tab, wrapping around. */
  cycleTab(delta: number): void;
  setConfirmOrders(on: boolean): void;
  setCvdSafe(on: boolean): void;
  selectMarket(conditionId: string, outcomeIndex?: number): void;
  selectOutcome(outcomeIndex: number): void;
  setBottomTab(tab: BottomTab): void;
  setSideTab(tab: SideTab): void;
  setPriceStyle(style: PriceStyle): void;
  prefillTicket(p: Omit<TicketPrefill, 'seq'>): void;
  setMarketFilter(text: string): void;
  /** The account the Report tab shows (null: the selected wallet's). */
  reportAccount: string | null;
  setReportAccount(address: string | null): void;
}

export const MAX_TABS = 8;

/** `tabs` with `id` open: appended when new, the oldest other tabs dropped past MAX_TABS. */
export function withTab(tabs: string[], id: string): string[] {
  if (tabs.includes(id)) return tabs;
  const next = [...tabs, id];
  return next.length > MAX_TABS ? next.slice(next.length - MAX_TABS) : next;
}

/** UI selections only: server state lives in TanStack Query, wallets in walletStore. */
export const useUi = create<UiState>()(
  persist(
    (set) => ({
      conditionId: null,
      outcomeIndex: 0,
      bottomTab: 'orders',
      reportAccount: null,
      setReportAccount: (reportAccount) => set({ reportAccount }),
      sideTab: 'wallet',
      priceStyle: 'decimal',
      prefill: null,
      marketFilter: '',
      confirmOrders: true,
      cvdSafe: false,
      favourites: [],
      tabs: [],
      toggleFavourite: (id) => set((s) => ({ favourites: s.favourites.includes(id) ? s.favourites.filter((f) => f !== id) : [...s.favourites, id] })),
      closeTab: (id) =>
        set((s) => {
          const i = s.tabs.indexOf(id);
          if (i < 0) return {};
          const tabs = s.tabs.filter((t) => t !== id);
          if (s.conditionId !== id) return { tabs };
          // Closing the active tab activates its right neighbour (else the left one), as browsers do.
          const next = tabs[Math.min(i, tabs.length - 1)] ?? null;
          return { tabs, conditionId: next, outcomeIndex: 0, prefill: null };
        }),
      cycleTab: (delta) =>
        set((s) => {
          if (s.tabs.length === 0) return {};
          const i = s.conditionId ? s.tabs.indexOf(s.conditionId) : -1;
          const next = s.tabs[(((i < 0 ? 0 : i + delta) % s.tabs.length) + s.tabs.length) % s.tabs.length]!;
          return next === s.conditionId ? {} : { conditionId: next, outcomeIndex: 0, prefill: null };
        }),
      setConfirmOrders: (confirmOrders) => set({ confirmOrders }),
      setCvdSafe: (cvdSafe) => set({ cvdSafe }),
      // Selecting a market opens it as a tab (or activates its tab); the oldest tabs fall off past MAX_TABS.
      selectMarket: (conditionId, outcomeIndex = 0) => set((s) => ({ conditionId, outcomeIndex, prefill: null, tabs: withTab(s.tabs, conditionId) })),
      selectOutcome: (outcomeIndex) => set({ outcomeIndex, prefill: null }),
      setBottomTab: (bottomTab) => set({ bottomTab }),
      setSideTab: (sideTab) => set({ sideTab }),
      setPriceStyle: (priceStyle) => set({ priceStyle }),
      prefillTicket: (p) => set((s) => ({ prefill: { ...p, seq: (s.prefill?.seq ?? 0) + 1 } })),
      setMarketFilter: (marketFilter) => set({ marketFilter }),
    }),
    {
      name: 'sandbox-terminal.ui',
      partialize: (s) => ({ conditionId: s.conditionId, outcomeIndex: s.outcomeIndex, bottomTab: s.bottomTab, sideTab: s.sideTab, priceStyle: s.priceStyle, confirmOrders: s.confirmOrders, cvdSafe: s.cvdSafe, favourites: s.favourites, tabs: s.tabs }),
    },
  ),
);
