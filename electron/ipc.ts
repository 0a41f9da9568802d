/**
 * The one IPC contract between the desktop app's main process and the terminal. The preload script
 * exposes `DesktopApi` as `window.desktop`; each method maps to one channel handled in the main process.
 * Keep this file free of imports with runtime effects: the preload bundle and the renderer read it.
 */
import type { ReadyLine } from '../engine/index.js';

/** Channel names, one per request type. */
export const IPC_CHANNELS = {
  getEngineInfo: 'desktop:get-engine-info',
  openExternal: 'desktop:open-external',
  secretStorage: 'desktop:secret-storage',
  encryptSecret: 'desktop:encrypt-secret',
  decryptSecret: 'desktop:decrypt-secret',
} as const;

/** Whether the OS keeps the key that encrypts secrets (safeStorage); `backend` is Linux's choice of store. */
export interface SecretStorageStatus {
  available: boolean;
  backend?: string;
}

/** The largest secret the main process encrypts or decrypts: the wallets' whole persisted state fits easily. */
export const MAX_SECRET_CHARS = 1_000_000;

export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];

/**
 * The engine's ready line (decisions §7) plus what the terminal shows about the desktop shell. Its
 * operatorToken (bearer of the /admin routes) lets the desktop terminal offer its admin panel.
 */
export interface EngineInfo extends ReadyLine {
  appVersion: string;
}

/** Request and response types per channel. */
export interface IpcRequests {
  [IPC_CHANNELS.getEngineInfo]: { args: []; result: EngineInfo };
  [IPC_CHANNELS.openExternal]: { args: [url: string]; result: { opened: boolean } };
  [IPC_CHANNELS.secretStorage]: { args: []; result: SecretStorageStatus };
  [IPC_CHANNELS.encryptSecret]: { args: [plaintext: string]; result: string };
  [IPC_CHANNELS.decryptSecret]: { args: [ciphertext: string]; result: string };
}

/** What the preload exposes on `window.desktop`. */
export interface DesktopApi {
  readonly isDesktop: true;
  getEngineInfo(): Promise<EngineInfo>;
  /** Opens an http(s) link in the system browser; other schemes are refused. */
  openExternal(url: string): Promise<{ opened: boolean }>;
  /** Whether secrets can be encrypted with a key the OS keeps (Keychain, DPAPI, libsecret/kwallet). */
  secretStorage(): Promise<SecretStorageStatus>;
  /** Encrypts with Electron's safeStorage in the main process; answers base64 ciphertext. */
  encryptSecret(plaintext: string): Promise<string>;
  /** Decrypts what encryptSecret answered. */
  decryptSecret(ciphertext: string): Promise<string>;
}

export const DESKTOP_GLOBAL = 'desktop';

/** Only web links leave the app: file:, javascript: and custom schemes could run code. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
