import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex } from '../../../engine/protocol/eip712.js';
import { sealedStorage } from '../keys/sealedStorage.js';
import { boxFor, secretBox } from '../keys/secretBox.js';

/**
 * Local burner wallets: throwaway keys for a paper exchange, and the API credentials of every wallet.
 * Persisted to localStorage SEALED (keys/sealedStorage.ts: the OS keychain in the desktop app, a
 * non-extractable device key in a browser), never in plain text. The injected wallet (window.ethereum)
 * is handled by wagmi.
 */
export interface BurnerWallet {
  id: string;
  label: string;
  address: Address;
  privateKey: Hex;
  createdAt: number;
}

export type WalletSelection = { kind: 'burner'; id: string } | { kind: 'injected' } | null;

/** API credentials as POST /auth/api-key returned them: the secret is shown once, so the terminal keeps it. */
export interface StoredCredentials {
  key: string;
  secret: string;
  passphrase: string;
  createdAt: number;
}

interface WalletState {
  burners: BurnerWallet[];
  selection: WalletSelection;
  /** Per lower-case address: every key this terminal created, newest first. */
  credentials: Record<string, StoredCredentials[]>;
  /** Per lower-case address: the key used to trade. */
  activeKey: Record<string, string>;
  createBurner(label?: string): BurnerWallet;
  importBurner(privateKey: string, label?: string): BurnerWallet;
  removeBurner(id: string): void;
  select(selection: WalletSelection): void;
  addCredentials(address: string, creds: Omit<StoredCredentials, 'createdAt'>): void;
  forgetCredentials(address: string, key: string): void;
  setActiveKey(address: string, key: string): void;
}

const PRIVATE_KEY_RE = /^(0x)?[0-9a-fA-F]{64}$/;

export function normalizePrivateKey(text: string): Hex {
  const t = text.trim();
  if (!PRIVATE_KEY_RE.test(t)) throw new Error('A private key is 64 hex characters, optionally prefixed with 0x.');
  return (t.startsWith('0x') ? t : `0x${t}`).toLowerCase() as Hex;
}

function newId(): string {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}

export const useWallets = create<WalletState>()(
  persist(
    (set, get) => ({
      burners: [],
      selection: null,
      credentials: {},
      activeKey: {},
      createBurner(label) {
        const privateKey = generatePrivateKey();
        const wallet: BurnerWallet = {
          id: newId(),
          label: label?.trim() || `Burner ${get().burners.length + 1}`,
          address: privateKeyToAccount(privateKey).address,
          privateKey,
          createdAt: Date.now(),
        };
        set((s) => ({ burners: [...s.burners, wallet], selection: { kind: 'burner', id: wallet.id } }));
        return wallet;
      },
      importBurner(text, label) {
        const privateKey = normalizePrivateKey(text);
        const address = privateKeyToAccount(privateKey).address;
        const existing = get().burners.find((b) => b.address.toLowerCase() === address.toLowerCase());
        if (existing) {
          set({ selection: { kind: 'burner', id: existing.id } });
          return existing;
        }
        const wallet: BurnerWallet = { id: newId(), label: label?.trim() || `Imported ${get().burners.length + 1}`, address, privateKey, createdAt: Date.now() };
        set((s) => ({ burners: [...s.burners, wallet], selection: { kind: 'burner', id: wallet.id } }));
        return wallet;
      },
      removeBurner(id) {
        set((s) => ({
          burners: s.burners.filter((b) => b.id !== id),
          selection: s.selection?.kind === 'burner' && s.selection.id === id ? null : s.selection,
        }));
      },
      select(selection) {
        set({ selection });
      },
      addCredentials(address, creds) {
        const a = address.toLowerCase();
        set((s) => ({
          credentials: { ...s.credentials, [a]: [{ ...creds, createdAt: Date.now() }, ...(s.credentials[a] ?? []).filter((c) => c.key !== creds.key)] },
          activeKey: { ...s.activeKey, [a]: creds.key },
        }));
      },
      forgetCredentials(address, key) {
        const a = address.toLowerCase();
        set((s) => {
          const rest = (s.credentials[a] ?? []).filter((c) => c.key !== key);
          const activeKey = { ...s.activeKey };
          if (activeKey[a] === key) {
            if (rest[0]) activeKey[a] = rest[0].key;
            else delete activeKey[a];
          }
          return { credentials: { ...s.credentials, [a]: rest }, activeKey };
        });
      },
      setActiveKey(address, key) {
        set((s) => ({ activeKey: { ...s.activeKey, [address.toLowerCase()]: key } }));
      },
    }),
    {
      name: 'sandbox-terminal.wallets',
      version: 1,
      // Async: the store starts empty and fills once the sealed state is opened (a few milliseconds).
      storage: createJSONStorage(() => sealedStorage(secretBox, boxFor, localStorage)),
    },
  ),
);

/** The credentials the terminal trades with for this address, if it has any. */
export function activeCredentials(state: Pick<WalletState, 'credentials' | 'activeKey'>, address: string | undefined): StoredCredentials | undefined {
  if (!address) return undefined;
  const a = address.toLowerCase();
  const list = state.credentials[a] ?? [];
  return list.find((c) => c.key === state.activeKey[a]) ?? list[0];
}
