// The preload script Electron loads (bundled to dist/electron/preload.cjs by scripts/buildElectron.ts).
// Sandboxed preloads are CommonJS and may require only 'electron', hence the plain require.
import type { ElectronPreloadApi } from './electronApi.js';
import { exposeDesktopApi } from './preload.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload has no import()
exposeDesktopApi(require('electron') as ElectronPreloadApi);
