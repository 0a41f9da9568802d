/**
 * Pure transforms behind the price chart: the range buttons' query parameters, and the line series
 * built from `/prices-history` buckets plus the live trades that arrived after the last bucket.
 */

export type ChartRange = '1H' | '6H' | '1D' | '1W' | '1M' | 'ALL';

export interface RangeSpec {
  /** `interval` of GET /prices-history. */
  interval: '1h' | '6h' | '1d' | '1w' | '1m' | 'max';
  /** Bucket width in minutes: a few hundred points at most per range. */
  fidelity: number;
  /** Window length in seconds; undefined = everything. */
  seconds: number | undefined;
}

export const RANGES: Record<ChartRange, RangeSpec> = {
  '1H': { interval: '1h', fidelity: 1, seconds: 3600 },
  '6H': { interval: '6h', fidelity: 1, seconds: 6 * 3600 },
  '1D': { interval: '1d', fidelity: 5, seconds: 86_400 },
  '1W': { interval: '1w', fidelity: 30, seconds: 7 * 86_400 },
  '1M': { interval: '1m', fidelity: 180, seconds: 30 * 86_400 },
  ALL: { interval: 'max', fidelity: 60, seconds: undefined },
};

export const RANGE_ORDER: ChartRange[] = ['1H', '6H', '1D', '1W', '1M', 'ALL'];

/** One chart point: unix seconds and the price as a number (display only; money stays decimal text elsewhere). */
export interface ChartPoint {
  time: number;
  value: number;
}

/** A live trade already seen from the charted outcome (price in that outcome's terms). */
export interface LiveTrade {
  /** Unix seconds as text, as the trade record carries it. */
  match_time: string;
  price: string;
}

/**
 * History buckets up to where the tape's trades begin, then those trades, inside the range window,
 * ascending with one point per second (the last trade of a second wins), as lightweight-charts requires.
 * A bucket is stamped at its start with its last price, so a bucket overlapping the tape would draw
 * that price before the trades that made it: such buckets give way to the trades themselves.
 */
export function buildSeries(history: ReadonlyArray<{ t: number; p: number }>, trades: readonly LiveTrade[], range: ChartRange, nowSec: number): ChartPoint[] {
  const spec = RANGES[range];
  const from = spec.seconds === undefined ? -Infinity : nowSec - spec.seconds;
  const live = trades
    .map((t) => ({ time: Number(t.match_time), value: Number(t.price) }))
    .filter((t) => Number.isInteger(t.time) && Number.isFinite(t.value) && t.time >= from)
    .sort((a, b) => a.time - b.time);
  const tapeStart = live.length > 0 ? live[0]!.time : Infinity;
  const byTime = new Map<number, number>();
  for (const h of history) if (Number.isFinite(h.t) && Number.isFinite(h.p) && h.t + spec.fidelity * 60 <= tapeStart) byTime.set(h.t, h.p);
  for (const t of live) byTime.set(t.time, t.value);
  return [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value }));
}

/** Change from the first to the last point, for the chart's header. */
export function seriesChange(points: readonly ChartPoint[]): { last: number; change: number } | undefined {
  if (points.length === 0) return undefined;
  const last = points[points.length - 1]!.value;
  return { last, change: last - points[0]!.value };
}
