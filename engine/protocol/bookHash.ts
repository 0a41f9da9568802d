/**
 * Order-book snapshot serialisation and its hash (trading-api.md §10): SHA-1, lower-case hex, of the
 * compact JSON of the snapshot in its own key order with "hash" set to "". The engine emits the server
 * key order `market, asset_id, timestamp, hash, bids, asks, min_order_size, tick_size, neg_risk,
 * last_trade_price`, so every public client (which re-hashes in that order) reproduces the hash.
 */
import crypto, { createHash } from 'node:crypto';

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

/** One-shot hashing where the runtime has it (Node ≥ 20.12): no Hash object per call, and fewer copies. */
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;

export function sha1Hex(text: string): string {
  return oneShot ? oneShot('sha1', text) : createHash('sha1').update(text).digest('hex');
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

/** A snapshot's text up to its timestamp's value: the same for every snapshot of an asset, so a publisher keeps it. */
export function snapshotHead(market: string, assetId: string): string {
  return '{"market":' + JSON.stringify(market) + ',"asset_id":' + JSON.stringify(assetId) + ',"timestamp":';
}

/** A snapshot's text after its asks: the same while the market's terms and the last trade price stay. */
export function snapshotTail(s: Pick<BookSnapshot, 'min_order_size' | 'tick_size' | 'neg_risk' | 'last_trade_price'>): string {
  return (
    ',"min_order_size":' +
    JSON.stringify(s.min_order_size) +
    ',"tick_size":' +
    JSON.stringify(s.tick_size) +
    ',"neg_risk":' +
    (s.neg_risk ? 'true' : 'false') +
    ',"last_trade_price":' +
    JSON.stringify(s.last_trade_price) +
    '}'
  );
}

/** Where snapshotHash writes a snapshot's bytes: reused (hashing is synchronous), grown as needed. */
let scratch = Buffer.allocUnsafeSlow(16 * 1024);

/**
 * The hash renderBookSnapshot gives, from the snapshot's parts (the head and tail above, each side's
 * levels as compact JSON WITHOUT the array's brackets), without building the snapshot: the market stream
 * hashes every changed asset and never sends the snapshot. The parts are written into one reused buffer
 * and hashed from there; hashing their concatenation would first copy it into one more string.
 */
export function snapshotHash(head: string, timestamp: string, bidLevels: string, askLevels: string, tail: string): string {
  const ts = JSON.stringify(timestamp);
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  const most = 3 * (head.length + ts.length + bidLevels.length + askLevels.length + tail.length) + 64;
  if (scratch.length < most) scratch = Buffer.allocUnsafeSlow(2 * most);
  const b = scratch;
  let n = b.write(head, 0);
  n += b.write(ts, n);
  n += b.write(',"hash":"","bids":[', n);
  n += b.write(bidLevels, n);
  n += b.write('],"asks":[', n);
  n += b.write(askLevels, n);
  n += b.write(']', n);
  n += b.write(tail, n);
  return oneShot ? oneShot('sha1', b.subarray(0, n)) : createHash('sha1').update(b.subarray(0, n)).digest('hex');
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
  const head = snapshotHead(s.market, s.asset_id) + JSON.stringify(s.timestamp) + ',"hash":"';
  const tail = snapshotTail(s);
  const hash = createHash('sha1')
    .update(head + '","bids":')
    .update(s.bids.bytes)
    .update(',"asks":')
    .update(s.asks.bytes)
    .update(tail)
    .digest('hex');
  return { json: head + hash + '","bids":' + s.bids.json + ',"asks":' + s.asks.json + tail, hash };
}
