import { desktopBridge } from '../desktop.js';

/**
 * Encrypts what the terminal keeps at rest (wallet keys, API secrets and passphrases). Two kinds:
 * - 'os-keychain': the desktop app's Electron safeStorage (the key lives in Keychain / DPAPI / libsecret),
 *   reached through the one IPC contract (window.desktop.encryptSecret / decryptSecret);
 * - 'device-key': in a browser (or a desktop without an OS keyring), AES-256-GCM under a NON-EXTRACTABLE
 *   WebCrypto key kept in IndexedDB: the key's bytes can never be read out, so a copy of the profile's
 *   localStorage (a backup, a synced folder, another program reading the files) holds only ciphertext.
 * The passphrase lock (keyVault.ts) adds a key only the user knows on top of either.
 */
export interface SecretBox {
  readonly kind: 'os-keychain' | 'device-key';
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const b64 = (bytes: Uint8Array) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** AES-256-GCM under `key`, a fresh 96-bit IV per message: "iv.ciphertext", both base64. */
export function aesGcmBox(key: CryptoKey, kind: SecretBox['kind'] = 'device-key'): SecretBox {
  return {
    kind,
    async seal(plaintext) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: iv as BufferSource }, key, enc.encode(plaintext)));
      return `${b64(iv)}.${b64(ct)}`;
    },
    async open(sealed) {
      const [iv, ct] = sealed.split('.');
      if (!iv || !ct) throw new Error('The stored secrets are not in the sealed format.');
      try {
        return dec.decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: unb64(iv) as BufferSource }, key, unb64(ct) as BufferSource));
      } catch {
        throw new Error('The stored secrets cannot be decrypted with this browser profile’s key (was its site data partly cleared?).');
      }
    },
  };
}

export function newDeviceKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

const DB = 'sandbox-terminal.keys';
const STORE = 'keys';
const DEVICE_KEY = 'device';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** This profile's device key from IndexedDB, created (non-extractable) on first use; another tab's key wins a race. */
async function deviceKey(): Promise<CryptoKey> {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await request(open);
  try {
    const existing = (await request(db.transaction(STORE).objectStore(STORE).get(DEVICE_KEY))) as CryptoKey | undefined;
    if (existing) return existing;
    const fresh = await newDeviceKey();
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const raced = (await request(store.get(DEVICE_KEY))) as CryptoKey | undefined;
    if (raced) return raced;
    await request(store.put(fresh, DEVICE_KEY));
    return fresh;
  } finally {
    db.close();
  }
}

export async function deviceKeyBox(): Promise<SecretBox> {
  return aesGcmBox(await deviceKey(), 'device-key');
}

/** The desktop app's safeStorage, when the OS keeps a key for it. */
async function osKeychainBox(): Promise<SecretBox | undefined> {
  const bridge = desktopBridge();
  if (!bridge?.secretStorage || !bridge.encryptSecret || !bridge.decryptSecret) return undefined;
  const status = await bridge.secretStorage().catch(() => ({ available: false }));
  if (!status.available) return undefined;
  const { encryptSecret, decryptSecret } = bridge;
  return { kind: 'os-keychain', seal: (plaintext) => encryptSecret(plaintext), open: (sealed) => decryptSecret(sealed) };
}

let chosen: Promise<SecretBox> | undefined;

/** The box for this profile: the OS keychain in the desktop app, else the device key. Chosen once. */
export function secretBox(): Promise<SecretBox> {
  chosen ??= osKeychainBox().then((box) => box ?? deviceKeyBox());
  return chosen;
}

/** Opens with the box that sealed it: a blob sealed by the other kind is refused with the reason. */
export async function boxFor(kind: SecretBox['kind']): Promise<SecretBox> {
  const box = await secretBox();
  if (box.kind !== kind) {
    if (kind === 'device-key') return deviceKeyBox();
    throw new Error('These secrets were sealed with the desktop app’s OS keychain, which this window cannot reach.');
  }
  return box;
}
