import { useEffect, useState } from 'react';
import { useSession } from '../api/hooks.js';
import { shortAddress } from '../format.js';
import { useWallets, type StoredCredentials } from '../wallets/walletStore.js';
import { seal, unseal, type SealedBlob } from './keyVault.js';
import { secretBox, type SecretBox } from './secretBox.js';
import { importSecret } from './secretImport.js';
import { ApiKeyLabels } from './ApiKeyLabels.js';
import './keys.css';

const VAULT_KEY = 'sandbox-terminal.vault';

/** What the passphrase lock seals: the wallets' keys and their API credentials. */
interface LockedVault {
  wallets: Array<{ label: string; privateKey: string }>;
  credentials: Record<string, StoredCredentials[]>;
  activeKey: Record<string, string>;
}

function readVault(): SealedBlob | undefined {
  const text = localStorage.getItem(VAULT_KEY);
  return text ? (JSON.parse(text) as SealedBlob) : undefined;
}

/**
 * Keys and wallets: import a private key or a mnemonic with a label, switch between wallets, see who
 * signs and funds orders, and lock the wallets' keys and API credentials behind a passphrase (AES-GCM) on
 * top of the sealing every stored secret gets (secretBox.ts: OS keychain in the desktop app, else a device key).
 */
export function KeysPanel() {
  const session = useSession();
  const burners = useWallets((s) => s.burners);
  const selection = useWallets((s) => s.selection);
  const select = useWallets((s) => s.select);
  const importBurner = useWallets((s) => s.importBurner);
  const removeBurner = useWallets((s) => s.removeBurner);
  const [secret, setSecret] = useState('');
  const [label, setLabel] = useState('');
  const [index, setIndex] = useState('0');
  const [passphrase, setPassphrase] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [sealed, setSealed] = useState<SealedBlob | undefined>(() => readVault());
  const [busy, setBusy] = useState(false);
  const [atRest, setAtRest] = useState<SecretBox['kind'] | undefined>();
  useEffect(() => {
    void secretBox().then((b) => setAtRest(b.kind), () => undefined);
  }, []);

  const doImport = () => {
    try {
      const s = importSecret(secret, Number(index) || 0);
      const w = importBurner(s.privateKey, label || undefined);
      setSecret('');
      setLabel('');
      setMessage({ ok: true, text: `Imported ${w.label} (${shortAddress(w.address)}) from a ${s.kind === 'mnemonic' ? 'mnemonic' : 'private key'}.` });
    } catch (e) {
      setMessage({ ok: false, text: (e as Error).message });
    }
  };

  const lock = async () => {
    setBusy(true);
    try {
      // The wallets' API credentials (secret, passphrase) are locked with their keys, not left behind.
      const { credentials, activeKey } = useWallets.getState();
      const addresses = burners.map((b) => b.address.toLowerCase());
      const locked: LockedVault = {
        wallets: burners.map((b) => ({ label: b.label, privateKey: b.privateKey })),
        credentials: Object.fromEntries(addresses.filter((a) => credentials[a]).map((a) => [a, credentials[a]!])),
        activeKey: Object.fromEntries(addresses.filter((a) => activeKey[a]).map((a) => [a, activeKey[a]!])),
      };
      const blob = await seal(JSON.stringify(locked), passphrase);
      localStorage.setItem(VAULT_KEY, JSON.stringify(blob));
      for (const b of burners) removeBurner(b.id);
      useWallets.setState((st) => ({
        credentials: Object.fromEntries(Object.entries(st.credentials).filter(([a]) => !addresses.includes(a))),
        activeKey: Object.fromEntries(Object.entries(st.activeKey).filter(([a]) => !addresses.includes(a))),
      }));
      setSealed(blob);
      setPassphrase('');
      setMessage({ ok: true, text: `Locked ${burners.length} wallet(s): only the encrypted blob is stored now.` });
    } catch (e) {
      setMessage({ ok: false, text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const unlock = async () => {
    if (!sealed) return;
    setBusy(true);
    try {
      const opened = JSON.parse(await unseal(sealed, passphrase)) as LockedVault | LockedVault['wallets'];
      // Vaults locked before API credentials were included are a bare list of wallets.
      const vault: LockedVault = Array.isArray(opened) ? { wallets: opened, credentials: {}, activeKey: {} } : opened;
      useWallets.setState((st) => ({ credentials: { ...st.credentials, ...vault.credentials }, activeKey: { ...st.activeKey, ...vault.activeKey } }));
      const wallets = vault.wallets;
      for (const w of wallets) importBurner(w.privateKey, w.label);
      localStorage.removeItem(VAULT_KEY);
      setSealed(undefined);
      setPassphrase('');
      setMessage({ ok: true, text: `Unlocked ${wallets.length} wallet(s).` });
    } catch (e) {
      setMessage({ ok: false, text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel keys-panel" data-testid="keys-panel">
      <header className="panel-head">
        <h2>Keys &amp; wallets</h2>
      </header>
      <div className="panel-body">
        {burners.length > 0 ? (
          <ul className="keys-wallets" aria-label="Wallets">
            {burners.map((b) => {
              const on = selection?.kind === 'burner' && selection.id === b.id;
              return (
                <li key={b.id}>
                  <button className={on ? 'on' : ''} aria-pressed={on} data-testid="keys-wallet" data-address={b.address} onClick={() => select({ kind: 'burner', id: b.id })}>
                    {b.label} · {shortAddress(b.address)}
                  </button>
                </li>
              );
            })}
          </ul>
        ) : null}
        {session.address ? (
          <dl className="keys-identity" data-testid="keys-identity">
            <dt>Signer</dt>
            <dd title={session.address}>{shortAddress(session.address)}</dd>
            <dt>Funder</dt>
            <dd title={session.address}>{shortAddress(session.address)} (the same key: it holds the paper USDC)</dd>
            <dt>Signature type</dt>
            <dd data-testid="keys-sigtype">0 · EOA: the wallet signs and funds its own orders</dd>
          </dl>
        ) : null}
        <ApiKeyLabels />
        <details data-testid="keys-import">
          <summary>Import a private key or mnemonic</summary>
          <textarea aria-label="Private key or mnemonic" data-testid="keys-secret" rows={2} value={secret} onChange={(e) => setSecret(e.target.value)} placeholder="0x… private key, or 12–24 words" />
          <div className="keys-row">
            <input aria-label="Label" data-testid="keys-label" value={label} onChange={(e) => setLabel(e.target.value)} placeholder="Label" />
            <input aria-label="Account index (mnemonic)" data-testid="keys-index" value={index} onChange={(e) => setIndex(e.target.value)} size={3} inputMode="numeric" />
            <button data-testid="keys-import-submit" disabled={!secret.trim()} onClick={doImport}>
              Import
            </button>
          </div>
        </details>
        <div className="keys-row">
          <input type="password" aria-label="Passphrase" data-testid="keys-passphrase" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} placeholder="Passphrase" />
          {sealed ? (
            <button data-testid="keys-unlock" disabled={busy || !passphrase} onClick={() => void unlock()}>
              Unlock wallets
            </button>
          ) : (
            <button data-testid="keys-lock" disabled={busy || !passphrase || burners.length === 0} onClick={() => void lock()} title="Encrypt the wallets' keys and their API credentials with this passphrase and keep only the ciphertext">
              Lock wallets
            </button>
          )}
        </div>
        {atRest ? (
          <p className="dim" data-testid="keys-at-rest" data-kind={atRest}>
            At rest: keys and API secrets are encrypted {atRest === 'os-keychain' ? 'with the OS keychain (Electron safeStorage)' : 'with this browser profile’s non-extractable key'}
            {sealed ? '' : '; a passphrase lock adds a key only you know'}.
          </p>
        ) : null}
        {sealed ? <p className="dim" data-testid="keys-locked">Wallets locked: keys and API credentials stored encrypted (AES-GCM, PBKDF2 {sealed.iterations.toLocaleString()} rounds).</p> : null}
        {message ? (
          <p className={message.ok ? 'dim' : 'down'} data-testid={message.ok ? 'keys-message' : 'keys-error'}>
            {message.text}
          </p>
        ) : null}
      </div>
    </section>
  );
}
