import type { BookSide } from '../../book/types.js';
import type { FeeSchedule } from '../../protocol/feeSchedule.js';

/**
 * The contract between the parts of the mirror (decisions §10), shared by the upstream transport, the
 * decoder, the mirror service, tapes/replay and the order service's public layer:
 *
 *   upstream transport (live)  ─┐                      ┌─► tape recorder (writes TapeEntry lines)
 *   tape reader (replay)       ─┴─► TapeEntry per market ─► MarketDecoder ─► PublicBookEvent[] ─► orders.applyPublic
 *
 * The transport and the tape reader both produce TapeEntry values; the decoder is pure and the only
 * place that reads upstream wire formats, so live and replayed markets behave identically.
 */

/** What the upstream said, as received, with its receive time (exchange ms). One line of a tape. */
export type TapeEntry =
  /** An upstream WebSocket event object (one element of a frame), exactly as received. */
  | { readonly t: number; readonly e: unknown }
  /** A `GET /book?token_id=<outcome 0 token>` answer used to resync (after connect, reconnect or a gap). */
  | { readonly t: number; readonly resync: unknown }
  /** A `GET /markets/{condition_id}` answer (CLOB) polled for the market's state: close and resolution. */
  | { readonly t: number; readonly market: unknown };

/**
 * One upstream fact about a mirrored market after decoding and checks, in the book's outcome-0 terms
 * (integer micro-units, like engine/book): bids are BUYs of outcome 0, asks SELLs of outcome 0. A
 * decoder emits outcome-1 facts only converted (price 1 − p, side flipped) and never twice for one match.
 */
export type PublicBookEvent =
  /** The whole public depth (a `book` event or a resync): replaces the public layer of the market. */
  | { readonly kind: 'snapshot'; readonly bids: readonly PublicLevel[]; readonly asks: readonly PublicLevel[] }
  /** The new aggregate public size at one level (0 removes the level). */
  | { readonly kind: 'level'; readonly side: BookSide; readonly price: number; readonly size: number }
  /** A public trade print; `aggressor` is the side of the public taker ('bid' = it bought outcome 0). */
  | { readonly kind: 'print'; readonly aggressor: BookSide; readonly price: number; readonly size: number }
  /** The public tick size changed (micro-units); the public layer is dropped until the next snapshot. */
  | { readonly kind: 'tick'; readonly tickSize: number }
  /** Trading stopped upstream (closed, not accepting orders) without a winner yet. */
  | { readonly kind: 'closed' }
  /** The public market resolved: outcome index of the winner. */
  | { readonly kind: 'resolved'; readonly winner: 0 | 1 };

export interface PublicLevel {
  readonly price: number;
  readonly size: number;
}

export interface DecodeResult {
  readonly events: PublicBookEvent[];
  /** Why parts of the entry were ignored (malformed, out of range, wrong hash, unknown asset): for logs and the market's state, never thrown. */
  readonly problems: string[];
  /** True when the entry showed the local copy can no longer be trusted (hash mismatch, delta before snapshot): the caller resyncs. */
  readonly needsResync: boolean;
}

/** Per-market, stateful (tick, whether a snapshot arrived, last hash), pure: no clock, no I/O. */
export interface MarketDecoder {
  decode(entry: TapeEntry): DecodeResult;
}

/** A public market's identity and rules, as a mirror keeps them (decisions §10). */
export interface PublicMarketIdentity {
  readonly conditionId: string;
  readonly questionId: string;
  readonly question: string;
  readonly description: string;
  readonly slug: string;
  readonly outcomes: readonly [string, string];
  /** Decimal token id strings (uint256; never numbers). */
  readonly tokenIds: readonly [string, string];
  /** Micro-units (0.01 → 10_000). */
  readonly tickSize: number;
  /** Shares, micro-units (5 → 5_000_000). */
  readonly minOrderSize: number;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string;
  /** ISO 8601 or null. */
  readonly endDate: string | null;
  readonly feeSchedule: FeeSchedule;
  readonly image: string;
  readonly closed: boolean;
  readonly acceptingOrders: boolean;
  /** Set once resolved upstream. */
  readonly winner: 0 | 1 | null;
}

/** One row of the public catalogue search (Gamma `/public-search`), for the terminal's "Mirror" list. */
export interface PublicCatalogueEntry {
  readonly conditionId: string;
  readonly slug: string;
  readonly question: string;
  readonly eventTitle: string;
  readonly outcomes: readonly [string, string];
  /** Decimal strings as Gamma reports them (cached summaries, not the book). */
  readonly outcomePrices: readonly [string, string] | null;
  readonly volume: string;
  readonly closed: boolean;
  readonly image: string;
}

/** decisions §10: `mirror: {source, upstreamState, lastEventAgeMs}` in the market record. */
export type UpstreamState = 'live' | 'stale' | 'closed';

export interface MirrorStatus {
  /** `public` (a live mirror) or `tape:<file name>` (a replay). */
  readonly source: string;
  readonly upstreamState: UpstreamState;
  /** Exchange ms since the last upstream event (heartbeats count); null before the first. */
  readonly lastEventAgeMs: number | null;
}
