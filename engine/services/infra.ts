import type { ChainHandle } from '../chain/chainHandle.js';
import type { EngineConfig } from '../config.js';
import type { Db } from '../store/database.js';
import type { Secrets } from '../store/secrets.js';
import type { WriteBatcher } from '../store/writeBatcher.js';
import type { Clock } from './clock.js';

/**
 * The engine's infrastructure (no services): each service's deps type picks the few of these it
 * uses and adds its peer services, each typed by the narrow interface it needs. engine/engine.ts
 * builds them all and wires every service with exactly its deps.
 */
export interface Infra {
  readonly config: EngineConfig;
  readonly clock: Clock;
  readonly db: Db;
  readonly writes: WriteBatcher;
  readonly secrets: Secrets;
  /** The local or remote chain; `chain.enabled` is false with `--chain none`. Addresses are always known. */
  readonly chain: ChainHandle;
}
