import type { Static } from '@sinclair/typebox';
import type { MirrorRowJson, MirrorStatusSchema, PublicCatalogueEntrySchema, UpstreamStateSchema } from '../protocol/schemas/mirror.js';
import type { ReplayReportSchema, ReplayStateSchema, TapeRow as TapeRowSchema, TapesResponse } from '../protocol/schemas/tapes.js';
import type { Market } from './responseTypes.js';
import { operatorCall } from './operatorCall.js';

/** decisions §10: `live`, `stale` (no upstream event for 30 s or a failed resync) or `closed`. */
export type UpstreamState = Static<typeof UpstreamStateSchema>;
/** The `mirror` field of every market record: null for a local market. */
export type MirrorStatus = Static<typeof MirrorStatusSchema>;
/** One row of GET /admin/mirrors/search (Gamma's public search, summarised). */
export type PublicCatalogueEntry = Static<typeof PublicCatalogueEntrySchema>;
/** One row of GET /admin/mirrors. */
export type MirrorRow = MirrorRowJson;

/** One recorded tape of GET /admin/tapes: one file per market and UTC day. */
export type TapeRow = Static<typeof TapeRowSchema>;
export type TapeList = Static<typeof TapesResponse>;
/** POST /admin/replays: the replay started and the market it drives (its mirror.source is `tape:<name>`). */
export type ReplayStarted = Static<typeof ReplayStateSchema>;
/** GET /admin/replays/{id}: the users' PnL, fees and fills, and the fillable view at other latencies. */
export type ReplayReport = Static<typeof ReplayReportSchema>;

/**
 * The operator routes of mirrored public markets, recording and replay (docs/api.md "Mirrors",
 * decisions §10). Isomorphic (fetch only), like the exchange client; every route needs the operator token.
 */
export class MirrorClient {
  constructor(
    private readonly baseUrl: string,
    private readonly operatorToken?: string,
    private readonly fetchImpl: typeof fetch = (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  ) {}

  /** Searches the public catalogue by words (Gamma's search): price, volume, closed. */
  search(q: string, limit?: number): Promise<PublicCatalogueEntry[]> {
    const query = new URLSearchParams({ q, ...(limit === undefined ? {} : { limit: String(limit) }) });
    return this.call('GET', `/admin/mirrors/search?${query}`);
  }

  /** Starts mirroring a public market by slug, condition id or polymarket.com URL; answers its local market record. */
  start(market: string): Promise<Market> {
    return this.call('POST', '/admin/mirrors', { market });
  }

  list(): Promise<MirrorRow[]> {
    return this.call('GET', '/admin/mirrors');
  }

  /** Stops following the public market (the local market stays, its public depth goes). */
  stop(conditionId: string): Promise<unknown> {
    return this.call('DELETE', `/admin/mirrors/${encodeURIComponent(conditionId)}`);
  }

  tapes(): Promise<TapeList> {
    return this.call('GET', '/admin/tapes');
  }

  /** Switches recording of every mirrored market's upstream events on or off. */
  setRecording(enabled: boolean): Promise<unknown> {
    return this.call('POST', '/admin/tapes/recording', { enabled });
  }

  /** Replays a recorded tape into a market of this engine (`speed` tape ms per exchange ms; default 1). */
  replay(tape: string, speed?: number): Promise<ReplayStarted> {
    return this.call('POST', '/admin/replays', { tape, ...(speed === undefined ? {} : { speed }) });
  }

  /** A replay's report: the user's PnL, fees, fills and the fillable view. */
  replayReport(replayId: string): Promise<ReplayReport> {
    return this.call('GET', `/admin/replays/${encodeURIComponent(replayId)}`);
  }

  private call<R>(method: string, path: string, body?: unknown): Promise<R> {
    return operatorCall({ baseUrl: this.baseUrl, operatorToken: this.operatorToken, fetchImpl: this.fetchImpl, what: 'Mirrors' }, method, path, body);
  }
}
