import { useState } from 'react';
import { useAccount, useConnect, useDisconnect } from 'wagmi';
import { Panel } from '../components/Panel.js';
import { ErrorLine } from '../components/ErrorLine.js';
import { useBalance, useSession } from '../api/hooks.js';
import { useWallets } from '../wallets/walletStore.js';
import { hasInjectedProvider } from '../wallets/wagmiConfig.js';
import { baseUnitsToDisplay, shortAddress } from '../format.js';

export function WalletPanel() {
  const burners = useWallets((s) => s.burners);
  const selection = useWallets((s) => s.selection);
  const select = useWallets((s) => s.select);
  const createBurner = useWallets((s) => s.createBurner);
  const importBurner = useWallets((s) => s.importBurner);
  const removeBurner = useWallets((s) => s.removeBurner);
  const session = useSession();
  const balance = useBalance(session.trader);
  const injected = useAccount();
  const { connect, connectors, error: connectError, isPending: connecting } = useConnect();
  const { disconnect } = useDisconnect();
  const [importing, setImporting] = useState(false);
  const [importKey, setImportKey] = useState('');
  const [importError, setImportError] = useState<unknown>(null);
  const [reveal, setReveal] = useState(false);

  const selectedBurner = selection?.kind === 'burner' ? burners.find((b) => b.id === selection.id) : undefined;
  const value = selection?.kind === 'injected' ? 'injected' : (selectedBurner?.id ?? '');

  const doImport = () => {
    try {
      importBurner(importKey);
      setImportKey('');
      setImporting(false);
      setImportError(null);
    } catch (e) {
      setImportError(e);
    }
  };

  return (
    <Panel
      title="Wallet"
      className="wallet"
      testId="wallet-panel"
      actions={
        <>
          <button className="ghost" data-testid="wallet-create" onClick={() => createBurner()} title="Generate a new local burner wallet">
            + New
          </button>
          <button className="ghost" data-testid="wallet-import-toggle" onClick={() => setImporting((v) => !v)}>
            Import
          </button>
        </>
      }
    >
      <div className="wallet-select">
        <select
          value={value}
          data-testid="wallet-select"
          aria-label="Wallet"
          onChange={(e) => {
            const v = e.target.value;
            if (v === 'injected') select({ kind: 'injected' });
            else if (v) select({ kind: 'burner', id: v });
            else select(null);
          }}
        >
          <option value="">— no wallet —</option>
          {burners.map((b) => (
            <option key={b.id} value={b.id}>
              {b.label} · {shortAddress(b.address)}
            </option>
          ))}
          {hasInjectedProvider() ? <option value="injected">Injected wallet {injected.address ? `· ${shortAddress(injected.address)}` : ''}</option> : null}
        </select>
      </div>

      {importing ? (
        <div className="import-row">
          <input
            type="password"
            placeholder="0x… private key (64 hex)"
            value={importKey}
            data-testid="wallet-import-input"
            onChange={(e) => setImportKey(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && doImport()}
          />
          <button data-testid="wallet-import-submit" onClick={doImport}>
            Import
          </button>
          <ErrorLine error={importError} />
        </div>
      ) : null}

      {selection?.kind === 'injected' && !injected.isConnected ? (
        <div className="connect-row">
          {connectors.map((c) => (
            <button key={c.uid} disabled={connecting} onClick={() => connect({ connector: c })}>
              Connect {c.name}
            </button>
          ))}
          <ErrorLine error={connectError} />
        </div>
      ) : null}

      {session.address ? (
        <dl className="kv">
          <div>
            <dt>Address</dt>
            <dd className="mono" data-testid="wallet-address" data-address={session.address}>
              {session.address}
            </dd>
          </div>
          <div>
            <dt>Collateral</dt>
            <dd data-testid="wallet-balance">
              {session.trader?.hasCredentials ? (
                balance.data ? (
                  <>
                    <b>{baseUnitsToDisplay(balance.data.balance)}</b>
                    {balance.data.reserved && balance.data.reserved !== '0' ? (
                      <span className="dim"> · {baseUnitsToDisplay(balance.data.reserved)} reserved</span>
                    ) : null}
                  </>
                ) : balance.error ? (
                  <ErrorLine error={balance.error} />
                ) : (
                  '…'
                )
              ) : (
                <span className="dim">needs an API key</span>
              )}
            </dd>
          </div>
        </dl>
      ) : (
        <div className="hint">Create a burner wallet (+ New) to start trading with paper money.</div>
      )}

      {selectedBurner ? (
        <div className="wallet-tools">
          <button className="ghost small" onClick={() => setReveal((v) => !v)}>
            {reveal ? 'Hide key' : 'Show key'}
          </button>
          <button
            className="ghost small danger"
            onClick={() => {
              if (confirm(`Remove ${selectedBurner.label}? Its private key is lost unless you copied it.`)) removeBurner(selectedBurner.id);
            }}
          >
            Remove
          </button>
          {reveal ? <code className="secret" data-testid="wallet-private-key">{selectedBurner.privateKey}</code> : null}
          <div className="dim tiny">Burner keys are stored encrypted (OS keychain in the desktop app, a non-extractable device key in a browser); lock them with a passphrase under Keys. Paper money only.</div>
        </div>
      ) : null}
      {selection?.kind === 'injected' && injected.isConnected ? (
        <button className="ghost small" onClick={() => disconnect()}>
          Disconnect
        </button>
      ) : null}
    </Panel>
  );
}
