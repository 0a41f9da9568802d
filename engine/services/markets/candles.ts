import { formatUnits } from '../../protocol/amounts.js';

/** One `/prices-history` bucket: today's `{t, p}` (stock clients read only these) plus OHLC, volume and the closing mid. */
export interface Candle {
  /** Bucket start, unix seconds. */
  t: number;
  /** Last trade price of the bucket (= `c`), the field the public service has always sent. */
  p: number;
  o: number;
  h: number;
  l: number;
  c: number;
  /** Shares traded in the bucket. */
  v: number;
  /** Midpoint of the book at the bucket's close; absent when the book had no two-sided quote then. */
  m?: number;
}

/** A fill on the charted token, oldest first; micro-units. */
export interface Print {
  t: number;
  price: bigint;
  size: bigint;
}

// The wire wants numbers; each is parsed from the exact decimal string, never computed in floats.
const num = (micros: bigint): number => Number(formatUnits(micros));

/**
 * Buckets fills into candles of `bucketSec` seconds; buckets without fills are left out, as before.
 * `closingMid(endSec)` gives the outcome's mid (micro-units) last seen before `endSec`.
 */
export function candles(prints: readonly Print[], bucketSec: number, closingMid: (endSec: number) => bigint | undefined = () => undefined): Candle[] {
  const out: Array<{ t: number; o: bigint; h: bigint; l: bigint; c: bigint; v: bigint }> = [];
  for (const pr of prints) {
    const t = Math.floor(pr.t / bucketSec) * bucketSec;
    const last = out[out.length - 1];
    if (last && last.t === t) {
      if (pr.price > last.h) last.h = pr.price;
      if (pr.price < last.l) last.l = pr.price;
      last.c = pr.price;
      last.v += pr.size;
    } else out.push({ t, o: pr.price, h: pr.price, l: pr.price, c: pr.price, v: pr.size });
  }
  return out.map((b) => {
    const mid = closingMid(b.t + bucketSec);
    const candle: Candle = { t: b.t, p: num(b.c), o: num(b.o), h: num(b.h), l: num(b.l), c: num(b.c), v: num(b.v) };
    if (mid !== undefined) candle.m = num(mid);
    return candle;
  });
}
