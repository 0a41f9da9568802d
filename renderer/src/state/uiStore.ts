import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { Side } from '../../../engine/protocol/eip712.js';

export type BottomTab = 'orders' | 'trades' | 'positions' | 'holders' | 'relayer' | 'admin';

/** A price/size the user clicked in the book, pushed into the order ticket. */
export interface TicketPrefill {
  side: Side;
  price: string;
  size?: string;
  /** Changes on every click so the same level clicked twice still refills the ticket. */
  seq: number;
}

interface UiState {
  conditionId: string | null;
  outcomeIndex: number;
  bottomTab: BottomTab;
  prefill: TicketPrefill | null;
  marketFilter: string;
  /** Ask before sending an order (on by default, issue 14 defect 3). */
  confirmOrders: boolean;
  /** Colour-vision-safe palette (blue/orange instead of green/red). */
  cvdSafe: boolean;
  setConfirmOrders(on: boolean): void;
  setCvdSafe(on: boolean): void;
  selectMarket(conditionId: string, outcomeIndex?: number): void;
  selectOutcome(outcomeIndex: number): void;
  setBottomTab(tab: BottomTab): void;
  prefillTicket(p: Omit<TicketPrefill, 'seq'>): void;
  setMarketFilter(text: string): void;
}

/** UI selections only: server state lives in TanStack Query, wallets in walletStore. */
export const useUi = create<UiState>()(
  persist(
    (set) => ({
      conditionId: null,
      outcomeIndex: 0,
      bottomTab: 'orders',
      prefill: null,
      marketFilter: '',
      confirmOrders: true,
      cvdSafe: false,
      setConfirmOrders: (confirmOrders) => set({ confirmOrders }),
      setCvdSafe: (cvdSafe) => set({ cvdSafe }),
      selectMarket: (conditionId, outcomeIndex = 0) => set({ conditionId, outcomeIndex, prefill: null }),
      selectOutcome: (outcomeIndex) => set({ outcomeIndex, prefill: null }),
      setBottomTab: (bottomTab) => set({ bottomTab }),
      prefillTicket: (p) => set((s) => ({ prefill: { ...p, seq: (s.prefill?.seq ?? 0) + 1 } })),
      setMarketFilter: (marketFilter) => set({ marketFilter }),
    }),
    {
      name: 'sandbox-terminal.ui',
      partialize: (s) => ({ conditionId: s.conditionId, outcomeIndex: s.outcomeIndex, bottomTab: s.bottomTab, confirmOrders: s.confirmOrders, cvdSafe: s.cvdSafe }),
    },
  ),
);
