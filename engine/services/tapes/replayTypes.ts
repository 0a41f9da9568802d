import type { MarketDecoder, PublicMarketIdentity } from '../mirror/mirrorTypes.js';
import type { TimedEntry } from './fillableView.js';

export type ReplayPhase = 'running' | 'finished';

/** What a replay is and how far it got (the report adds the accounts). */
export interface ReplayState {
  readonly replayId: string;
  readonly tapes: readonly string[];
  readonly conditionId: string;
  readonly question: string;
  /** `tape:<first tape name>`: the market record's mirror source. */
  readonly source: string;
  /** Tape ms per exchange ms. */
  readonly speed: number;
  readonly phase: ReplayPhase;
  /** Exchange time the replay started (its first entry plays here), unix ms. */
  readonly startedAt: number;
  /** Receive time of the tape's first and last entries (header start; last line), unix ms. */
  readonly tapeStart: number;
  readonly tapeEnd: number;
  /** Entries on the tape(s), and played so far. */
  readonly entries: number;
  readonly played: number;
  /** Local fills made by public prints so far. */
  readonly printFills: number;
  /** Exchange time the last entry played, once finished. */
  readonly finishedAt: number | null;
  readonly problems: readonly string[];
  readonly problemCount: number;
}

/** What a replay played, for the fillable view: the identity, a fresh decoder and the entries with their play times. */
export interface ReplayTimeline {
  readonly identity: PublicMarketIdentity;
  readonly decoder: MarketDecoder;
  readonly entries: readonly TimedEntry[];
}
