import type { ElectronIpcRenderer, ElectronPreloadApi } from './electronApi.js';
import { DESKTOP_GLOBAL, IPC_CHANNELS, type DesktopApi, type EngineInfo, type SecretStorageStatus } from './ipc.js';

/**
 * Builds the object the terminal sees as `window.desktop`. Only these named, typed calls cross the
 * bridge: the page never gets ipcRenderer itself, so it cannot reach other channels.
 */
export function createDesktopApi(ipc: ElectronIpcRenderer): DesktopApi {
  return Object.freeze({
    isDesktop: true as const,
    getEngineInfo: () => ipc.invoke(IPC_CHANNELS.getEngineInfo) as Promise<EngineInfo>,
    openExternal: (url: string) => ipc.invoke(IPC_CHANNELS.openExternal, String(url)) as Promise<{ opened: boolean }>,
    secretStorage: () => ipc.invoke(IPC_CHANNELS.secretStorage) as Promise<SecretStorageStatus>,
    encryptSecret: (plaintext: string) => ipc.invoke(IPC_CHANNELS.encryptSecret, String(plaintext)) as Promise<string>,
    decryptSecret: (ciphertext: string) => ipc.invoke(IPC_CHANNELS.decryptSecret, String(ciphertext)) as Promise<string>,
  });
}

export function exposeDesktopApi(electron: ElectronPreloadApi): DesktopApi {
  const api = createDesktopApi(electron.ipcRenderer);
  electron.contextBridge.exposeInMainWorld(DESKTOP_GLOBAL, api);
  return api;
}
