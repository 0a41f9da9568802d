import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../protocol/errors.js';
import type { PublicMarketIdentity, TapeEntry } from '../mirror/mirrorTypes.js';
import { parseTapeFileName, TAPE_SUFFIX, utcDay, type TapeUpstream } from './tapeFormat.js';
import { readTape } from './tapeReader.js';
import { TapeWriter } from './tapeWriter.js';

/** Buffered entries reach the file this often (wall ms): a crash loses at most this much of a tape. */
export const FLUSH_MS = 1_000;

/** One row of GET /admin/tapes. */
export interface TapeListing {
  name: string;
  conditionId: string;
  question: string;
  /** UTC day of the file (YYYY-MM-DD). */
  day: string;
  bytes: number;
  /** Entry lines (the header not counted). */
  events: number;
  /** Receive time of the file's first entry, unix ms. */
  startedAt: number;
}

export interface TapeDeps {
  /** Tapes live in `<dataDir>/tapes/`. */
  readonly dataDir: string;
  readonly upstream: TapeUpstream;
  /** `--record`: recording is on from the start. */
  readonly record: boolean;
  /**
   * Asks the live feed for a fresh `GET /book` of a market (hup's UpstreamFeed.resync). Called when a
   * market's recording opens a file (recording switched on, a new UTC day) with anything but a full book,
   * so every tape holds a snapshot near its start and replays on its own.
   */
  readonly requestResync?: (conditionId: string) => void;
  /** The shipped example tapes (resources/tapes), a replay's last place to look for a name. */
  readonly examplesDir?: string;
}

/** The shipped example tapes: resources/tapes at the project root (the nearest ancestor holding it). */
export function examplesDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    if (existsSync(join(dir, 'resources', 'tapes'))) return join(dir, 'resources', 'tapes');
    const up = dirname(dir);
    if (up === dir) return join(process.cwd(), 'resources', 'tapes');
    dir = up;
  }
}

/**
 * Recording (decisions §10, docs/tapes.md): while on, every upstream entry of every mirrored market is
 * written, with its receive time, to that market's tape of the day. The mirror service calls `record`
 * for each entry (its `onEntry` hook). Also lists the tapes and finds one by name for a replay.
 */
export class TapeService {
  readonly dir: string;
  private on: boolean;
  private readonly writers = new Map<string, TapeWriter>();
  private timer: NodeJS.Timeout | undefined;
  /** Listing figures of files no writer holds, by name, valid while size and mtime stay the same. */
  private readonly listed = new Map<string, { size: number; mtimeMs: number; row: TapeListing }>();

  constructor(private readonly ctx: TapeDeps) {
    this.dir = join(ctx.dataDir, 'tapes');
    this.on = ctx.record;
  }

  /** Whether upstream entries are being written (GET /admin/tapes, and GET /admin/mirrors' `recording`). */
  get recording(): boolean {
    return this.on;
  }

  /** `POST /admin/tapes/recording {"enabled"}`: switches recording of every mirrored market on or off. */
  setRecording(enabled: boolean): { recording: boolean } {
    if (enabled === this.on) return { recording: this.on };
    this.on = enabled;
    if (!enabled) this.closeWriters();
    return { recording: this.on };
  }

  /** The mirror's entry hook: writes the entry to its market's tape while recording is on. */
  readonly record = (conditionId: string, identity: PublicMarketIdentity, entry: TapeEntry): void => {
    if (!this.on) return;
    const key = conditionId.toLowerCase();
    let w = this.writers.get(key);
    if (!w) {
      w = new TapeWriter(this.dir, identity, this.ctx.upstream);
      this.writers.set(key, w);
    }
    const opened = w.write(entry);
    if (opened && !isFullBook(entry)) this.ctx.requestResync?.(key);
    this.arm();
  };

  /** Every tape in `<data>/tapes/`, oldest day first; the files being written are flushed first so the counts are true. */
  list(): { recording: boolean; tapes: TapeListing[] } {
    this.flush();
    const tapes: TapeListing[] = [];
    const names = existsSync(this.dir) ? readdirSync(this.dir).filter((n) => n.endsWith(TAPE_SUFFIX)) : [];
    for (const name of names) {
      const row = this.listing(name);
      if (row) tapes.push(row);
    }
    tapes.sort((a, b) => a.day.localeCompare(b.day) || a.startedAt - b.startedAt || a.name.localeCompare(b.name));
    return { recording: this.on, tapes };
  }

  /**
   * The file a replay names: a path to a file, or a name under `<data>/tapes/` (with or without
   * `.jsonl.gz`), or one of the shipped examples. `tape_not_found` says where it looked.
   */
  resolve(ref: string): string {
    if (typeof ref !== 'string' || ref.trim() === '') throw new ApiError('invalid_field', 'tape must name a tape: a file name under <data>/tapes/ (GET /admin/tapes) or a path.', { details: { field: 'tape' } });
    const r = ref.trim();
    const withSuffix = r.endsWith(TAPE_SUFFIX) ? r : r + TAPE_SUFFIX;
    const plainName = !r.includes('/') && !r.includes('\\');
    const candidates = plainName ? [join(this.dir, withSuffix), ...(this.ctx.examplesDir ? [join(this.ctx.examplesDir, withSuffix)] : [])] : [isAbsolute(r) ? r : resolve(r)];
    for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
    throw new ApiError('tape_not_found', `No tape ${JSON.stringify(r)}: looked for ${candidates.join(', ')}. List tapes with GET /admin/tapes.`, { details: { field: 'tape' } });
  }

  /** Writes every buffered entry out. */
  flush(): void {
    for (const [key, w] of this.writers) {
      try {
        w.flush();
      } catch (e) {
        // A full disk must not stop the mirror: the entries of that flush are lost, and said so.
        console.warn(`[tapes] ${key}: could not write the tape: ${(e as Error).message}`);
      }
    }
  }

  /** Flushes and forgets the writers (recording off, shutdown). */
  close(): void {
    this.closeWriters();
  }

  private closeWriters(): void {
    this.flush();
    this.writers.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, FLUSH_MS);
    this.timer.unref();
  }

  private listing(name: string): TapeListing | undefined {
    const path = join(this.dir, name);
    let st;
    try {
      st = statSync(path);
    } catch {
      return undefined;
    }
    const cached = this.listed.get(name);
    if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs) return cached.row;
    let row: TapeListing;
    try {
      const tape = readTape(path);
      const parsed = parseTapeFileName(name);
      row = {
        name,
        conditionId: tape.identity.conditionId.toLowerCase(),
        question: tape.identity.question,
        day: parsed?.day ?? utcDay(tape.header.startedAt),
        bytes: st.size,
        events: tape.entries.length,
        startedAt: tape.header.startedAt,
      };
    } catch {
      // Not a tape (or damaged beyond reading): not listed.
      return undefined;
    }
    this.listed.set(name, { size: st.size, mtimeMs: st.mtimeMs, row });
    return row;
  }
}

/** A `book` event or a resync: an entry that gives the whole public depth by itself. */
function isFullBook(entry: TapeEntry): boolean {
  if ('resync' in entry) return true;
  if (!('e' in entry)) return false;
  const e = entry.e as { event_type?: unknown } | null;
  return typeof e === 'object' && e !== null && e.event_type === 'book';
}
