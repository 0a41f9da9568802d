// Development entry for `npm start` when Electron is installed: run the TypeScript main process
// through tsx's loader (the packaged app runs the compiled dist/electron/mainEntry.js instead).
import { register } from 'tsx/esm/api';

register();
await import('./mainEntry.ts');
