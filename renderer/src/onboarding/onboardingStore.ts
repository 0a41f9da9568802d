import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface OnboardingState {
  /** Finished (a first order filled) or skipped: either way it never shows again. */
  finished: 'filled' | 'skipped' | null;
  finish(how: 'filled' | 'skipped'): void;
}

export const useOnboarding = create<OnboardingState>()(
  persist((set) => ({ finished: null, finish: (finished) => set({ finished }) }), { name: 'sandbox-terminal.onboarding' }),
);
