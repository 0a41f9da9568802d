import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SPEED } from '../../config.js';
import { ApiError } from '../../protocol/errors.js';
import type { Clock } from '../clock.js';
import type { MarketService } from '../markets/marketService.js';
import type { MarketDecoder, MirrorStatus, PublicBookEvent, PublicMarketIdentity, TapeEntry } from '../mirror/mirrorTypes.js';
import type { JobKind } from '../participants/simScheduler.js';
import type { TimedEntry } from './fillableView.js';
import type { ReplayReport } from './replayReport.js';
import type { ReplayPhase, ReplayState, ReplayTimeline } from './replayTypes.js';
import { readTape, type Tape } from './tapeReader.js';
import type { TapeService } from './tapeService.js';

/** Problems kept per replay (the first ones; the count goes on). */
const MAX_PROBLEMS = 50;

/** The public layer a replay drives (hcore's OrderService). */
export interface ReplayPublicLayer {
  applyPublic(conditionId: string, events: readonly PublicBookEvent[]): Promise<{ fills: number }>;
  dropPublic(conditionId: string): void;
}

export interface ReplayDeps {
  readonly clock: Clock;
  readonly markets: Pick<MarketService, 'createMirrored' | 'byCondition' | 'close' | 'resolve'>;
  readonly orders: ReplayPublicLayer;
  /** hup's createMarketDecoder: the same pure decoder a live mirror uses. */
  readonly decoderFor: (identity: PublicMarketIdentity) => MarketDecoder;
  /** The simulation's scheduler: tape entries are its jobs of kind 'tape' (stepped advances count them; real mode runs them on timers). */
  readonly scheduler: { at(at: number, run: () => Promise<void> | void, kind?: JobKind): void };
  readonly tapes: Pick<TapeService, 'resolve'>;
  /** The mirror service, told each replayed market's status (`mirror` of the market record). */
  readonly mirrors?: { provideStatus(conditionId: string, status: (() => MirrorStatus) | undefined): void };
  /** Builds a replay's report (replayReport.ts with the engine's store and books). */
  readonly report: (state: ReplayState, timeline: ReplayTimeline) => ReplayReport;
  /** The run folder the finished replay's report is written to (`<data>/runs/<run id>/replay-<id>.json`). */
  readonly runDir: () => string;
}

interface Replay {
  readonly replayId: string;
  readonly tapes: Tape[];
  readonly identity: PublicMarketIdentity;
  readonly conditionId: string;
  readonly source: string;
  readonly speed: number;
  readonly startedAt: number;
  readonly tapeStart: number;
  readonly tapeEnd: number;
  readonly entries: TapeEntry[];
  readonly decoder: MarketDecoder;
  next: number;
  /** The tape time of the last entry scheduled: out-of-order lines play at the time of the one before. */
  lastT: number;
  printFills: number;
  phase: ReplayPhase;
  finishedAt: number | null;
  problems: string[];
  problemCount: number;
  closed: boolean;
}

/**
 * Replays recorded tapes (decisions §10, docs/tapes.md): creates the market from the tape's header and
 * drives its public layer entry by entry, each through the same decoder a live mirror uses and into
 * `orders.applyPublic`, at its receive time on the exchange clock: entry t plays at
 * `startedAt + (t − tapeStart) / speed`. The entries are the simulation scheduler's jobs of kind
 * 'tape', one at a time in order, so stepped advances play them (and count them) between a bot's
 * requests, fast runs play them without waiting and real time plays them on timers. A public close or
 * resolution on the tape closes or resolves the local market; after the last entry the market closes.
 */
export class ReplayService {
  private readonly replays = new Map<string, Replay>();
  private count = 0;

  constructor(private readonly ctx: ReplayDeps) {}


  /**
   * `POST /admin/replays {"tape", "speed"?}` and `--replay`: one replay per market; `tape` is one name
   * (or several, comma-separated, of one market: consecutive days play as one).
   */
  async start(body: { tape?: unknown; speed?: unknown }): Promise<ReplayState> {
    if (typeof body.tape !== 'string' || body.tape.trim() === '') {
      throw new ApiError('invalid_field', 'tape must name a tape: a file name under <data>/tapes/ (GET /admin/tapes), a shipped example, or a path.', { details: { field: 'tape' } });
    }
    const speed = body.speed ?? 1;
    if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED) {
      throw new ApiError('invalid_field', `speed must be a JSON number above 0 and at most ${MAX_SPEED} (tape milliseconds per exchange millisecond); got ${JSON.stringify(body.speed)}.`, { details: { field: 'speed' } });
    }
    const tapes = body.tape
      .split(',')
      .map((ref) => readTape(this.ctx.tapes.resolve(ref)))
      .sort((a, b) => a.header.startedAt - b.header.startedAt);
    const first = tapes[0]!;
    const conditionId = first.identity.conditionId.toLowerCase();
    const other = tapes.find((t) => t.identity.conditionId.toLowerCase() !== conditionId);
    if (other) {
      throw new ApiError('invalid_field', `Tapes ${first.name} and ${other.name} record different markets; one replay plays one market: start one replay per market.`, { details: { field: 'tape' } });
    }
    const identity = { ...first.identity, conditionId, closed: false, acceptingOrders: true, winner: null };
    const source = `tape:${first.name}`;
    await this.ctx.markets.createMirrored(identity, source);
    const replayId = `replay-${++this.count}`;
    const now = this.ctx.clock.nowMs();
    const entries = tapes.flatMap((t) => t.entries);
    const r: Replay = {
      replayId,
      tapes,
      identity,
      conditionId,
      source,
      speed,
      startedAt: now,
      tapeStart: first.header.startedAt,
      tapeEnd: entries.reduce((m, e) => Math.max(m, e.t), first.header.startedAt),
      entries,
      decoder: this.ctx.decoderFor(identity),
      next: 0,
      lastT: first.header.startedAt,
      printFills: 0,
      phase: 'running',
      finishedAt: null,
      problems: tapes.flatMap((t) => t.problems.map((p) => `${t.name}: ${p}`)),
      problemCount: 0,
      closed: false,
    };
    r.problemCount = r.problems.length;
    this.replays.set(replayId, r);
    this.ctx.mirrors?.provideStatus(conditionId, () => this.statusOf(r));
    await this.scheduleNext(r);
    return this.state(r);
  }

  /** A replay's progress; `replay_not_found` for an unknown id. */
  get(replayId: string): ReplayState {
    const r = this.replays.get(replayId);
    if (!r) throw new ApiError('replay_not_found', `No replay has the id ${JSON.stringify(replayId)}. Start one with POST /admin/replays; GET /admin/replays lists them.`);
    return this.state(r);
  }

  list(): ReplayState[] {
    return [...this.replays.values()].map((r) => this.state(r));
  }

  /** What a replay played so far, each entry with its play time, and a fresh decoder: the fillable view re-runs it. */
  timeline(replayId: string): ReplayTimeline {
    const r = this.replays.get(replayId);
    if (!r) throw new ApiError('replay_not_found', `No replay has the id ${JSON.stringify(replayId)}. Start one with POST /admin/replays.`);
    const entries: TimedEntry[] = [];
    let lastT = r.tapeStart;
    for (const entry of r.entries.slice(0, r.next)) {
      lastT = Math.max(lastT, entry.t);
      entries.push({ at: this.timeOf(r, lastT), entry });
    }
    return { identity: r.identity, decoder: this.ctx.decoderFor(r.identity), entries };
  }

  /** `GET /admin/replays/{id}`: the replay's progress with its accounts' PnL and the fillable view. */
  report(replayId: string): ReplayReport {
    return this.ctx.report(this.get(replayId), this.timeline(replayId));
  }

  /** Writes the report beside the run's report; answers its path. */
  writeReport(replayId: string): string {
    return writeJson(this.ctx.runDir(), `${replayId}.json`, this.report(replayId));
  }

  /** The time the replay's last entry plays (a fast run advances to it). */
  endOf(replayId: string): number {
    const r = this.replays.get(replayId)!;
    return this.timeOf(r, r.tapeEnd);
  }

  private timeOf(r: Replay, t: number): number {
    return r.startedAt + Math.floor((t - r.tapeStart) / r.speed);
  }

  /** Schedules the next entry, or (none left) finishes the replay within the job that played the last one. */
  private async scheduleNext(r: Replay): Promise<void> {
    const entry = r.entries[r.next];
    if (!entry) {
      await this.finish(r);
      return;
    }
    r.lastT = Math.max(r.lastT, entry.t);
    this.ctx.scheduler.at(this.timeOf(r, r.lastT), () => this.play(r), 'tape');
  }

  private async play(r: Replay): Promise<void> {
    const entry = r.entries[r.next++]!;
    try {
      await this.apply(r, entry);
    } catch (e) {
      this.problem(r, `entry ${r.next}: could not be applied: ${(e as Error).message}`);
    }
    await this.scheduleNext(r);
  }

  private async apply(r: Replay, entry: TapeEntry): Promise<void> {
    const result = r.decoder.decode(entry);
    for (const p of result.problems) this.problem(r, `entry ${r.next}: ${p}`);
    const book: PublicBookEvent[] = [];
    for (const e of result.events) {
      if (e.kind === 'closed' || e.kind === 'resolved') {
        if (book.length > 0 && !r.closed) r.printFills += (await this.ctx.orders.applyPublic(r.conditionId, book.splice(0))).fills;
        await this.closeMarket(r);
        if (e.kind === 'resolved') {
          const m = this.ctx.markets.byCondition(r.conditionId);
          if (m && m.winner === null) await this.ctx.markets.resolve(r.conditionId, e.winner);
        }
        continue;
      }
      book.push(e);
    }
    if (book.length > 0 && !r.closed) r.printFills += (await this.ctx.orders.applyPublic(r.conditionId, book)).fills;
  }

  private async closeMarket(r: Replay): Promise<void> {
    if (r.closed) return;
    r.closed = true;
    this.ctx.orders.dropPublic(r.conditionId);
    const m = this.ctx.markets.byCondition(r.conditionId);
    if (m && !m.closed) await this.ctx.markets.close(r.conditionId);
  }

  /** The tape is played out: the market stops taking orders (no public data follows); its last book stays to mark positions. */
  private async finish(r: Replay): Promise<void> {
    r.finishedAt = this.ctx.clock.nowMs();
    if (!r.closed) {
      r.closed = true;
      const m = this.ctx.markets.byCondition(r.conditionId);
      if (m && !m.closed) await this.ctx.markets.close(r.conditionId);
    }
    // Finished once the close is durable: whoever sees `finished` sees a closed market.
    r.phase = 'finished';
    try {
      this.writeReport(r.replayId);
    } catch (e) {
      this.problem(r, `the report could not be written: ${(e as Error).message}`);
    }
  }

  private problem(r: Replay, text: string): void {
    r.problemCount++;
    if (r.problems.length < MAX_PROBLEMS) r.problems.push(text);
  }

  private statusOf(r: Replay): MirrorStatus {
    const now = this.ctx.clock.nowMs();
    const last = r.next === 0 ? null : this.timeOf(r, r.lastT);
    return { source: r.source, upstreamState: r.phase === 'finished' || r.closed ? 'closed' : 'live', lastEventAgeMs: last === null ? null : Math.max(0, now - last) };
  }

  private state(r: Replay): ReplayState {
    return {
      replayId: r.replayId,
      tapes: r.tapes.map((t) => t.name),
      conditionId: r.conditionId,
      question: r.identity.question,
      source: r.source,
      speed: r.speed,
      phase: r.phase,
      startedAt: r.startedAt,
      tapeStart: r.tapeStart,
      tapeEnd: r.tapeEnd,
      entries: r.entries.length,
      played: r.next,
      printFills: r.printFills,
      finishedAt: r.finishedAt,
      problems: [...r.problems],
      problemCount: r.problemCount,
    };
  }
}

/** Writes a JSON document under a run folder (the replay report beside the run's report). */
export function writeJson(dir: string, name: string, doc: unknown): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc, null, 2) + '\n');
  return path;
}
