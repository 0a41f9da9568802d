import { useEffect, useRef } from 'react';
import { onlineManager } from '@tanstack/react-query';
import { create } from 'zustand';

/**
 * Whether the engine answers, as GET /ok last said. While it is down TanStack Query is told the network
 * is offline, so every other query pauses instead of failing once a second (150 console errors in 15 s);
 * when it answers again they refetch at once (refetchOnReconnect) and the error lines clear.
 */
interface EngineState {
  down: boolean;
  /** Failed health checks in a row. */
  failures: number;
  /** Times the engine came back after being down: components reset their own network errors on it. */
  comebacks: number;
}

export const useEngineState = create<EngineState>(() => ({ down: false, failures: 0, comebacks: 0 }));

export function healthFailed(): void {
  useEngineState.setState((s) => ({ down: true, failures: s.failures + 1 }));
  onlineManager.setOnline(false);
}

export function healthAnswered(): void {
  const s = useEngineState.getState();
  if (s.down) useEngineState.setState({ down: false, failures: 0, comebacks: s.comebacks + 1 });
  onlineManager.setOnline(true);
}

export const HEALTH_POLL_MS = 2000;
export const HEALTH_POLL_MAX_MS = 8000;

/** GET /ok's interval: every 2 s while the engine answers; while down 2, 4, 8, 8… s. */
export function healthPollMs(failures = useEngineState.getState().failures): number {
  return failures === 0 ? HEALTH_POLL_MS : Math.min(HEALTH_POLL_MS * 2 ** (failures - 1), HEALTH_POLL_MAX_MS);
}

/** Runs `fn` each time the engine comes back after being down (not on mount). */
export function useEngineBack(fn: () => void): void {
  const comebacks = useEngineState((s) => s.comebacks);
  const seen = useRef(comebacks);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    if (comebacks === seen.current) return;
    seen.current = comebacks;
    latest.current();
  }, [comebacks]);
}
