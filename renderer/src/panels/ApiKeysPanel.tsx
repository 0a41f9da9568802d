import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Panel } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { traderKey, useSession } from '../api/hooks.js';
import { useWallets } from '../wallets/walletStore.js';
import type { ApiKeyCreds } from '../api/types.js';
import { describeError } from '../api/describeError.js';
import { useEngineBack } from '../api/engineState.js';

export function ApiKeysPanel() {
  const session = useSession();
  const qc = useQueryClient();
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const addCredentials = useWallets((s) => s.addCredentials);
  const forget = useWallets((s) => s.forgetCredentials);
  const setActive = useWallets((s) => s.setActiveKey);
  const [fresh, setFresh] = useState<ApiKeyCreds | null>(null);
  const address = session.address?.toLowerCase();
  const local = address ? (credentials[address] ?? []) : [];

  const keys = useQuery({
    queryKey: traderKey(session.trader, 'api-keys'),
    queryFn: () => session.trader!.apiKeys(),
    enabled: !!session.trader?.hasCredentials,
  });

  const create = useMutation({
    mutationFn: () => session.trader!.createApiKey(),
    onSuccess: (creds) => {
      addCredentials(session.address!, creds);
      setFresh(creds);
      void qc.invalidateQueries({ queryKey: ['trader'] });
    },
  });

  const revoke = useMutation({
    mutationFn: async (creds: ApiKeyCreds) => {
      await session.trader!.revokeApiKey(creds);
      return creds.key;
    },
    onSuccess: (key) => {
      forget(session.address!, key);
      if (fresh?.key === key) setFresh(null);
      void qc.invalidateQueries({ queryKey: ['trader'] });
    },
  });

  // A network error is over once the engine answers again; the key list refetches by itself.
  useEngineBack(() => {
    if (create.error && describeError(create.error).code === 'network_error') create.reset();
    if (revoke.error && describeError(revoke.error).code === 'network_error') revoke.reset();
  });

  const serverKeys = keys.data ?? [];
  const localKeys = new Set(local.map((c) => c.key));
  const all = [...new Set([...local.map((c) => c.key), ...serverKeys])];

  return (
    <Panel
      title="API keys"
      className="apikeys"
      testId="apikeys-panel"
      actions={
        <button data-testid="apikey-create" disabled={!session.trader || create.isPending} onClick={() => create.mutate()} title="Sign the L1 auth message and create a key">
          {create.isPending ? 'Signing…' : '+ Create key'}
        </button>
      }
    >
      {!session.account ? <div className="hint">Select a wallet first.</div> : null}
      <ErrorLine error={create.error} testId="apikey-error" />
      <ErrorLine error={revoke.error} />
      {keys.error ? <ErrorLine error={keys.error} prefix="listing keys:" /> : null}
      {fresh ? (
        <div className="fresh-key" data-testid="apikey-fresh">
          <div className="dim tiny">The server shows the secret and passphrase once. This terminal keeps them for this wallet.</div>
          <code>key {fresh.key}</code>
          <code>secret {fresh.secret}</code>
          <code>passphrase {fresh.passphrase}</code>
          <button className="ghost small" onClick={() => setFresh(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {all.length === 0 && session.account ? <div className="hint">No API key yet: create one to trade.</div> : null}
      <ul className="key-list">
        {all.map((key) => {
          const creds = local.find((c) => c.key === key);
          const onServer = keys.data ? serverKeys.includes(key) : undefined;
          const isActive = address ? activeKey[address] === key || (!activeKey[address] && local[0]?.key === key) : false;
          return (
            <li key={key} className={isActive ? 'active' : ''} data-testid="apikey-row" data-key={key}>
              <span className="mono">{key}</span>
              <span className="key-flags">
                {isActive ? <span className="badge ok">TRADING</span> : null}
                {!localKeys.has(key) ? <span className="badge dim" title="Created elsewhere: this terminal has no secret for it">REMOTE</span> : null}
                {onServer === false ? <span className="badge warn" title="The exchange does not know this key (revoked or a reset data directory)">UNKNOWN</span> : null}
              </span>
              <span className="key-actions">
                {creds && !isActive ? (
                  <button className="ghost small" onClick={() => setActive(session.address!, key)}>
                    Use
                  </button>
                ) : null}
                {creds ? (
                  <button className="ghost small danger" data-testid="apikey-revoke" disabled={revoke.isPending} onClick={() => revoke.mutate(creds)}>
                    Revoke
                  </button>
                ) : null}
                {creds && onServer === false ? (
                  <button className="ghost small" onClick={() => forget(session.address!, key)}>
                    Forget
                  </button>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
