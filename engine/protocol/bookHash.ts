/**
 * Order-book snapshot serialisation and its hash (trading-api.md §10): SHA-1, lower-case hex, of the
 * compact JSON of the snapshot in its own key order with "hash" set to "". The engine emits the server
 * key order `market, asset_id, timestamp, hash, bids, asks, min_order_size, tick_size, neg_risk,
 * last_trade_price`, so every public client (which re-hashes in that order) reproduces the hash.
 */
import { createHash } from 'node:crypto';

export interface BookLevelText {
  price: string;
  size: string;
}

export interface BookSnapshot {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  /** Ascending: best bid last. */
  bids: BookLevelText[];
  /** Descending: best ask last. */
  asks: BookLevelText[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** Hash of any snapshot-like object in ITS OWN key order, as the TypeScript client computes it. */
export function bookHashOf(snapshot: Record<string, unknown>): string {
  return sha1Hex(JSON.stringify({ ...snapshot, hash: '' }));
}

/** Levels as compact JSON (`[{"price":"0.5","size":"10"},...]`) from pre-formatted decimal strings. */
export function levelsJson(levels: readonly BookLevelText[]): string {
  // Prices and sizes are plain decimal strings (digits and one dot), so they need no escaping.
  let out = '[';
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    out += (i === 0 ? '{"price":"' : ',{"price":"') + l.price + '","size":"' + l.size + '"}';
  }
  return out + ']';
}

/** Levels JSON with its UTF-8 bytes, so a cached side is hashed without re-encoding. */
export interface LevelsText {
  json: string;
  bytes: Buffer;
}

export function levelsText(levels: readonly BookLevelText[]): LevelsText {
  const json = levelsJson(levels);
  return { json, bytes: Buffer.from(json, 'latin1') };
}

/**
 * The wire JSON of a snapshot with its hash filled in, built as one string: the hash covers exactly
 * the bytes sent (with "hash":""), and no object is re-serialised per request. The levels are hashed
 * from their bytes, so a side that did not change since the last snapshot costs nothing to re-encode.
 */
export function renderBookSnapshot(
  s: Omit<BookSnapshot, 'hash' | 'bids' | 'asks'> & { bids: LevelsText; asks: LevelsText },
): {
  json: string;
  hash: string;
} {
  const head = '{"market":' + JSON.stringify(s.market) + ',"asset_id":' + JSON.stringify(s.asset_id) + ',"timestamp":' + JSON.stringify(s.timestamp) + ',"hash":"';
  const tail =
    ',"min_order_size":' +
    JSON.stringify(s.min_order_size) +
    ',"tick_size":' +
    JSON.stringify(s.tick_size) +
    ',"neg_risk":' +
    (s.neg_risk ? 'true' : 'false') +
    ',"last_trade_price":' +
    JSON.stringify(s.last_trade_price) +
    '}';
  const hash = createHash('sha1')
    .update(head + '","bids":')
    .update(s.bids.bytes)
    .update(',"asks":')
    .update(s.asks.bytes)
    .update(tail)
    .digest('hex');
  return { json: head + hash + '","bids":' + s.bids.json + ',"asks":' + s.asks.json + tail, hash };
}
