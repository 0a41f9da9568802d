import { chainName } from '../format.js';
import { useEngineHealth, useExchangeConfig } from '../api/hooks.js';
import { describeError } from '../api/describeError.js';
import { currentRateUse, useRateLimitStore } from '../api/rateLimitUse.js';

/**
 * The bottom status bar. Rate-limit use comes from the answers' X-RateLimit-* headers. Engine health comes from GET /ok every 2 s, so a stopped engine turns the dot
 * red within seconds (defect 1). `data-slot="stream-status"` is where the streams' indicator mounts.
 */
export function StatusBar() {
  const health = useEngineHealth();
  const config = useExchangeConfig();
  const up = health.isSuccess && !health.isError;
  // Re-rendered by the 2 s health poll, so readings older than their window drop out on their own.
  const rate = currentRateUse(Object.values(useRateLimitStore((s) => s.readings)), Date.now());
  const age = health.dataUpdatedAt ? Math.max(0, Math.round((Date.now() - health.dataUpdatedAt) / 1000)) : undefined;
  return (
    <footer className="statusbar" data-testid="status-bar">
      <span className="conn" data-testid="status-engine" data-state={health.isError ? 'down' : up ? 'up' : 'connecting'}>
        <span className={`dot ${health.isError ? 'bad' : up ? 'ok' : ''}`} />
        {health.isError ? `engine down · ${describeError(health.error).code}` : up ? 'engine up' : 'connecting…'}
      </span>
      {config.data ? (
        <span className="dim" title={`chain id ${config.data.chainId}`}>
          {chainName(config.data.chainId, config.data.rpcUrl)}
        </span>
      ) : null}
      <span className="dim" data-slot="stream-status" />
      {rate ? (
        <span
          className={`ratelimit ${rate.warn ? 'warn' : ''}`}
          data-testid="status-ratelimit"
          data-level={rate.warn ? 'warn' : 'ok'}
          title="Requests in the engine's tightest rate-limit window for this client (X-RateLimit-* headers); past the limit requests queue, then 429"
        >
          rate limit: {rate.used}/{rate.limit}
        </span>
      ) : null}
      <span className="spacer" />
      {age !== undefined ? <span className="muted">checked {age}s ago</span> : null}
      <span className="muted">
        <kbd>?</kbd> shortcuts
      </span>
    </footer>
  );
}
