import { useEffect, useState } from 'react';
import { streamLabel, useStreamHealth } from './streamHealth.js';
import { useLiveStreams } from './useLiveStreams.js';

/** Seconds since the last frame, as the status bar shows it. */
function age(lastMessageAt: number | undefined, now: number): string {
  if (!lastMessageAt) return '–';
  return `${Math.max(0, Math.round((now - lastMessageAt) / 1000))}s`;
}

/**
 * The status-bar stream indicator; mounting it also runs the streams (useLiveStreams), so the terminal
 * streams wherever the status bar is shown.
 */
export function StreamIndicator() {
  useLiveStreams();
  const market = useStreamHealth((s) => s.market);
  const user = useStreamHealth((s) => s.user);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const state = streamLabel(market);
  const dot = state === 'open' ? 'ok' : state === 'off' ? '' : 'bad';
  return (
    <div className="conn stream-conn" data-testid="stream-status" data-state={state} title="Live streams: market channel (book, tape) and user channel (orders, trades)">
      <span className={`dot ${dot}`} /> stream <span data-testid="stream-state">{state}</span>
      <span className="dim">
        {' · '}last <span data-testid="stream-age">{age(market?.lastMessageAt, now)}</span>
        {' · '}reconnects <span data-testid="stream-reconnects">{(market?.reconnects ?? 0) + (user?.reconnects ?? 0)}</span>
        {user ? (
          <>
            {' · '}user <span data-testid="stream-user-state">{user.state}</span>
          </>
        ) : null}
      </span>
    </div>
  );
}
