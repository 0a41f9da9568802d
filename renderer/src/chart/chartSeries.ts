/**
 * Pure transforms behind the price chart: the range buttons' query parameters, and the candles built
 * from `/prices-history` buckets (OHLC, volume, closing mid) plus the live trades that arrived after them.
 */

export type ChartRange = '1H' | '6H' | '1D' | '1W' | '1M' | 'ALL';

export interface RangeSpec {
  /** `interval` of GET /prices-history. */
  interval: '1h' | '6h' | '1d' | '1w' | '1m' | 'max';
  /** Candle width in minutes: 60–100 candles a range, wide enough to read. */
  fidelity: number;
  /** Window length in seconds; undefined = everything. */
  seconds: number | undefined;
}

export const RANGES: Record<ChartRange, RangeSpec> = {
  '1H': { interval: '1h', fidelity: 1, seconds: 3600 },
  '6H': { interval: '6h', fidelity: 5, seconds: 6 * 3600 },
  '1D': { interval: '1d', fidelity: 15, seconds: 86_400 },
  '1W': { interval: '1w', fidelity: 120, seconds: 7 * 86_400 },
  '1M': { interval: '1m', fidelity: 480, seconds: 30 * 86_400 },
  ALL: { interval: 'max', fidelity: 60, seconds: undefined },
};

export const RANGE_ORDER: ChartRange[] = ['1H', '6H', '1D', '1W', '1M', 'ALL'];

/** What the chart draws: the trades' candles, or the book's closing mid. */
export type ChartMode = 'last' | 'mid';

/** A `/prices-history` bucket; engines without the candle fields send only `t` and `p`. */
export interface HistoryBucket {
  t: number;
  p: number;
  o?: number;
  h?: number;
  l?: number;
  c?: number;
  v?: number;
  m?: number;
}

/** One candle: unix seconds of its start, prices as numbers (display only; money stays decimal text elsewhere). */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Shares traded. */
  volume: number;
  /** The book's mid at the close, when known. */
  mid?: number;
}

/** A live trade already seen from the charted outcome (price in that outcome's terms). */
export interface LiveTrade {
  /** Unix seconds as text, as the trade record carries it. */
  match_time: string;
  price: string;
  /** Shares, decimal text. */
  size: string;
}

/**
 * History candles up to where the tape's trades begin, then candles built from those trades, inside the
 * range window, ascending (as lightweight-charts requires). A bucket the tape overlaps is rebuilt from the
 * trades themselves (so it moves live), keeping the history's closing mid for it — unless the history's
 * bucket holds more volume than the tape's trades do: the two are fetched at different moments, and a
 * bucket's volume only grows, so the larger one is the later (fuller) picture of that bucket.
 */
/** `trades` as the tape answers them: newest first. */
export function buildCandles(history: readonly HistoryBucket[], trades: readonly LiveTrade[], range: ChartRange, nowSec: number): Candle[] {
  const spec = RANGES[range];
  const width = spec.fidelity * 60;
  const from = spec.seconds === undefined ? -Infinity : nowSec - spec.seconds;
  // Oldest first. match_time has whole seconds and the tape answers newest first, so within one second
  // the later of two trades in the tape is the older one.
  const live = trades
    .map((t, i) => ({ time: Number(t.match_time), price: Number(t.price), size: Number(t.size), i }))
    .filter((t) => Number.isInteger(t.time) && Number.isFinite(t.price) && t.time >= from)
    .sort((a, b) => a.time - b.time || b.i - a.i);
  const tapeStart = live.length > 0 ? Math.floor(live[0]!.time / width) * width : Infinity;
  const byTime = new Map<number, Candle>();
  const mids = new Map<number, number>();
  const fromHistory = new Map<number, Candle>();
  for (const h of history) {
    if (!Number.isFinite(h.t) || !Number.isFinite(h.p) || h.t + width <= from) continue;
    if (h.m !== undefined) mids.set(h.t, h.m);
    const c: Candle = { time: h.t, open: h.o ?? h.p, high: h.h ?? h.p, low: h.l ?? h.p, close: h.c ?? h.p, volume: h.v ?? 0 };
    if (h.m !== undefined) c.mid = h.m;
    if (h.t >= tapeStart) fromHistory.set(h.t, c);
    else byTime.set(h.t, c);
  }
  for (const t of live) {
    const start = Math.floor(t.time / width) * width;
    const c = byTime.get(start);
    if (c) {
      c.high = Math.max(c.high, t.price);
      c.low = Math.min(c.low, t.price);
      c.close = t.price;
      c.volume += Number.isFinite(t.size) ? t.size : 0;
    } else {
      const fresh: Candle = { time: start, open: t.price, high: t.price, low: t.price, close: t.price, volume: Number.isFinite(t.size) ? t.size : 0 };
      const m = mids.get(start);
      if (m !== undefined) fresh.mid = m;
      byTime.set(start, fresh);
    }
  }
  for (const [start, h] of fromHistory) {
    const c = byTime.get(start);
    if (!c || h.volume > c.volume) byTime.set(start, h);
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/** Change from the first to the last close (or mid), for the chart's header. */
export function seriesChange(candles: readonly Candle[], mode: ChartMode = 'last'): { last: number; change: number } | undefined {
  const values = candles.map((c) => (mode === 'mid' ? c.mid : c.close)).filter((v): v is number => v !== undefined);
  if (values.length === 0) return undefined;
  const last = values[values.length - 1]!;
  return { last, change: last - values[0]! };
}
