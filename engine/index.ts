// The engine's public entry: the desktop app's main process and embedding scripts import only this.
export { createEngine, type Engine, type ReadyLine, type CreateEngineOptions } from './engine.js';
export { resolveConfig, defaultDataDir, LOCAL_CHAIN_ID, type EngineConfig, type ChainMode } from './config.js';
