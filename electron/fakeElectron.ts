// Test doubles of the Electron surface in electronApi.ts: they record what the main process and the
// preload do, so their logic is tested without the Electron binary.
import type {
  BrowserWindowOptions,
  ElectronBrowserWindow,
  ElectronEvent,
  ElectronMainApi,
  ElectronPreloadApi,
  ElectronWebContents,
  IpcMainInvokeEvent,
  PermissionCheckHandler,
  PermissionRequestHandler,
  WindowOpenHandlerDetails,
} from './electronApi.js';

type Listener = (...args: never[]) => unknown;

/** A webContents double: its handlers by event; `fire` simulates an event and says whether a listener prevented it. */
export class FakeWebContents implements ElectronWebContents {
  openHandler?: (d: WindowOpenHandlerDetails) => { action: 'deny' | 'allow' };
  readonly listeners = new Map<string, Array<(e: ElectronEvent, url: string) => void>>();
  setWindowOpenHandler(h: (d: WindowOpenHandlerDetails) => { action: 'deny' | 'allow' }): void {
    this.openHandler = h;
  }
  on(event: string, l: (e: ElectronEvent, url: string) => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
  }
  fire(event: string, url = ''): boolean {
    let prevented = false;
    for (const l of this.listeners.get(event) ?? []) l({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export class FakeWindow implements ElectronBrowserWindow {
  loaded: string[] = [];
  shown = false;
  destroyed = false;
  readyListeners: (() => void)[] = [];
  readonly webContents = new FakeWebContents();
  constructor(readonly options: BrowserWindowOptions) {
    FakeWindow.created.push(this);
    // Like Electron: the app hears of the window's webContents as it is created.
    FakeWindow.onCreated?.(this.webContents);
  }
  static created: FakeWindow[] = [];
  static onCreated: ((contents: FakeWebContents) => void) | undefined;
  get openHandler(): ((d: WindowOpenHandlerDetails) => { action: 'deny' | 'allow' }) | undefined {
    return this.webContents.openHandler;
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
  once(_event: 'ready-to-show', l: () => void) {
    this.readyListeners.push(l);
  }
  show() {
    this.shown = true;
  }
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
  isDestroyed() {
    return this.destroyed;
  }
  /** Simulates a navigation attempt; returns whether the window blocked it. */
  navigate(url: string): boolean {
    return this.webContents.fire('will-navigate', url);
  }
}

/**
 * safeStorage stand-in: a reversible transform under a per-instance key (not the real OS encryption, but
 * the main process's handling, encoding and refusals are what the tests check). `backend` as on Linux.
 */
export function fakeSafeStorage(opts: { available?: boolean; backend?: string } = {}) {
  const key = 0x5a;
  const calls = { encrypted: 0, decrypted: 0 };
  return {
    calls,
    isEncryptionAvailable: () => opts.available ?? true,
    ...(opts.backend === undefined ? {} : { getSelectedStorageBackend: () => opts.backend! }),
    encryptString: (plain: string) => {
      calls.encrypted++;
      return Buffer.concat([Buffer.from('v10'), Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ key))]);
    },
    decryptString: (buf: Buffer) => {
      calls.decrypted++;
      if (buf.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(buf.subarray(3).map((b) => b ^ key)).toString('utf8');
    },
  };
}

export function fakeElectron(opts: { lock?: boolean; userData?: string; safeStorage?: { available?: boolean; backend?: string } } = {}) {
  const listeners = new Map<string, Listener[]>();
  const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  const opened: string[] = [];
  const errors: { title: string; content: string }[] = [];
  const state = { quitCalls: 0, exitCode: undefined as number | undefined };
  FakeWindow.created = [];
  FakeWindow.onCreated = (contents) => emit('web-contents-created', { preventDefault: () => undefined }, contents);

  const emit = (event: string, ...args: unknown[]) => {
    for (const l of listeners.get(event) ?? []) (l as (...a: unknown[]) => unknown)(...args);
  };

  const permissions: { request?: PermissionRequestHandler | null; check?: PermissionCheckHandler | null } = {};
  const api: ElectronMainApi = {
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h) => void (permissions.request = h),
        setPermissionCheckHandler: (h) => void (permissions.check = h),
      },
    },
    app: {
      whenReady: async () => undefined,
      getPath: () => opts.userData ?? '/tmp/fake-user-data',
      getVersion: () => '9.9.9',
      requestSingleInstanceLock: () => opts.lock ?? true,
      on: (event: string, l: Listener) => {
        listeners.set(event, [...(listeners.get(event) ?? []), l]);
      },
      quit: () => {
        state.quitCalls++;
        // Like Electron: quit() emits before-quit; a listener may prevent it.
        let prevented = false;
        emit('before-quit', { preventDefault: () => (prevented = true) });
        if (!prevented) state.exitCode ??= 0;
      },
      exit: (code?: number) => {
        state.exitCode = code ?? 0;
      },
    } as ElectronMainApi['app'],
    BrowserWindow: FakeWindow,
    ipcMain: {
      handle: (channel, l) => void handlers.set(channel, l),
      removeHandler: (channel) => void handlers.delete(channel),
    },
    shell: { openExternal: async (url) => void opened.push(url) },
    dialog: { showErrorBox: (title, content) => void errors.push({ title, content }) },
    safeStorage: fakeSafeStorage(opts.safeStorage),
  };

  return { api, emit, handlers, opened, errors, state, permissions, windows: () => FakeWindow.created };
}

export function fakePreloadElectron() {
  const exposed = new Map<string, unknown>();
  const invoked: { channel: string; args: unknown[] }[] = [];
  const api: ElectronPreloadApi = {
    contextBridge: { exposeInMainWorld: (key, value) => void exposed.set(key, value) },
    ipcRenderer: {
      invoke: async (channel, ...args) => {
        invoked.push({ channel, args });
        return { channel, args };
      },
    },
  };
  return { api, exposed, invoked };
}
