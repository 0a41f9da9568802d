import { feeScheduleToWire, type FeeScheduleWire } from '../../protocol/feeSchedule.js';
import { identityOfRow } from '../mirror/mirrorIdentity.js';
import type { PublicMarketIdentity, TapeEntry } from '../mirror/mirrorTypes.js';

/**
 * The tape format (decisions §10, docs/tapes.md): gzip JSON lines, one file per market and UTC day,
 * `<data>/tapes/<conditionId>-<YYYY-MM-DD>.jsonl.gz`. Line 1 is a TapeHeader; every other line is one
 * TapeEntry as the upstream gave it: `{t, e}`, `{t, resync}` or `{t, market}`.
 */
export const TAPE_FORMAT = 'tape';
export const TAPE_VERSION = 1;
export const TAPE_SUFFIX = '.jsonl.gz';

/** The identity as a tape's header carries it: plain JSON, the fee schedule's rates as decimal strings. */
export type PublicMarketIdentityWire = Omit<PublicMarketIdentity, 'feeSchedule'> & { feeSchedule: FeeScheduleWire };

/** Where the recording came from: the upstream bases the mirror followed. */
export interface TapeUpstream {
  clob: string;
  ws: string;
}

export interface TapeHeader {
  format: typeof TAPE_FORMAT;
  version: typeof TAPE_VERSION;
  market: PublicMarketIdentityWire;
  upstream: TapeUpstream;
  /** Receive time (exchange ms) of the file's first entry: a replay's clock starts here. */
  startedAt: number;
}

export function identityToWire(identity: PublicMarketIdentity): PublicMarketIdentityWire {
  return { ...identity, conditionId: identity.conditionId.toLowerCase(), feeSchedule: feeScheduleToWire(identity.feeSchedule) };
}

/** The identity of a header's `market` (the same JSON shape the market registry stores), or undefined when unreadable. */
export function identityFromWire(market: unknown): PublicMarketIdentity | undefined {
  if (typeof market !== 'object' || market === null) return undefined;
  return identityOfRow({ mirrorIdentity: JSON.stringify(market) });
}

/** `YYYY-MM-DD` of a unix ms time, in UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function tapeFileName(conditionId: string, day: string): string {
  return `${conditionId.toLowerCase()}-${day}${TAPE_SUFFIX}`;
}

/** The condition id and day a tape's file name says, if it follows the naming rule. */
export function parseTapeFileName(name: string): { conditionId: string; day: string } | undefined {
  const m = /^(0x[0-9a-f]{64})-(\d{4}-\d{2}-\d{2})\.jsonl\.gz$/.exec(name);
  return m ? { conditionId: m[1]!, day: m[2]! } : undefined;
}

/** One entry's line (without the newline): only the two keys of its kind, `t` first. */
export function entryLine(entry: TapeEntry): string {
  if ('e' in entry) return JSON.stringify({ t: entry.t, e: entry.e });
  if ('resync' in entry) return JSON.stringify({ t: entry.t, resync: entry.resync });
  return JSON.stringify({ t: entry.t, market: entry.market });
}

/** A parsed entry line, or a reason it is not one. */
export function parseEntryLine(line: string): TapeEntry | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: 'not an object' };
  const o = v as Record<string, unknown>;
  if (typeof o.t !== 'number' || !Number.isSafeInteger(o.t) || o.t < 0) return { problem: 't is not a unix ms integer' };
  if ('e' in o) return { t: o.t, e: o.e };
  if ('resync' in o) return { t: o.t, resync: o.resync };
  if ('market' in o) return { t: o.t, market: o.market };
  return { problem: 'has none of e, resync, market' };
}

/** A parsed header line, or a reason it is not a tape this version reads. */
export function parseHeaderLine(line: string): { header: TapeHeader; identity: PublicMarketIdentity } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { problem: 'its first line is not JSON' };
  }
  if (typeof v !== 'object' || v === null) return { problem: 'its first line is not a header object' };
  const o = v as Record<string, unknown>;
  if (o.format !== TAPE_FORMAT) return { problem: `its first line has format ${JSON.stringify(o.format)}, not "${TAPE_FORMAT}"` };
  if (o.version !== TAPE_VERSION) return { problem: `it is tape version ${JSON.stringify(o.version)}; this engine reads version ${TAPE_VERSION}` };
  if (typeof o.startedAt !== 'number' || !Number.isSafeInteger(o.startedAt)) return { problem: 'its header has no startedAt (unix ms)' };
  const identity = identityFromWire(o.market);
  if (!identity || !/^0x[0-9a-fA-F]{64}$/.test(identity.conditionId)) return { problem: 'its header market is not a readable public market identity' };
  const up = (o.upstream ?? {}) as Record<string, unknown>;
  const upstream = { clob: typeof up.clob === 'string' ? up.clob : '', ws: typeof up.ws === 'string' ? up.ws : '' };
  return { header: { format: TAPE_FORMAT, version: TAPE_VERSION, market: identityToWire(identity), upstream, startedAt: o.startedAt }, identity };
}
