import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { useSession } from '../api/hooks.js';
import type { ApiKeyCreds } from '../api/types.js';
import { useWallets } from '../wallets/walletStore.js';

const useKeyLabels = create<{ labels: Record<string, string>; setLabel(key: string, label: string): void }>()(
  persist((set) => ({ labels: {}, setLabel: (key, label) => set((s) => ({ labels: { ...s.labels, [key]: label } })) }), { name: 'sandbox-terminal.key-labels' }),
);

/**
 * The wallet's API keys with labels, which one trades, and a new key whose secret is shown once, with
 * a copy button, and then never again on screen.
 */
export function ApiKeyLabels() {
  const session = useSession();
  const qc = useQueryClient();
  const credentials = useWallets((s) => s.credentials);
  const activeKey = useWallets((s) => s.activeKey);
  const addCredentials = useWallets((s) => s.addCredentials);
  const setActive = useWallets((s) => s.setActiveKey);
  const labels = useKeyLabels((s) => s.labels);
  const setLabel = useKeyLabels((s) => s.setLabel);
  const [fresh, setFresh] = useState<ApiKeyCreds | null>(null);
  const [copied, setCopied] = useState(false);
  const address = session.address?.toLowerCase();
  const list = address ? (credentials[address] ?? []) : [];

  const create = useMutation({
    mutationFn: () => session.trader!.createApiKey(),
    onSuccess: (creds) => {
      addCredentials(session.address!, creds);
      setFresh(creds);
      setCopied(false);
      void qc.invalidateQueries({ queryKey: ['trader'] });
    },
  });

  if (!address) return null;
  return (
    <div className="keys-api" data-testid="keys-api">
      <div className="keys-row">
        <b>API keys</b>
        <button data-testid="keys-api-create" disabled={!session.trader || create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? 'Signing…' : 'New key'}
        </button>
      </div>
      {fresh ? (
        <div className="keys-fresh" data-testid="keys-fresh-secret" role="alert">
          <p>Secret of key {fresh.key.slice(0, 8)}… — shown once. Copy it now if a bot needs it.</p>
          <code data-testid="keys-secret-value">{fresh.secret}</code>
          <div className="keys-row">
            <button
              data-testid="keys-secret-copy"
              onClick={() =>
                void navigator.clipboard.writeText(JSON.stringify({ key: fresh.key, secret: fresh.secret, passphrase: fresh.passphrase })).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy key, secret and passphrase'}
            </button>
            <button data-testid="keys-secret-hide" onClick={() => setFresh(null)}>
              Done, hide it
            </button>
          </div>
        </div>
      ) : null}
      <ul className="keys-api-list">
        {list.map((c) => (
          <li key={c.key} data-testid="keys-api-row" data-key={c.key}>
            <input aria-label={`Label of key ${c.key}`} data-testid="keys-api-label" value={labels[c.key] ?? ''} placeholder={c.key.slice(0, 8)} onChange={(e) => setLabel(c.key, e.target.value)} />
            {activeKey[address] === c.key || (!activeKey[address] && list[0]?.key === c.key) ? (
              <span className="badge ok">TRADING</span>
            ) : (
              <button data-testid="keys-api-use" onClick={() => setActive(address, c.key)}>
                Use
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
