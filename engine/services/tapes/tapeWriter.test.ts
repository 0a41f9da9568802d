import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { feeScheduleFromBps } from '../../protocol/feeSchedule.js';
import type { TapeEntry } from '../mirror/mirrorTypes.js';
import { tapeFileName } from './tapeFormat.js';
import { readTape } from './tapeReader.js';
import { TapeService } from './tapeService.js';
import { TapeWriter } from './tapeWriter.js';
import { publicIdentity } from '../../testkit/mirrorKit.js';

const identity = publicIdentity({
  conditionId: '0x' + 'ab'.repeat(32),
  questionId: '0x' + '01'.repeat(32),
  question: 'Will the tape round trip?',
  description: 'A test market.',
  tokenIds: ['111', '222'],
  endDate: '2030-01-01T00:00:00.000Z',
  feeSchedule: feeScheduleFromBps(200),
});
const upstream = { clob: 'http://127.0.0.1:1', ws: 'ws://127.0.0.1:1/ws/market' };
const DAY = Date.UTC(2030, 0, 2);

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'tapes-'));
  dirs.push(d);
  return d;
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const book = (t: number): TapeEntry => ({ t, e: { event_type: 'book', asset_id: '111', bids: [{ price: '0.4', size: '10' }], asks: [] } });
const change = (t: number, size: string): TapeEntry => ({ t, e: { event_type: 'price_change', price_changes: [{ asset_id: '111', price: '0.4', size, side: 'BUY' }] } });

describe('tape writer and reader', () => {
  it('reads back the header and every entry written over several flushes, each flush one gzip member', () => {
    const dir = tmp();
    const w = new TapeWriter(dir, identity, upstream);
    const written = [book(DAY + 1), change(DAY + 2, '12'), { t: DAY + 3, resync: { bids: [], asks: [] } }, { t: DAY + 4, market: { closed: false } }];
    w.write(written[0]!);
    w.write(written[1]!);
    w.flush();
    w.write(written[2]!);
    w.write(written[3]!);
    w.flush();
    const path = join(dir, tapeFileName(identity.conditionId, '2030-01-02'));
    const tape = readTape(path);
    assert.deepEqual(tape.entries, written);
    assert.equal(tape.header.format, 'tape');
    assert.equal(tape.header.version, 1);
    assert.equal(tape.header.startedAt, DAY + 1);
    assert.equal(tape.header.market.feeSchedule.rate, '0.02');
    assert.deepEqual(tape.identity, identity);
    assert.deepEqual(tape.problems, []);
    const raw = readFileSync(path);
    assert.equal(countMembers(raw), 2, 'two flushes, two gzip members');
  });

  it('appends to the same day file after a restart without a second header', () => {
    const dir = tmp();
    const first = new TapeWriter(dir, identity, upstream);
    first.write(book(DAY + 10));
    first.flush();
    const second = new TapeWriter(dir, identity, upstream);
    second.write(change(DAY + 20, '3'));
    second.flush();
    assert.equal(second.state!.events, 2);
    const tape = readTape(join(dir, tapeFileName(identity.conditionId, '2030-01-02')));
    assert.deepEqual(tape.entries, [book(DAY + 10), change(DAY + 20, '3')]);
    assert.equal(tape.header.startedAt, DAY + 10);
    const lines = gunzipSync(readFileSync(tape.path)).toString().trim().split('\n');
    assert.equal(lines.filter((l) => l.includes('"format":"tape"')).length, 1);
  });

  it('rolls over to a new file with its own header at UTC midnight', () => {
    const dir = tmp();
    const w = new TapeWriter(dir, identity, upstream);
    const midnight = Date.UTC(2030, 0, 3);
    w.write(book(midnight - 1));
    const opened = w.write(change(midnight, '5'));
    assert.equal(opened, true);
    w.flush();
    const names = readdirSync(dir).sort();
    assert.deepEqual(names, [tapeFileName(identity.conditionId, '2030-01-02'), tapeFileName(identity.conditionId, '2030-01-03')]);
    assert.deepEqual(readTape(join(dir, names[0]!)).entries, [book(midnight - 1)]);
    const next = readTape(join(dir, names[1]!));
    assert.deepEqual(next.entries, [change(midnight, '5')]);
    assert.equal(next.header.startedAt, midnight);
  });

  it('keeps the complete lines of a file cut off mid-write, and a restarted writer repairs it before appending', () => {
    const dir = tmp();
    const w = new TapeWriter(dir, identity, upstream);
    w.write(book(DAY + 1));
    w.flush();
    w.write(change(DAY + 2, '1'));
    w.write(change(DAY + 3, '2'));
    w.flush();
    const path = join(dir, tapeFileName(identity.conditionId, '2030-01-02'));
    truncateSync(path, statSync(path).size - 12);
    const cut = readTape(path);
    assert.equal(cut.truncated, true);
    assert.ok(cut.entries.length >= 1 && cut.entries.length < 3);
    assert.deepEqual(cut.entries[0], book(DAY + 1));
    const again = new TapeWriter(dir, identity, upstream);
    again.write(change(DAY + 4, '9'));
    again.flush();
    const healed = readTape(path);
    assert.equal(healed.truncated, false);
    assert.deepEqual(healed.entries, [...cut.entries, change(DAY + 4, '9')]);
    gunzipSync(readFileSync(path)); // strict gunzip: the file is whole again
  });

  it('moves an unreadable day file aside and starts a fresh tape', () => {
    const dir = tmp();
    const path = join(dir, tapeFileName(identity.conditionId, '2030-01-02'));
    writeFileSync(path, 'not gzip at all');
    const w = new TapeWriter(dir, identity, upstream);
    w.write(book(DAY + 1));
    w.flush();
    assert.deepEqual(readTape(path).entries, [book(DAY + 1)]);
    assert.ok(readdirSync(dir).some((n) => n.includes('.damaged-')));
  });

  it('refuses a file that is not a tape with tape_unreadable, saying why', () => {
    const dir = tmp();
    const path = join(dir, 'x.jsonl.gz');
    writeFileSync(path, 'plain');
    assert.throws(() => readTape(path), (e: Error & { code?: string }) => e.code === 'tape_unreadable' && /not a readable tape/.test(e.message));
  });
});

describe('tape service (recording)', () => {
  it('records only while on, lists each tape with its counts, and asks for a resync when a file starts without a full book', () => {
    const dataDir = tmp();
    const resyncs: string[] = [];
    const svc = new TapeService({ dataDir, upstream, record: false, requestResync: (c) => resyncs.push(c) });
    svc.record(identity.conditionId, identity, change(DAY + 1, '1'));
    assert.deepEqual(svc.list(), { recording: false, tapes: [] });
    assert.deepEqual(svc.setRecording(true), { recording: true });
    svc.record(identity.conditionId, identity, change(DAY + 2, '2'));
    svc.record(identity.conditionId, identity, { t: DAY + 3, resync: { bids: [], asks: [] } });
    assert.deepEqual(resyncs, [identity.conditionId]);
    const listed = svc.list();
    assert.equal(listed.recording, true);
    assert.equal(listed.tapes.length, 1);
    const row = listed.tapes[0]!;
    assert.deepEqual({ ...row, bytes: 0 }, { name: tapeFileName(identity.conditionId, '2030-01-02'), conditionId: identity.conditionId, question: identity.question, day: '2030-01-02', bytes: 0, events: 2, startedAt: DAY + 2 });
    assert.ok(row.bytes > 0);
    svc.setRecording(false);
    svc.record(identity.conditionId, identity, change(DAY + 4, '4'));
    assert.equal(svc.list().tapes[0]!.events, 2);
    assert.equal(svc.resolve(row.name), join(dataDir, 'tapes', row.name));
    assert.equal(svc.resolve(row.name.replace('.jsonl.gz', '')), join(dataDir, 'tapes', row.name));
    assert.throws(() => svc.resolve('nope'), (e: Error & { code?: string }) => e.code === 'tape_not_found');
    svc.close();
  });
});

/** gzip members in a buffer: each starts with 1f 8b 08 and a full decode of the rest succeeds from there. */
function countMembers(buf: Buffer): number {
  let n = 0;
  for (let i = 0; i + 2 < buf.length; i++) {
    if (buf[i] === 0x1f && buf[i + 1] === 0x8b && buf[i + 2] === 0x08) {
      try {
        gunzipSync(buf.subarray(i));
        n++;
      } catch {
        // a byte pattern inside compressed data
      }
    }
  }
  return n;
}
