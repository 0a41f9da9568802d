/**
 * A busy synthetic tape for the replay benchmark: one market of the synthetic upstream
 * (bench/mirrorUpstream.ts) recorded as a mirror records it (decisions §10, engine/services/tapes), written by
 * the engine's own TapeWriter: the initial `book` of both tokens, a `GET /book` resync, then `price_change`,
 * `last_trade_price` and `book` events at Poisson arrival times, and a `GET /markets/{cid}` poll every minute.
 */
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { NO_FEE } from '../engine/protocol/feeSchedule.js';
import type { PublicMarketIdentity } from '../engine/services/mirror/mirrorTypes.js';
import { TapeWriter } from '../engine/services/tapes/tapeWriter.js';
import { tapeFileName, utcDay } from '../engine/services/tapes/tapeFormat.js';
import { createSeededRandom } from '../engine/book/seededRandom.js';
import { SYNTHETIC_TICK, SyntheticPublicMarkets, type SyntheticMarket } from './mirrorUpstream.js';

/** The identity a mirror would resolve for a synthetic market (its `GET /markets/{cid}` answer). */
export function syntheticIdentity(m: SyntheticMarket): PublicMarketIdentity {
  return {
    conditionId: m.conditionId,
    questionId: m.questionId,
    question: m.question,
    description: 'A synthetic public market of the mirror benchmark.',
    slug: m.slug,
    outcomes: ['Yes', 'No'],
    tokenIds: m.tokenIds,
    tickSize: SYNTHETIC_TICK,
    minOrderSize: 5_000_000,
    negRisk: false,
    negRiskMarketId: '',
    endDate: '2030-01-01T00:00:00Z',
    feeSchedule: NO_FEE,
    image: '',
    closed: false,
    acceptingOrders: true,
    winner: null,
  };
}

/** Upstream events per generator action, on average (a placement or cancel is one, a match four, one action in five a match). */
const EVENTS_PER_ACTION = 1.6;

export interface BusyTape {
  /** File name under `dir` (`<conditionId>-<day>.jsonl.gz`). */
  name: string;
  path: string;
  conditionId: string;
  /** Upstream event entries (`{t, e}`), and all entries. */
  events: number;
  entries: number;
  /** Receive time of the last entry minus the first. */
  spanMs: number;
  bytes: number;
}

/** Writes `seconds` of one synthetic market at `eventsPerSecond` upstream events (mean) into `dir`. */
export function writeBusyTape(dir: string, opts: { seed: number; seconds: number; eventsPerSecond: number; startMs?: number }): BusyTape {
  const start = opts.startMs ?? Date.UTC(2026, 10, 20, 10, 0, 0);
  const gen = new SyntheticPublicMarkets({ seed: opts.seed, markets: 1, nowMs: start });
  const m = gen.markets[0]!;
  const writer = new TapeWriter(dir, syntheticIdentity(m), { clob: 'synthetic', ws: 'synthetic' });
  const arrivals = createSeededRandom(opts.seed + 1);
  let entries = 0;
  let events = 0;
  const write = (entry: Parameters<TapeWriter['write']>[0]) => {
    writer.write(entry);
    entries++;
  };
  write({ t: start, e: gen.bookEvent(m, 0) });
  write({ t: start, e: gen.bookEvent(m, 1) });
  write({ t: start + 40, resync: gen.bookSummary(m, 0) });
  const end = start + opts.seconds * 1000;
  let t = start + 50;
  let nextPoll = start + 60_000;
  let last = start + 40;
  for (;;) {
    // Poisson arrivals of upstream actions (a match is four events at one receive time).
    t += Math.max(1, Math.round((-Math.log(1 - arrivals.next()) * 1000 * EVENTS_PER_ACTION) / opts.eventsPerSecond));
    if (t > end) break;
    while (nextPoll <= t) {
      write({ t: nextPoll, market: gen.marketInfo(m) });
      last = nextPoll;
      nextPoll += 60_000;
    }
    for (const f of gen.next(t)) {
      write({ t, e: f.event });
      events++;
    }
    last = t;
  }
  writer.flush();
  const name = tapeFileName(m.conditionId, utcDay(start));
  const path = join(dir, name);
  return { name, path, conditionId: m.conditionId, events, entries, spanMs: last - start, bytes: statSync(path).size };
}
