import { useEngineHealth, useExchangeConfig } from '../api/hooks.js';
import { describeError } from '../api/describeError.js';

/**
 * The bottom status bar. Engine health comes from GET /ok every 2 s, so a stopped engine turns the dot
 * red within seconds (defect 1). `data-slot="stream-status"` is where the streams' indicator mounts.
 */
export function StatusBar() {
  const health = useEngineHealth();
  const config = useExchangeConfig();
  const up = health.isSuccess && !health.isError;
  const age = health.dataUpdatedAt ? Math.max(0, Math.round((Date.now() - health.dataUpdatedAt) / 1000)) : undefined;
  return (
    <footer className="statusbar" data-testid="status-bar">
      <span className="conn" data-testid="status-engine" data-state={health.isError ? 'down' : up ? 'up' : 'connecting'}>
        <span className={`dot ${health.isError ? 'bad' : up ? 'ok' : ''}`} />
        {health.isError ? `engine down · ${describeError(health.error).code}` : up ? 'engine up' : 'connecting…'}
      </span>
      {config.data ? <span className="dim">chain {config.data.chainId}{config.data.rpcUrl ? '' : ' · no chain'}</span> : null}
      <span className="dim" data-slot="stream-status" />
      <span className="spacer" />
      {age !== undefined ? <span className="muted">checked {age}s ago</span> : null}
      <span className="muted">
        <kbd>?</kbd> shortcuts
      </span>
    </footer>
  );
}
