// Electron's main entry. The electron module is imported here and only here, at run time, so the
// main-process logic (main.ts) stays loadable and testable without Electron installed.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ElectronMainApi } from './electronApi.js';
import { runMain } from './main.js';
import type { ChainMode } from '../engine/index.js';

const ELECTRON = 'electron';

function chainFromEnv(value: string | undefined): ChainMode | undefined {
  if (!value) return undefined;
  if (value === 'anvil' || value === 'none') return value;
  if (/^https?:\/\//.test(value)) return { rpcUrl: value };
  throw new Error(`SANDBOX_EXCHANGE_CHAIN must be anvil, none or an http(s) JSON-RPC URL, not '${value}'`);
}

// Built app: preload.cjs sits beside this file; development (tsx): it is built into dist/electron.
function preloadPath(): string {
  const candidates = ['./preload.cjs', '../dist/electron/preload.cjs'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`The preload script is not built (looked at ${candidates.join(', ')}). Run \`npx tsx scripts/buildElectron.ts\` (npm start does it for you).`);
  return found;
}

const mod = (await import(ELECTRON)) as ElectronMainApi & { default?: ElectronMainApi };
const electron = mod.default ?? mod;
const chain = chainFromEnv(process.env.SANDBOX_EXCHANGE_CHAIN);
await runMain(electron, {
  preloadPath: preloadPath(),
  engineConfig: chain ? { chain } : {},
});
