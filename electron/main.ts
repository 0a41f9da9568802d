import { join } from 'node:path';
import type { Engine, EngineConfig, ReadyLine } from '../engine/index.js';
import type { ElectronBrowserWindow, ElectronEvent, ElectronMainApi, ElectronSafeStorage, ElectronSession, IpcMainInvokeEvent } from './electronApi.js';
import { IPC_CHANNELS, MAX_SECRET_CHARS, isSafeExternalUrl, type EngineInfo, type SecretStorageStatus } from './ipc.js';
import { pickPort } from './stablePort.js';

export interface RunMainOptions {
  /** Defaults to the engine's public entry, loaded lazily so tests never load the engine. */
  createEngine?: (partial: Partial<EngineConfig>) => Promise<Engine>;
  /** Absolute path of the bundled preload script (dist/electron/preload.cjs). */
  preloadPath: string;
  /** Engine settings on top of the desktop defaults (loopback, stable port, data dir under userData). */
  engineConfig?: Partial<EngineConfig>;
  /** Chooses the listening port; defaults to the stable terminal port when free (see stablePort.ts). */
  choosePort?: () => Promise<number>;
  log?: (message: string) => void;
}

export interface MainHandle {
  readonly info: EngineInfo;
  /** The terminal's URL: the engine serves the renderer's web build at /app/. */
  readonly appUrl: string;
  window(): ElectronBrowserWindow | undefined;
}

/** The desktop app keeps its exchange inside Electron's per-user directory. */
export function desktopDataDir(userData: string): string {
  return join(userData, 'exchange');
}

/** Only the terminal page served by our own engine may ask for the operator token. */
/**
 * Permissions the terminal page may have: writing the clipboard (the "copy API secret" button), from
 * the terminal's own origin. Everything else (camera, microphone, geolocation, notifications, HID,
 * serial, …) is denied, for every origin: a page the window should never show gets nothing either.
 */
export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function permissionAllowed(permission: string, origin: string | undefined, trustedOrigin: string | undefined): boolean {
  if (!trustedOrigin || !origin || !GRANTED_PERMISSIONS.has(permission)) return false;
  try {
    return new URL(origin).origin === trustedOrigin;
  } catch {
    return false;
  }
}

/** Electron grants every permission request unless a handler says otherwise: deny by default. */
export function denyPermissionsByDefault(session: ElectronSession, trustedOrigin: () => string | undefined): void {
  session.setPermissionRequestHandler((_wc, permission, callback, details) => callback(permissionAllowed(permission, details.requestingUrl, trustedOrigin())));
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin) => permissionAllowed(permission, requestingOrigin, trustedOrigin()));
}

export function isTrustedSender(event: IpcMainInvokeEvent, tradingUrl: string): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && url.startsWith(`${tradingUrl}/app/`);
}

/**
 * safeStorage is usable when the OS keeps its key. On Linux without a keyring Electron falls back to
 * 'basic_text', a key built into Chromium: that is obfuscation, not encryption, so it counts as unavailable
 * (the terminal then keeps its own key, see renderer/src/keys/secretBox.ts).
 */
export function secretStorageStatus(safe: ElectronSafeStorage): SecretStorageStatus {
  const backend = safe.getSelectedStorageBackend?.();
  const available = safe.isEncryptionAvailable() && backend !== 'basic_text' && backend !== 'unknown';
  return backend === undefined ? { available } : { available, backend };
}

/** The secret-storage channels: encrypt/decrypt strings for the terminal page only, with safeStorage. */
export function handleSecretStorage(electron: Pick<ElectronMainApi, 'ipcMain' | 'safeStorage'>, trusted: (event: IpcMainInvokeEvent) => boolean): void {
  const { ipcMain, safeStorage } = electron;
  const check = (event: IpcMainInvokeEvent, what: string, value: unknown): string => {
    if (!trusted(event)) throw new Error(`${what} is only answered to the terminal page`);
    if (typeof value !== 'string' || value.length > MAX_SECRET_CHARS) throw new Error(`${what} takes a string of at most ${MAX_SECRET_CHARS} characters`);
    if (!secretStorageStatus(safeStorage).available) throw new Error(`${what}: the OS offers no secret storage (safeStorage is unavailable)`);
    return value;
  };
  ipcMain.handle(IPC_CHANNELS.secretStorage, (event) => {
    if (!trusted(event)) throw new Error('secretStorage is only answered to the terminal page');
    return secretStorageStatus(safeStorage);
  });
  ipcMain.handle(IPC_CHANNELS.encryptSecret, (event, plaintext) => safeStorage.encryptString(check(event, 'encryptSecret', plaintext)).toString('base64'));
  ipcMain.handle(IPC_CHANNELS.decryptSecret, (event, ciphertext) => safeStorage.decryptString(Buffer.from(check(event, 'decryptSecret', ciphertext), 'base64')));
}

/**
 * The main process: start the engine on loopback, open the terminal on it, answer the IPC contract,
 * and close the engine (chain process and database included) before the app exits.
 * Returns undefined when another instance already owns the app (one engine per data directory).
 */
export async function runMain(electron: ElectronMainApi, opts: RunMainOptions): Promise<MainHandle | undefined> {
  const { app, BrowserWindow, ipcMain, shell, dialog, session } = electron;
  const log = opts.log ?? ((m: string) => console.log(m));

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }

  let engine: Engine | undefined;
  let win: ElectronBrowserWindow | undefined;
  let engineClosed = false;
  let closing = false;

  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  // Every webContents the app ever creates (the window, a devtools or popup one, anything later) shows
  // the terminal only: new windows are denied (web links open in the system browser), navigations and
  // server redirects away from it are stopped, and no <webview> attaches. Until the engine is up there
  // is no terminal URL, so nothing may navigate at all.
  const terminal: { url?: string } = {};
  const stayOnTerminal = (e: ElectronEvent & { url?: string }, legacyUrl: string, redirect: boolean): void => {
    const url = typeof legacyUrl === 'string' ? legacyUrl : String(e.url ?? '');
    if (terminal.url !== undefined && url.startsWith(terminal.url)) return;
    e.preventDefault();
    if (!redirect && isSafeExternalUrl(url)) void shell.openExternal(url);
  };
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isSafeExternalUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (e, url) => stayOnTerminal(e, url, false));
    contents.on('will-redirect', (e, url) => stayOnTerminal(e, url, true));
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (e) => {
    // Hold the quit until the engine has flushed its writes and stopped the chain, then quit again.
    if (!engine || engineClosed) return;
    e.preventDefault();
    if (closing) return;
    closing = true;
    engine
      .close()
      .catch((err: unknown) => log(`engine shutdown failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        engineClosed = true;
        app.quit();
      });
  });

  await app.whenReady();
  // Installed before the engine (and so the window's origin) exists: nothing is granted until it does.
  const trusted: { origin?: string } = {};
  denyPermissionsByDefault(session.defaultSession, () => trusted.origin);

  let ready: ReadyLine;
  try {
    const create = opts.createEngine ?? (await import('../engine/index.js')).createEngine;
    engine = await create({
      dataDir: desktopDataDir(app.getPath('userData')),
      host: '127.0.0.1',
      port: await (opts.choosePort ?? pickPort)(),
      ...opts.engineConfig,
    });
    ready = await engine.listen();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    dialog.showErrorBox('The exchange engine could not start', `${message}\n\nThe data directory is ${desktopDataDir(app.getPath('userData'))}.`);
    if (engine) await engine.close().catch(() => undefined);
    engineClosed = true;
    app.exit(1);
    return undefined;
  }
  trusted.origin = new URL(ready.trading).origin;
  // The operator token goes to the terminal over IPC only; logs are kept and shared, so it is never logged.
  log(JSON.stringify({ ...ready, operatorToken: '(not logged)' }));

  const info: EngineInfo = { ...ready, appVersion: app.getVersion() };
  const terminalUrl = `${ready.trading}/app/`;
  terminal.url = terminalUrl;

  ipcMain.handle(IPC_CHANNELS.getEngineInfo, (event) => {
    if (!isTrustedSender(event, ready.trading)) throw new Error('getEngineInfo is only answered to the terminal page');
    return info;
  });
  ipcMain.handle(IPC_CHANNELS.openExternal, async (event, url) => {
    if (!isTrustedSender(event, ready.trading)) throw new Error('openExternal is only answered to the terminal page');
    if (typeof url !== 'string' || !isSafeExternalUrl(url)) return { opened: false };
    await shell.openExternal(url);
    return { opened: true };
  });

  handleSecretStorage(electron, (event) => isTrustedSender(event, ready.trading));

  const openWindow = (): ElectronBrowserWindow => {
    const w = new BrowserWindow({
      width: 1480,
      height: 920,
      minWidth: 1024,
      minHeight: 640,
      title: 'Sandbox Exchange',
      backgroundColor: '#0b0e14',
      show: false,
      autoHideMenuBar: true,
      webPreferences: { preload: opts.preloadPath, contextIsolation: true, nodeIntegration: false, sandbox: true },
    });
    // Its webContents got the navigation guards from the web-contents-created handler above.
    w.once('ready-to-show', () => w.show());
    void w.loadURL(terminalUrl);
    return w;
  };

  win = openWindow();
  app.on('activate', () => {
    if (!win || win.isDestroyed()) win = openWindow();
  });

  return { info, appUrl: terminalUrl, window: () => win };
}
