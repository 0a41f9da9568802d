import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PublicMarketIdentity, TapeEntry } from '../mirror/mirrorTypes.js';
import { completeLines, gunzipTape } from './tapeReader.js';
import { entryLine, identityToWire, parseHeaderLine, tapeFileName, TAPE_FORMAT, TAPE_VERSION, utcDay, type TapeHeader, type TapeUpstream } from './tapeFormat.js';

/** A buffer this big is written at once, whatever the flush timer says. */
export const MAX_BUFFER_BYTES = 256 * 1024;

/** What a writer's current file holds, for GET /admin/tapes. */
export interface WriterState {
  readonly path: string;
  readonly day: string;
  readonly events: number;
  readonly startedAt: number;
}

/**
 * Writes one market's tape: one gzip JSON-lines file per UTC day of the entries' receive times. Lines are
 * buffered and each flush appends them as ONE complete gzip member, so the file is valid gzip after every
 * flush and a file appended across restarts is a series of members (readers must read them all; gunzip
 * does). The owner flushes on a timer (TapeService: every second), so a crash loses at most that much.
 * Opening a day's file that already exists appends to it (no second header); if the last member was cut
 * off mid-write, the file is first rewritten with its complete lines.
 */
export class TapeWriter {
  private current: { path: string; day: string; events: number; startedAt: number } | undefined;
  private buffer: string[] = [];
  private bufferedBytes = 0;

  constructor(
    private readonly dir: string,
    private readonly identity: PublicMarketIdentity,
    private readonly upstream: TapeUpstream,
  ) {}

  get state(): WriterState | undefined {
    return this.current ? { ...this.current } : undefined;
  }

  /** Appends one entry; an entry of another UTC day closes the current file and opens that day's (true: a new file was opened). */
  write(entry: TapeEntry): boolean {
    const day = utcDay(entry.t);
    let opened = false;
    if (this.current?.day !== day) {
      this.flush();
      this.open(day, entry.t);
      opened = true;
    }
    this.push(entryLine(entry));
    this.current!.events++;
    if (this.bufferedBytes >= MAX_BUFFER_BYTES) this.flush();
    return opened;
  }

  /** Writes what is buffered as one gzip member at the end of the current file. */
  flush(): void {
    if (!this.current || this.buffer.length === 0) return;
    const text = this.buffer.join('');
    this.buffer = [];
    this.bufferedBytes = 0;
    appendFileSync(this.current.path, gzipSync(text));
  }

  private push(line: string): void {
    this.buffer.push(line + '\n');
    this.bufferedBytes += line.length + 1;
  }

  private open(day: string, t: number): void {
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, tapeFileName(this.identity.conditionId, day));
    const kept = existsSync(path) && statSync(path).size > 0 ? keepExisting(path) : undefined;
    if (kept) {
      this.current = { path, day, events: kept.events, startedAt: kept.startedAt };
      return;
    }
    const header: TapeHeader = { format: TAPE_FORMAT, version: TAPE_VERSION, market: identityToWire(this.identity), upstream: this.upstream, startedAt: t };
    writeFileSync(path, '');
    this.current = { path, day, events: 0, startedAt: t };
    this.push(JSON.stringify(header));
  }
}

/**
 * An existing day file to append to: its entry count and start, after cutting off a crash's partial
 * write. A file that is not a readable tape is moved aside (`.damaged-<ms>`) and undefined returned, so
 * recording starts a fresh file rather than appending to garbage.
 */
function keepExisting(path: string): { events: number; startedAt: number } | undefined {
  let text: string;
  let truncated: boolean;
  try {
    ({ text, truncated } = gunzipTape(readFileSync(path)));
  } catch {
    renameSync(path, `${path}.damaged-${Date.now()}`);
    return undefined;
  }
  const { lines, partialTail } = completeLines(text);
  const head = lines[0] === undefined ? undefined : parseHeaderLine(lines[0]);
  if (!head || 'problem' in head) {
    renameSync(path, `${path}.damaged-${Date.now()}`);
    return undefined;
  }
  if (truncated || partialTail) {
    // Rewritten whole (temp file, then rename), so a second crash here leaves either file intact.
    const tmp = `${path}.repair`;
    writeFileSync(tmp, gzipSync(lines.map((l) => l + '\n').join('')));
    renameSync(tmp, path);
  }
  return { events: lines.slice(1).filter((l) => l !== '').length, startedAt: head.header.startedAt };
}
