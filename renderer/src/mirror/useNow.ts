import { useEffect, useState } from 'react';

/** The wall clock, re-rendering every `everyMs`: ages shown on screen keep counting between refetches. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
