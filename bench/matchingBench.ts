/**
 * Matching-core benchmark: one deterministic stream of mixed orders on a DEEP prediction-market book
 * (tick 0.001, hundreds of levels and tens of thousands of resting orders per book; passive and marketable
 * limits, market orders, FAK and FOK, cancels of live and dead orders; see `generateStream`), replayed on
 * our OrderBook and, translated to each library's API, on the npm order books nodejs-order-book,
 * hft-limit-order-book and limit-order-book. Reports orders/s in wall-clock and in CPU time (best of several
 * runs after a warm-up), each library beside ours on exactly the orders it ran under one protocol for both
 * (see `measureLibrary`), and the load average: the machine may be shared, and wall-clock figures on a
 * loaded machine understate both.
 *
 * Run alone: `npx tsx bench/matchingBench.ts [orders]`.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import * as NodejsOrderBook from 'nodejs-order-book';
import * as HftLimitOrderBook from 'hft-limit-order-book';
import { OrderBook } from '../engine/book/orderBook.js';
import { createSeededRandom } from '../engine/book/seededRandom.js';
import { PRICE_ONE, type BookSide, type Level, type OrderIn } from '../engine/book/types.js';

export interface MatchingBenchOptions {
  /** Stream length (default 1,000,000). */
  orders?: number;
  /** Wall-clock budget per library (its warm-up and measured runs), in seconds, before it is measured on a prefix only (default 20). */
  librarySeconds?: number;
  /** Measured runs after the warm-up: ours on the full stream (default 5); each library and ours on its prefix (up to 3, the same number for both). */
  runs?: number;
  /** Skip the npm libraries (for a quick look at our own figure). */
  skipLibraries?: boolean;
}

export interface StreamMix {
  gtcPassive: number;
  gtcMarketable: number;
  market: number;
  fak: number;
  fok: number;
  cancel: number;
}

export interface BookFigure {
  name: string;
  version: string;
  /** Orders processed per second of wall-clock time (best run). */
  ordersPerSecond: number;
  /** Orders processed per second of this process's CPU time (best run): steadier on a loaded machine. */
  ordersPerCpuSecond: number;
  /** How many orders of the stream one measured run processed (the whole stream unless `fullStream` is false). */
  ordersMeasured: number;
  fullStream: boolean;
  runs: number;
  /** For a library: our orders/s on exactly the orders it was measured on, under the same protocol (warm-up, rounds alternating with it, best of the same number of runs). */
  oursOnSameOrders?: number;
  /** The same, per CPU second. */
  oursOnSameOrdersCpu?: number;
  /** True when its final book (aggregated levels) equals ours after the same orders; undefined when not comparable. */
  sameFinalBook?: boolean;
  note?: string;
  error?: string;
}

export interface MatchingBenchResult {
  orders: number;
  mix: StreamMix;
  /** Our book after the whole stream: resting orders and levels per side, and fills produced. */
  finalBook: { orders: number; bidLevels: number; askLevels: number; fills: number };
  ours: BookFigure;
  libraries: BookFigure[];
  /** The library with the smallest like-for-like ratio (ours on its orders ÷ it, measured back to back). */
  fastestLibrary?: string;
  /** That smallest ratio, wall-clock: the figure the ≥ 30× target is checked against. */
  ratioToFastest?: number;
  /** The same ratio in CPU time. */
  ratioToFastestCpu?: number;
  /** 1-minute load average when the measurement started and ended (the machine may be shared). */
  loadAverage: { start: number; end: number; cpus: number };
}

/** An order of the stream: the libraries name it by its id; our book by the handle it returns. */
type StreamOrder = OrderIn & { readonly id: string };

/**
 * One stream operation, precomputed so the timed loops measure matching only. Places are numbered in
 * stream order (`seq`); a cancel names its order by id for the libraries and by that number for ours
 * (`target`, −1 for an id never placed), which is how the engine drives our book: the order service maps
 * its order to the handle the book returned (see `runOurs`).
 */
type StreamOp = { kind: 'place'; order: StreamOrder; market: boolean; seq: number } | { kind: 'cancel'; id: string; target: number };

const TICK = 1_000; // 0.001: the fine tick prediction markets use, so prices have 999 possible levels
const MIN_TICK = 1;
const MAX_TICK = 999;

/**
 * Builds the stream: a prediction-market book as it looks mid-session, DEEP on both sides.
 *
 * Who sends what (shares of the 1,000,000 messages as generated with the default seed). Real venues see
 * mostly quotes and cancels and a minority of liquidity-taking orders, with high cancel-to-trade ratios:
 *
 * - Ladder liquidity providers (17.7 %, including their opening ladders: 25,000 quotes among the first
 *   50,000 messages): layer GTC quotes from the touch out to a few hundred ticks away (distance
 *   exponential, mean 90 ticks), 10–500 shares, and leave them for a long time (lifetime exponential with
 *   mean 200,000 messages; a tenth are never cancelled). They give the book its depth: 27,000–50,000
 *   resting orders on 400–550 levels per side through the session, the "DEEP books".
 * - Market makers (34.2 %): quote 1 to ~15 ticks behind the mid (distance 1 + exponential, mean 4),
 *   1–50 shares, and cancel/replace quickly (lifetime exponential, mean 2,000 messages).
 * - Cancels (30.0 %): 26.2 % hit live quotes; providers see their fills and skip cancelling filled quotes
 *   except in the odd race with a fill in flight (2.7 %, dead ids); 1.0 % name ids never on the book
 *   (client retries, orders that were killed).
 * - Takers (18.1 %): marketable GTC limits 0–3 ticks through the mid whose rest rests (7.3 %), market
 *   orders (FAK at the extreme price, 6.4 %), FAK limits (2.7 %) and FOK limits (1.8 %), 1–100 shares
 *   with one in twenty a large sweep of 100–2,000 shares.
 *
 * The mid random-walks one tick at a time inside [0.15, 0.85], so price moves sweep levels and far
 * ladder orders get filled over the session. Nothing here targets a weakness of any book: no pathological
 * queue shapes, no self-crossing storms; every book gets the same messages in the same order.
 */
export function generateStream(count: number, seed = 42): { ops: StreamOp[]; mix: StreamMix; places: number } {
  const rnd = createSeededRandom(seed);
  const ops: StreamOp[] = [];
  const mix: StreamMix = { gtcPassive: 0, gtcMarketable: 0, market: 0, fak: 0, fok: 0, cancel: 0 };
  const cancelsDue = new Map<number, string[]>();
  let mid = 500; // in ticks
  let t = 0;
  let nextId = 0;
  // Ids look like the engine's (26-character ULIDs: time then random part), since hashing and comparing
  // ids is part of every book's work; they come from their own generator so they do not change the flow.
  const idRnd = createSeededRandom(seed ^ 0x5bd1e995);
  const newId = () => ulidLike(1_763_800_000_000 + (nextId++ >> 3), idRnd);
  const shares = (lo: number, hi: number) => rnd.int(lo * 10, hi * 10) * 100_000; // in tenths of a share
  const exp = (mean: number) => -Math.log(1 - rnd.next()) * mean;
  const clampTicks = (ticks: number) => Math.min(MAX_TICK, Math.max(MIN_TICK, Math.round(ticks)));
  const seqOf = new Map<string, number>();
  let places = 0;
  const scheduleCancel = (id: string, lifetime: number) => {
    const at = t + 1 + Math.floor(lifetime);
    const list = cancelsDue.get(at);
    if (list === undefined) cancelsDue.set(at, [id]);
    else list.push(id);
  };
  // A shadow book tells a provider whether its quote is still resting: providers see their fills and do
  // not cancel filled quotes, except in the odd race with a fill in flight (a cancel of a dead id).
  const shadow = new OrderBook();
  const shadowHandles = new Map<string, number>();
  const onShadow = (id: string) => shadow.get(shadowHandles.get(id) ?? -1) !== undefined;
  const push = (op: StreamOp, kind: keyof StreamMix) => {
    ops.push(op);
    mix[kind]++;
    if (op.kind === 'place') {
      const r = shadow.place(op.order);
      if (r.rested) shadowHandles.set(op.order.id, r.handle);
    } else shadow.cancel(shadowHandles.get(op.id) ?? -1);
  };
  const place = (order: StreamOrder, market: boolean, kind: keyof StreamMix) => {
    seqOf.set(order.id, places);
    push({ kind: 'place', order, market, seq: places++ }, kind);
  };
  const cancel = (id: string) => push({ kind: 'cancel', id, target: seqOf.get(id) ?? -1 }, 'cancel');
  const quote = (side: BookSide, distanceTicks: number, size: number) => {
    const id = newId();
    const dir = side === 'bid' ? 1 : -1;
    place({ id, side, price: clampTicks(mid - dir * distanceTicks) * TICK, size, tif: 'GTC' }, false, 'gtcPassive');
    return id;
  };
  const ladderQuote = () => {
    const id = quote(rnd.next() < 0.5 ? 'bid' : 'ask', 1 + exp(90), shares(10, 500));
    if (rnd.next() < 0.9) scheduleCancel(id, exp(200_000));
  };
  const OPENING_LADDERS = Math.min(25_000, Math.floor(count / 40));

  while (ops.length < count) {
    const due = cancelsDue.get(t);
    if (due !== undefined) {
      cancelsDue.delete(t);
      for (const id of due) {
        if (ops.length >= count) break;
        if (onShadow(id) || rnd.next() < 0.15) cancel(id);
      }
      if (ops.length >= count) break;
    }
    t++;
    if (rnd.next() < 0.01) mid = Math.min(850, Math.max(150, mid + (rnd.next() < 0.5 ? -1 : 1)));
    // The session opens with the ladder providers posting their ladders among the first messages.
    if (nextId < OPENING_LADDERS * 2 && rnd.next() < 0.5) {
      ladderQuote();
      continue;
    }
    const side: BookSide = rnd.next() < 0.5 ? 'bid' : 'ask';
    const dir = side === 'bid' ? 1 : -1;
    const roll = rnd.next();
    if (roll < 0.22) ladderQuote();
    else if (roll < 0.72) {
      const id = quote(side, 1 + exp(4), shares(1, 50));
      if (rnd.next() < 0.95) scheduleCancel(id, exp(2_000));
    } else if (roll < 0.735) {
      cancel(newId());
    } else {
      const id = newId();
      const size = rnd.next() < 0.95 ? shares(1, 100) : shares(100, 2_000);
      const taker = rnd.next();
      if (taker < 0.4) {
        place({ id, side, price: clampTicks(mid + dir * rnd.int(0, 3)) * TICK, size, tif: 'GTC' }, false, 'gtcMarketable');
      } else if (taker < 0.75) {
        place({ id, side, price: side === 'bid' ? PRICE_ONE - 1 : 1, size, tif: 'FAK' }, true, 'market');
      } else if (taker < 0.9) {
        place({ id, side, price: clampTicks(mid + dir * rnd.int(0, 5)) * TICK, size, tif: 'FAK' }, false, 'fak');
      } else {
        place({ id, side, price: clampTicks(mid + dir * rnd.int(0, 5)) * TICK, size, tif: 'FOK' }, false, 'fok');
      }
    }
  }
  return { ops, mix, places };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-shaped id (10 time characters, 16 random ones) drawn from a seeded generator. */
function ulidLike(ms: number, rnd: ReturnType<typeof createSeededRandom>): string {
  const chars: string[] = new Array<string>(26);
  let t = ms;
  for (let i = 9; i >= 0; i--) {
    chars[i] = CROCKFORD[t % 32]!;
    t = Math.floor(t / 32);
  }
  for (let i = 10; i < 26; i++) chars[i] = CROCKFORD[rnd.int(0, 31)]!;
  return chars.join('');
}

/** A book under test: a fresh instance per run, fed the stream from 0 to `end`. */
interface Contender {
  name: string;
  pkg?: string;
  note?: string;
  run(ops: readonly StreamOp[], end: number): unknown;
  /** Aggregated levels after a run, best first, when the library exposes them. */
  levels?(book: unknown): { bids: Level[]; asks: Level[] };
}

/**
 * Ours as the engine drives it: each placed order's handle (−1 when it did not rest) is kept by stream
 * number, as the order service keeps it on its order, and a cancel sends the book that handle, stale
 * when the order was filled or cancelled meanwhile (the book refuses it, as the libraries refuse a dead
 * id). The handle array is allocated inside the run: its cost is ours.
 */
function runOurs(ops: readonly StreamOp[], end: number): OrderBook {
  const book = new OrderBook();
  const handles = new Float64Array(end);
  for (let i = 0; i < end; i++) {
    const op = ops[i]!;
    if (op.kind === 'place') handles[op.seq] = book.place(op.order).handle;
    else book.cancel(op.target < 0 ? -1 : handles[op.target]!);
  }
  return book;
}

/** Fills our book produces on the stream (untimed). */
function countFills(ops: readonly StreamOp[]): number {
  const book = new OrderBook();
  const handles = new Float64Array(ops.length);
  let fills = 0;
  for (const op of ops) {
    if (op.kind === 'place') {
      const r = book.place(op.order);
      handles[op.seq] = r.handle;
      fills += r.fills.length;
    } else book.cancel(op.target < 0 ? -1 : handles[op.target]!);
  }
  return fills;
}

interface FasenderosBook {
  limit(o: { id: string; side: 'buy' | 'sell'; size: number; price: number; timeInForce?: 'GTC' | 'FOK' | 'IOC' }): unknown;
  market(o: { side: 'buy' | 'sell'; size: number }): unknown;
  cancel(id: string): unknown;
  depth(): [Array<[number, number]>, Array<[number, number]>];
}

/** nodejs-order-book and hft-limit-order-book share one API (same author; the first is the successor). */
function fasenderos(name: string, pkg: string, create: () => FasenderosBook): Contender {
  const tif = { GTC: 'GTC', FAK: 'IOC', FOK: 'FOK' } as const;
  return {
    name,
    pkg,
    note: 'limit() with timeInForce GTC/IOC/FOK, market() for market orders, cancel()',
    run(ops, end) {
      const book = create();
      for (let i = 0; i < end; i++) {
        const op = ops[i]!;
        if (op.kind === 'cancel') book.cancel(op.id);
        else {
          const o = op.order;
          const side = o.side === 'bid' ? 'buy' : 'sell';
          if (op.market) book.market({ side, size: o.size });
          else book.limit({ id: o.id, side, size: o.size, price: o.price, timeInForce: tif[o.tif] });
        }
      }
      return book;
    },
    levels(book) {
      const [asks, bids] = (book as FasenderosBook).depth();
      const toLevels = (rows: Array<[number, number]>) => rows.map(([price, size]) => ({ price, size }));
      return {
        bids: toLevels(bids).sort((a, b) => b.price - a.price),
        asks: toLevels(asks).sort((a, b) => a.price - b.price),
      };
    },
  };
}

interface RhodeyBook {
  add(order: unknown): unknown;
  remove(id: string): unknown;
  orders: Record<string, unknown>;
  bidLevels: { queue: Array<{ price: string; queue: Array<{ sizeRemaining: string }> }> };
  askLevels: { queue: Array<{ price: string; queue: Array<{ sizeRemaining: string }> }> };
}
interface RhodeyLib {
  LimitOrderBook: new (opts: { symbol: string; priceStep: string; sizeStep: string }) => RhodeyBook;
  LimitOrder: new (id: string, side: BookSide, price: string, size: string) => unknown;
  MarketOrder: new (id: string, side: BookSide, size: string) => unknown;
}

/** limit-order-book: decimal strings, no time-in-force; orders are mutable objects, so they are built per run. */
function rhodey(lib: RhodeyLib): Contender {
  return {
    name: 'limit-order-book',
    pkg: 'limit-order-book',
    note: 'no time-in-force: FAK and FOK are sent as limits whose unfilled rest is removed at once (so its FOK behaves as FAK); prices and sizes as integer strings (step 1)',
    run(ops, end) {
      const book = new lib.LimitOrderBook({ symbol: 'BENCH', priceStep: '1', sizeStep: '1' });
      for (let i = 0; i < end; i++) {
        const op = ops[i]!;
        if (op.kind === 'cancel') book.remove(op.id);
        else {
          const o = op.order;
          if (op.market) book.add(new lib.MarketOrder(o.id, o.side, String(o.size)));
          else {
            book.add(new lib.LimitOrder(o.id, o.side, String(o.price), String(o.size)));
            if (o.tif !== 'GTC' && book.orders[o.id] !== undefined) book.remove(o.id);
          }
        }
      }
      return book;
    },
    levels(book) {
      const side = (q: RhodeyBook['bidLevels']) =>
        q.queue.map((l) => ({ price: Number(l.price), size: l.queue.reduce((s, o) => s + Number(o.sizeRemaining), 0) }));
      return { bids: side((book as RhodeyBook).bidLevels), asks: side((book as RhodeyBook).askLevels) };
    },
  };
}

function timeRun(contender: Pick<Contender, 'run'>, ops: readonly StreamOp[], end: number): { seconds: number; cpuSeconds: number; book: unknown } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const book = contender.run(ops, end);
  const seconds = (performance.now() - started) / 1_000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, book };
}

/** Best wall and best CPU time of `runs` runs. */
function bestOf(runs: number, contender: Pick<Contender, 'run'>, ops: readonly StreamOp[], end: number): { seconds: number; cpuSeconds: number } {
  let seconds = Infinity;
  let cpuSeconds = Infinity;
  for (let i = 0; i < runs; i++) {
    const r = timeRun(contender, ops, end);
    seconds = Math.min(seconds, r.seconds);
    cpuSeconds = Math.min(cpuSeconds, r.cpuSeconds);
  }
  return { seconds, cpuSeconds };
}

function packageVersion(pkg: string): string {
  try {
    const require = createRequire(import.meta.url);
    let dir = dirname(require.resolve(pkg));
    for (let i = 0; i < 5; i++, dir = dirname(dir)) {
      try {
        const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (json.name === pkg && json.version) return json.version;
      } catch {
        // not this directory; keep walking up
      }
    }
  } catch {
    // fall through
  }
  return 'unknown';
}

function sameLevels(a: { bids: Level[]; asks: Level[] }, b: { bids: Level[]; asks: Level[] }): boolean {
  const eq = (x: Level[], y: Level[]) => x.length === y.length && x.every((l, i) => l.price === y[i]!.price && l.size === y[i]!.size);
  return eq(a.bids, b.bids) && eq(a.asks, b.asks);
}

/**
 * A library and ours on the same prefix of the stream, under one protocol for both sides:
 *
 * - the prefix length comes from a short probe (two runs on the first 20,000 orders), so that a warm-up
 *   and `runs` measured runs of the library fit the budget; if the warm-up shows the probe was optimistic
 *   (early orders are cheaper than later ones), the prefix is cut to what fits;
 * - warm-up: one untimed run on exactly that prefix for EACH side, so neither is timed with a cold JIT or
 *   with type feedback that has not seen the deep book yet;
 * - then `runs` rounds, each timing the library and then ours on a fresh book, so both see the same machine
 *   load; every round runs for both (no early stop) and each side's figure is its best round;
 * - nothing of one side is alive while the other is timed (the library's final levels are read right after
 *   its run and the book dropped), so neither pays to mark or move the other's data. No forced GC between
 *   runs: a forced full collection throws away optimised code that embeds objects it frees, which would
 *   charge a re-warm-up to whoever runs next.
 */
function measureLibrary(c: Contender, ops: readonly StreamOp[], budgetSeconds: number, runs: number): BookFigure {
  const base = { name: c.name, version: c.pkg ? packageVersion(c.pkg) : 'n/a', ...(c.note ? { note: c.note } : {}) };
  try {
    const probe = Math.min(ops.length, 20_000);
    timeRun(c, ops, probe);
    const probeRun = timeRun(c, ops, probe);
    const perRunBudget = budgetSeconds / (runs + 1);
    const fit = (rate: number) => (rate * perRunBudget >= ops.length ? ops.length : Math.max(probe, Math.floor(rate * perRunBudget)));
    let end = fit(probe / Math.max(probeRun.seconds, 1e-6));
    const warm = timeRun(c, ops, end);
    if (warm.seconds > perRunBudget * 1.25) end = Math.min(end, fit(end / warm.seconds));
    warm.book = undefined;
    runOurs(ops, end);

    let best = Infinity;
    let bestCpu = Infinity;
    let oursBest = Infinity;
    let oursBestCpu = Infinity;
    let libraryLevels: { bids: Level[]; asks: Level[] } | undefined;
    for (let i = 0; i < runs; i++) {
      const r = timeRun(c, ops, end);
      best = Math.min(best, r.seconds);
      bestCpu = Math.min(bestCpu, r.cpuSeconds);
      if (i === runs - 1 && c.levels) libraryLevels = c.levels(r.book);
      r.book = undefined;
      const o = timeRun({ run: runOurs }, ops, end);
      oursBest = Math.min(oursBest, o.seconds);
      oursBestCpu = Math.min(oursBestCpu, o.cpuSeconds);
    }
    const figure: BookFigure = {
      ...base,
      ordersPerSecond: end / best,
      ordersPerCpuSecond: end / bestCpu,
      ordersMeasured: end,
      fullStream: end === ops.length,
      runs,
      oursOnSameOrders: end / oursBest,
      oursOnSameOrdersCpu: end / oursBestCpu,
    };
    if (libraryLevels && c.name !== 'limit-order-book') {
      const ours = runOurs(ops, end);
      figure.sameFinalBook = sameLevels(libraryLevels, { bids: ours.levels('bid'), asks: ours.levels('ask') });
    }
    if (!figure.fullStream) {
      figure.note = `${figure.note ? figure.note + '; ' : ''}too slow for the whole stream within ${budgetSeconds} s (warm-up and ${runs} runs): measured on the first ${end.toLocaleString('en-US')} orders`;
    }
    return figure;
  } catch (err) {
    return { ...base, ordersPerSecond: 0, ordersPerCpuSecond: 0, ordersMeasured: 0, fullStream: false, runs: 0, error: err instanceof Error ? err.message : String(err) };
  }
}

export async function runMatchingBench(opts: MatchingBenchOptions = {}): Promise<MatchingBenchResult> {
  const count = opts.orders ?? 1_000_000;
  const { ops, mix } = generateStream(count);
  const loadStart = loadavg()[0]!;

  // Ours: warm-up (JIT) on the whole stream, then the best of several full runs.
  const ourRuns = opts.runs ?? 5;
  runOurs(ops, ops.length);
  const best = bestOf(ourRuns, { run: runOurs }, ops, ops.length);
  const finalBook = runOurs(ops, ops.length);
  const fills = countFills(ops);
  const ours: BookFigure = {
    name: 'ours (engine/book/orderBook.ts)',
    version: 'n/a',
    ordersPerSecond: ops.length / best.seconds,
    ordersPerCpuSecond: ops.length / best.cpuSeconds,
    ordersMeasured: ops.length,
    fullStream: true,
    runs: ourRuns,
  };

  const libraries: BookFigure[] = [];
  if (!opts.skipLibraries) {
    const budget = opts.librarySeconds ?? 20;
    const libraryRuns = Math.min(3, opts.runs ?? 3);
    const contenders: Contender[] = [
      fasenderos('nodejs-order-book', 'nodejs-order-book', () => new NodejsOrderBook.OrderBook() as unknown as FasenderosBook),
      fasenderos('hft-limit-order-book', 'hft-limit-order-book', () => new HftLimitOrderBook.OrderBook() as unknown as FasenderosBook),
      // limit-order-book ships no type declarations: load it untyped and describe the part we use.
      rhodey(createRequire(import.meta.url)('limit-order-book') as RhodeyLib),
    ];
    for (const c of contenders) {
      libraries.push(measureLibrary(c, ops, budget, libraryRuns));
      await new Promise((resolve) => setImmediate(resolve)); // let the caller's event loop breathe between libraries
    }
  }

  // Like for like: each library against ours on the very orders it ran, measured back to back.
  const ratio = (l: BookFigure) => (l.oursOnSameOrders ?? 0) / l.ordersPerSecond;
  const measured = libraries.filter((l) => l.ordersPerSecond > 0 && l.oursOnSameOrders !== undefined);
  const fastest = measured.reduce<BookFigure | undefined>((a, l) => (a === undefined || ratio(l) < ratio(a) ? l : a), undefined);
  return {
    orders: ops.length,
    mix,
    finalBook: { orders: finalBook.orderCount, bidLevels: finalBook.levels('bid').length, askLevels: finalBook.levels('ask').length, fills },
    ours,
    libraries,
    ...(fastest
      ? { fastestLibrary: fastest.name, ratioToFastest: ratio(fastest), ratioToFastestCpu: (fastest.oursOnSameOrdersCpu ?? 0) / fastest.ordersPerCpuSecond }
      : {}),
    loadAverage: { start: loadStart, end: loadavg()[0]!, cpus: availableParallelism() },
  };
}

export function formatMatchingBench(r: MatchingBenchResult): string {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const rows = [r.ours, ...r.libraries].map((f) => {
    const measured = f.fullStream ? 'full stream' : `prefix ${fmt(f.ordersMeasured)}`;
    const same = f.sameFinalBook === undefined ? '' : f.sameFinalBook ? 'same final book' : 'final book DIFFERS';
    const rate = f.error ? `error: ${f.error}` : `${fmt(f.ordersPerSecond).padStart(11)} orders/s (${fmt(f.ordersPerCpuSecond)} per CPU s)`;
    const vsOurs =
      f.oursOnSameOrders && f.oursOnSameOrdersCpu
        ? `; ours on the same orders ${fmt(f.oursOnSameOrders)}/s = ${(f.oursOnSameOrders / f.ordersPerSecond).toFixed(1)}× (CPU: ${fmt(f.oursOnSameOrdersCpu)}/s = ${(f.oursOnSameOrdersCpu / f.ordersPerCpuSecond).toFixed(1)}×)`
        : '';
    return `  ${f.name.padEnd(34)} ${f.version.padEnd(8)} ${rate}  ${measured}, best of ${f.runs}${same ? ', ' + same : ''}${vsOurs}`;
  });
  const m = r.mix;
  const lines = [
    `matching: ${fmt(r.orders)} orders (passive GTC ${fmt(m.gtcPassive)}, marketable GTC ${fmt(m.gtcMarketable)}, market ${fmt(m.market)}, FAK ${fmt(m.fak)}, FOK ${fmt(m.fok)}, cancel ${fmt(m.cancel)}); ${fmt(r.finalBook.fills)} fills; final book ${fmt(r.finalBook.orders)} orders on ${r.finalBook.bidLevels}+${r.finalBook.askLevels} levels`,
    ...rows,
  ];
  if (r.fastestLibrary && r.ratioToFastest !== undefined) {
    lines.push(`  ours / fastest library on the same orders (${r.fastestLibrary}): ${r.ratioToFastest.toFixed(1)}× wall-clock, ${(r.ratioToFastestCpu ?? 0).toFixed(1)}× CPU time`);
  }
  const load = r.loadAverage;
  lines.push(`  load average ${load.start.toFixed(2)} at the start, ${load.end.toFixed(2)} at the end, on ${load.cpus} CPUs (above ${load.cpus}, the figures are depressed)`);
  for (const f of r.libraries) if (f.note) lines.push(`  note ${f.name}: ${f.note}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = process.argv[2];
  const result = await runMatchingBench(arg ? { orders: Number(arg) } : {});
  console.log(formatMatchingBench(result));
}
