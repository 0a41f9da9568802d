import type { ChainHandle } from '../chain/chainHandle.js';
import type { EngineConfig } from '../config.js';
import type { Db } from '../store/database.js';
import type { Secrets } from '../store/secrets.js';
import type { WriteBatcher } from '../store/writeBatcher.js';
import type { Clock } from './clock.js';
import type { RunIds } from './runs/runIds.js';

/**
 * The engine's infrastructure (no services): each service's deps type picks the few of these it
 * uses and adds its peer services, each typed by the narrow interface it needs. engine/engine.ts
 * builds them all and wires every service with exactly its deps.
 */
export interface Infra {
  readonly config: EngineConfig;
  /** Exchange time (decisions §11): orders, trades, participants, scenarios, GTD expiry, candles, streams. */
  readonly clock: Clock;
  /** Wall time: auth windows, GET /time, rate limits, heartbeats, bootstrap codes. Absent: the same as `clock`. */
  readonly wallClock?: Clock;
  /** Ids drawn from the run's seed (fast and stepped runs); absent: random ids. */
  readonly ids?: RunIds;
  readonly db: Db;
  readonly writes: WriteBatcher;
  readonly secrets: Secrets;
  /** The local or remote chain; `chain.enabled` is false with `--chain none`. Addresses are always known. */
  readonly chain: ChainHandle;
}
