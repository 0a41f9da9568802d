/**
 * The small part of Electron's API this app uses, typed here so the main-process and preload logic
 * compile, lint and unit-test without the `electron` package (its binary cannot be installed in every
 * environment). The real module satisfies these interfaces structurally; tests pass fakes.
 */

export interface ElectronEvent {
  preventDefault(): void;
}

export interface ElectronApp {
  whenReady(): Promise<void>;
  getPath(name: 'userData'): string;
  getVersion(): string;
  requestSingleInstanceLock(): boolean;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (e: ElectronEvent) => void): unknown;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'web-contents-created', listener: (e: ElectronEvent, contents: ElectronWebContents) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}

export interface WindowOpenHandlerDetails {
  url: string;
}

export interface ElectronWebContents {
  setWindowOpenHandler(handler: (details: WindowOpenHandlerDetails) => { action: 'deny' | 'allow' }): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (e: ElectronEvent & { url?: string }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (e: ElectronEvent) => void): unknown;
}

export interface BrowserWindowOptions {
  width: number;
  height: number;
  minWidth?: number;
  minHeight?: number;
  title?: string;
  backgroundColor?: string;
  show?: boolean;
  autoHideMenuBar?: boolean;
  webPreferences: {
    preload: string;
    contextIsolation: boolean;
    nodeIntegration: boolean;
    sandbox: boolean;
  };
}

export interface ElectronBrowserWindow {
  readonly webContents: ElectronWebContents;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
  isDestroyed(): boolean;
}

export type BrowserWindowConstructor = new (options: BrowserWindowOptions) => ElectronBrowserWindow;

export interface IpcMainInvokeEvent {
  readonly senderFrame?: { url: string } | null;
}

export interface ElectronIpcMain {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface ElectronShell {
  openExternal(url: string): Promise<void>;
}

export interface ElectronDialog {
  showErrorBox(title: string, content: string): void;
}

export type PermissionRequestHandler = (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void;
export type PermissionCheckHandler = (webContents: unknown, permission: string, requestingOrigin: string) => boolean;

export interface ElectronSession {
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void;
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void;
}

/** Electron's safeStorage: strings encrypted with a key the OS keeps (Keychain, DPAPI, libsecret / kwallet). */
export interface ElectronSafeStorage {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means no keyring was found and the key is a fixed one. */
  getSelectedStorageBackend?(): string;
}

/** What the main process needs from `import('electron')`. */
export interface ElectronMainApi {
  session: { defaultSession: ElectronSession };
  app: ElectronApp;
  BrowserWindow: BrowserWindowConstructor;
  ipcMain: ElectronIpcMain;
  shell: ElectronShell;
  dialog: ElectronDialog;
  safeStorage: ElectronSafeStorage;
}

export interface ElectronContextBridge {
  exposeInMainWorld(apiKey: string, api: unknown): void;
}

export interface ElectronIpcRenderer {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

/** What the preload script needs from `require('electron')`. */
export interface ElectronPreloadApi {
  contextBridge: ElectronContextBridge;
  ipcRenderer: ElectronIpcRenderer;
}
