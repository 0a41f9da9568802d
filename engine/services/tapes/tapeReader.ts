import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { ApiError } from '../../protocol/errors.js';
import type { PublicMarketIdentity, TapeEntry } from '../mirror/mirrorTypes.js';
import { parseEntryLine, parseHeaderLine, type TapeHeader } from './tapeFormat.js';

/** A tape read whole: its header, its entries in file order, and what was skipped. */
export interface Tape {
  readonly path: string;
  /** The file name (what `tape:<name>` and GET /admin/tapes say). */
  readonly name: string;
  readonly header: TapeHeader;
  readonly identity: PublicMarketIdentity;
  readonly entries: TapeEntry[];
  /** Lines skipped (not JSON, no time, unknown kind) and a cut-off tail, with their line numbers. */
  readonly problems: string[];
  /** True when the file ended inside a gzip member (a crash mid-flush): the complete lines before it were kept. */
  readonly truncated: boolean;
  readonly bytes: number;
}

/**
 * The text of a tape file: every gzip member in turn (a file appended across restarts holds several),
 * and, when the last member was cut off by a crash, whatever of it was complete.
 */
export function gunzipTape(buf: Buffer): { text: string; truncated: boolean } {
  if (buf.length === 0) return { text: '', truncated: false };
  try {
    return { text: gunzipSync(buf).toString('utf8'), truncated: false };
  } catch {
    // A cut-off last member: a sync flush gives what was complete before the cut.
    try {
      return { text: gunzipSync(buf, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8'), truncated: true };
    } catch (e) {
      throw new Error(`it is not gzip data or is damaged before its end (${(e as Error).message})`);
    }
  }
}

/** Splits decoded text into complete lines; a last line without its newline (a cut-off write) is dropped. */
export function completeLines(text: string): { lines: string[]; partialTail: boolean } {
  const lines = text.split('\n');
  const tail = lines.pop()!;
  return { lines, partialTail: tail !== '' };
}

/** Reads and checks one tape file; throws `tape_unreadable` (400) saying what is wrong with it. */
export function readTape(path: string): Tape {
  const name = basename(path);
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    throw new ApiError('tape_not_found', `Tape ${name} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). List tapes with GET /admin/tapes.`, { details: { field: 'tape' } });
  }
  let decoded: { text: string; truncated: boolean };
  try {
    decoded = gunzipTape(buf);
  } catch (e) {
    throw new ApiError('tape_unreadable', `Tape ${name} is not a readable tape: ${(e as Error).message}.`, { details: { field: 'tape' } });
  }
  const { lines, partialTail } = completeLines(decoded.text);
  const first = lines[0];
  if (first === undefined) throw new ApiError('tape_unreadable', `Tape ${name} is empty: it has no header line.`, { details: { field: 'tape' } });
  const head = parseHeaderLine(first);
  if ('problem' in head) throw new ApiError('tape_unreadable', `Tape ${name} is not a tape this engine reads: ${head.problem} (docs/tapes.md).`, { details: { field: 'tape' } });
  const entries: TapeEntry[] = [];
  const problems: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const entry = parseEntryLine(line);
    if ('problem' in entry) problems.push(`line ${i + 1}: ${entry.problem}`);
    else entries.push(entry);
  }
  const truncated = decoded.truncated || partialTail;
  if (truncated) problems.push(`the file ends in a cut-off write after line ${lines.length}; the complete lines before it were read`);
  return { path, name, header: head.header, identity: head.identity, entries, problems, truncated, bytes: statSync(path).size };
}
