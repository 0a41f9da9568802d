import type { BookSide } from '../../book/types.js';
import { PRICE_ONE } from '../../book/types.js';
import * as nodeCrypto from 'node:crypto';
import { bookHashOf, sha1Hex } from '../../protocol/bookHash.js';
import type { DecodeResult, MarketDecoder, PublicBookEvent, PublicLevel, PublicMarketIdentity, TapeEntry } from './mirrorTypes.js';
import { checkPrice, FLOOR, microOf } from './upstream/wireDecimal.js';

/**
 * The only reader of upstream wire formats (reference §2.3, §3.2, §4): one TapeEntry in, PublicBookEvents in
 * the book's outcome-0 terms out. Pure and per market: state is the tick, whether a snapshot arrived, the
 * last applied exchange timestamp, what was already said about close/resolution, and recent prints.
 *
 * Rules worth knowing (each is a problem string, never a throw):
 * - Outcome-1 depth (its `book`, its `price_change` rows) is ignored: it is the mirror image of outcome 0.
 * - A `book` or resync whose `hash` is not the py-clob-client hash (bookHash.ts, GET /book key order) is refused
 *   with needsResync. It is checked only when the object carries every field of that form (older `book`
 *   events lack min_order_size/tick_size/neg_risk/last_trade_price, and their hash cannot be recomputed).
 *   `price_change` hashes are not checked: whether they equal the book's hash publicly is unconfirmed (§3.4).
 * - Deltas before the first snapshot, after a tick change (until the next snapshot), or older than the last
 *   applied timestamp are dropped with needsResync (the public channel has no sequence numbers, §3.4).
 * - Prints, deduplicated per match: the public service (and our upstream engine) sends a `last_trade_price`
 *   per token of one match. Prints are keyed by `transaction_hash` (or the timestamp when absent); an
 *   outcome-1 print is converted (1 − p, taker side flipped) and pairs with an outcome-0 print of the same
 *   key, price, size and taker side: whichever of the pair arrives first is emitted, the second is dropped.
 *   So outcome-0 prints are kept, and an outcome-1 print counts only when no outcome-0 print of that match
 *   was seen. Several prints of one transaction (one taker, several makers) are all kept.
 * - Print prices are checked to be inside (0, 1) but not on the tick: a match at an old-grid price right
 *   after a tick change is still a match.
 * - Snapshot levels are emitted best first (bids descending, asks ascending), whatever the wire order.
 */
export interface MarketDecoderOptions {
  /** Check `book`/resync hashes (default true). */
  readonly verifyHash?: boolean;
}

/**
 * Consecutive books whose hash does not match before the decoder concludes the upstream hashes another way
 * (the public algorithm is py-clob-client's, but a service may change it): it then reports that once and
 * stops checking, rather than refusing every book and leaving the market without depth. One lying book
 * between honest ones is still refused.
 */
export const HASH_MISMATCHES_BEFORE_GIVING_UP = 3;

/** How many recent matches the print pairing remembers (both prints of a match arrive in one frame). */
const PRINT_MEMORY = 512;

type Obj = Record<string, unknown>;

export function createMarketDecoder(identity: PublicMarketIdentity, opts: MarketDecoderOptions = {}): MarketDecoder {
  let verifyHash = opts.verifyHash ?? true;
  let mismatches = 0;
  const conditionId = identity.conditionId.toLowerCase();
  const [token0, token1] = identity.tokenIds;
  let tick = identity.tickSize;
  let haveSnapshot = false;
  /** Exchange ms of the snapshot in force and of the last applied delta. */
  let snapshotTs = -1;
  let lastTs = -1;
  let saidClosed = identity.closed || !identity.acceptingOrders;
  let saidResolved = identity.winner !== null;
  /** Match key → unpaired prints of that match (outcome-0 terms), with the outcome they came from. */
  const prints = new Map<string, Array<{ aggressor: BookSide; price: number; size: number; outcome: 0 | 1 }>>();

  function decode(entry: TapeEntry): DecodeResult {
    const out: Out = { events: [], problems: [], needsResync: false };
    if (!isObj(entry)) {
      out.problems.push('a tape entry must be an object {t, e | resync | market}');
      return out;
    }
    if ('resync' in entry) decodeBook(entry.resync, 'resync', out);
    else if ('market' in entry) decodeMarket(entry.market, out);
    else if ('e' in entry) decodeEvent(entry.e, out);
    else out.problems.push('a tape entry must carry e, resync or market');
    return out;
  }

  function decodeEvent(e: unknown, out: Out): void {
    if (typeof e === 'string') return void out.problems.push(`non-JSON frame ignored: ${clip(e)}`);
    if (Array.isArray(e)) return void out.problems.push('an array of events in one entry (a tape entry holds one event object)');
    if (!isObj(e)) return void out.problems.push(`an event must be an object, not ${clip(JSON.stringify(e) ?? String(e))}`);
    if (typeof e.event_type !== 'string') return void out.problems.push('an event without a string event_type');
    if (e.market !== undefined && !sameMarket(e.market)) {
      return void out.problems.push(`${e.event_type} for another market ${clip(String(e.market))}`);
    }
    switch (e.event_type) {
      case 'book':
        return decodeBook(e, 'book', out);
      case 'price_change':
        return decodePriceChange(e, out);
      case 'last_trade_price':
        return decodePrint(e, out);
      case 'tick_size_change':
        return decodeTickChange(e, out);
      case 'market_resolved':
        return decodeResolved(e, out);
      case 'best_bid_ask':
      case 'new_market':
        return; // summaries of what the depth already says, or other markets
      default:
        out.problems.push(`unknown event_type ${clip(e.event_type)} ignored`);
    }
  }

  function decodeBook(raw: unknown, origin: 'book' | 'resync', out: Out): void {
    if (!isObj(raw)) return void out.problems.push(`${origin}: not a book object`);
    const outcome = outcomeOf(raw.asset_id, origin, out);
    if (outcome === undefined) return;
    if (outcome === 1) {
      if (origin === 'resync') out.problems.push('resync: the book is of outcome 1; resync from the outcome-0 token');
      return;
    }
    if (raw.market !== undefined && !sameMarket(raw.market)) {
      return void out.problems.push(`${origin}: book of another market ${clip(String(raw.market))}`);
    }
    if (!Array.isArray(raw.bids) || !Array.isArray(raw.asks)) return void out.problems.push(`${origin}: bids and asks must be arrays`);
    const ts = timestampOf(raw.timestamp);
    if (ts === undefined) return void out.problems.push(`${origin}: timestamp ${clip(JSON.stringify(raw.timestamp) ?? '')} is not unix ms text`);
    // A socket book older than the snapshot in force (the initial dump arriving after a resync) is superseded; a resync is always applied.
    if (origin === 'book' && haveSnapshot && ts < snapshotTs) return;
    if (verifyHash && typeof raw.hash === 'string' && raw.hash !== '') {
      const expected = canonicalHash(raw);
      if (expected !== undefined && expected !== raw.hash) {
        if (++mismatches < HASH_MISMATCHES_BEFORE_GIVING_UP) {
          out.needsResync = true;
          return void out.problems.push(`${origin}: hash ${clip(raw.hash)} does not match the book (expected ${expected}); refused`);
        }
        verifyHash = false;
        out.problems.push(`${origin}: ${mismatches} books in a row did not match their hash: the upstream hashes differently; hash checks are off for this market`);
      } else if (expected !== undefined) mismatches = 0;
    }
    let bookTick = tick;
    if (raw.tick_size !== undefined) {
      const t = typeof raw.tick_size === 'string' ? microOf(raw.tick_size) : undefined;
      if (t === undefined || t <= 0 || t >= PRICE_ONE) return void out.problems.push(`${origin}: tick_size ${clip(JSON.stringify(raw.tick_size) ?? '')} is not a decimal in (0, 1)`);
      bookTick = t;
    }
    const bids = levelsOf(raw.bids, 'bid', bookTick, origin, out);
    const asks = levelsOf(raw.asks, 'ask', bookTick, origin, out);
    if (bids.length > 0 && asks.length > 0 && bids[0]!.price >= asks[0]!.price) {
      out.needsResync = true;
      return void out.problems.push(`${origin}: crossed book (best bid ${bids[0]!.price / 1e6} ≥ best ask ${asks[0]!.price / 1e6}); refused`);
    }
    if (bookTick !== tick) {
      tick = bookTick;
      add(out, { kind: 'tick', tickSize: tick });
    }
    haveSnapshot = true;
    snapshotTs = ts;
    lastTs = ts;
    add(out, { kind: 'snapshot', bids, asks });
  }

  /**
   * A side's levels, best first. The public service lists each side best last, so prices normally come
   * strictly monotone: then no price can repeat, and the levels are kept in one pass (reversed if need
   * be). Any other order goes through a map (duplicates: the last one kept) and a sort.
   */
  function levelsOf(list: unknown[], side: BookSide, levelTick: number, origin: string, out: Out): PublicLevel[] {
    const mark = out.problems.length;
    const levels: PublicLevel[] = [];
    let last = -1;
    let dir = 0;
    for (let i = 0; i < list.length; i++) {
      const level = readLevel(list[i], side, levelTick, origin, out);
      if (!level) continue;
      if (last >= 0) {
        const d = level.price > last ? 1 : level.price < last ? -1 : 0;
        if (d === 0 || (dir !== 0 && d !== dir)) {
          out.problems.length = mark;
          return levelsByMap(list, side, levelTick, origin, out);
        }
        dir = d;
      }
      last = level.price;
      if (level.size > 0) levels.push(level);
    }
    // Best first: bids descending, asks ascending.
    if (dir === (side === 'bid' ? 1 : -1)) levels.reverse();
    return levels;
  }

  /** One wire level checked (shape, price on the tick, size): the level, or undefined with the problem said. */
  function readLevel(l: unknown, side: BookSide, levelTick: number, origin: string, out: Out): PublicLevel | undefined {
    if (!isObj(l) || typeof l.price !== 'string' || typeof l.size !== 'string') {
      out.problems.push(`${origin}: ${side} level ${clip(JSON.stringify(l) ?? '')} must be {price: string, size: string}`);
      return undefined;
    }
    const price = microOf(l.price);
    const bad = checkPrice(price, levelTick, l.price);
    if (bad) {
      out.problems.push(`${origin}: ${side} level ${bad}`);
      return undefined;
    }
    const size = microOf(l.size, FLOOR);
    if (size === undefined) {
      out.problems.push(`${origin}: ${side} size ${clip(JSON.stringify(l.size))} is not a non-negative decimal`);
      return undefined;
    }
    return { price: price!, size };
  }

  function levelsByMap(list: unknown[], side: BookSide, levelTick: number, origin: string, out: Out): PublicLevel[] {
    const byPrice = new Map<number, number>();
    for (const l of list) {
      const level = readLevel(l, side, levelTick, origin, out);
      if (!level) continue;
      if (byPrice.has(level.price)) out.problems.push(`${origin}: ${side} level ${(l as Obj).price as string} listed twice; the last one kept`);
      if (level.size > 0) byPrice.set(level.price, level.size);
    }
    const levels = [...byPrice].map(([price, size]) => ({ price, size }));
    return levels.sort(side === 'bid' ? (a, b) => b.price - a.price : (a, b) => a.price - b.price);
  }

  function decodePriceChange(e: Obj, out: Out): void {
    // New form (since 2025-09-15): price_changes[] rows carrying their asset; old form: one asset, changes[].
    const perRow = Array.isArray(e.price_changes);
    const rows = perRow ? (e.price_changes as unknown[]) : Array.isArray(e.changes) ? (e.changes as unknown[]) : undefined;
    if (!rows) return void out.problems.push('price_change without price_changes[] or changes[]');
    const ts = timestampOf(e.timestamp);
    if (ts === undefined) return void out.problems.push(`price_change: timestamp ${clip(JSON.stringify(e.timestamp) ?? '')} is not unix ms text`);
    // Levels go straight into out.events (empty until now: one event per entry) and are taken back if the delta is dropped.
    const start = out.events.length;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const asset = perRow ? (isObj(row) ? row.asset_id : undefined) : e.asset_id;
      const outcome = outcomeOf(asset, 'price_change', out);
      if (outcome !== 0) continue;
      if (!isObj(row) || typeof row.price !== 'string' || typeof row.size !== 'string') {
        out.problems.push(`price_change: row ${clip(JSON.stringify(row) ?? '')} must carry price and size strings`);
        continue;
      }
      const side = row.side === 'BUY' ? 'bid' : row.side === 'SELL' ? 'ask' : undefined;
      if (!side) {
        out.problems.push(`price_change: side ${clip(JSON.stringify(row.side) ?? '')} must be BUY or SELL`);
        continue;
      }
      const price = microOf(row.price);
      const bad = checkPrice(price, tick, row.price);
      if (bad) {
        out.problems.push(`price_change: ${bad}`);
        continue;
      }
      const size = microOf(row.size, FLOOR);
      if (size === undefined) {
        out.problems.push(`price_change: size ${clip(JSON.stringify(row.size))} is not a non-negative decimal`);
        continue;
      }
      add(out, { kind: 'level', side, price: price!, size });
    }
    if (out.events.length === start) return;
    if (!haveSnapshot) {
      out.events.length = start;
      out.needsResync = true;
      return void out.problems.push('price_change before a snapshot (or after a tick change) dropped');
    }
    // Older than the snapshot: already in it (a delta in flight while GET /book answered).
    if (ts < snapshotTs) {
      out.events.length = start;
      return;
    }
    if (ts < lastTs) {
      out.events.length = start;
      out.needsResync = true;
      return void out.problems.push(`price_change out of order (timestamp ${ts} before ${lastTs}) dropped`);
    }
    lastTs = ts;
  }

  function decodePrint(e: Obj, out: Out): void {
    const outcome = outcomeOf(e.asset_id, 'last_trade_price', out);
    if (outcome === undefined) return;
    if (typeof e.price !== 'string' || typeof e.size !== 'string') return void out.problems.push('last_trade_price: price and size must be decimal strings');
    const price = microOf(e.price);
    const bad = checkPrice(price, 0, e.price);
    if (bad) return void out.problems.push(`last_trade_price: ${bad}`);
    const size = microOf(e.size, FLOOR);
    if (size === undefined || size === 0) return void out.problems.push(`last_trade_price: size ${clip(JSON.stringify(e.size))} must be a positive decimal`);
    const takerBuys = e.side === 'BUY' ? true : e.side === 'SELL' ? false : undefined;
    if (takerBuys === undefined) return void out.problems.push(`last_trade_price: side ${clip(JSON.stringify(e.side) ?? '')} must be BUY or SELL`);
    // Outcome 1 at q is outcome 0 at 1 − q with the taker's side flipped (book/types.ts).
    const p0 = outcome === 0 ? price! : PRICE_ONE - price!;
    const aggressor: BookSide = (outcome === 0) === takerBuys ? 'bid' : 'ask';
    const key = typeof e.transaction_hash === 'string' && e.transaction_hash !== '' ? e.transaction_hash : `ts:${String(e.timestamp)}`;
    let pending = prints.get(key);
    if (pending) {
      for (let i = 0; i < pending.length; i++) {
        const p = pending[i]!;
        if (p.aggressor === aggressor && p.price === p0 && p.size === size && p.outcome !== outcome) {
          pending.splice(i, 1); // the other token's print of this same match: already said
          return;
        }
      }
      prints.delete(key);
    } else pending = [];
    pending.push({ aggressor, price: p0, size, outcome });
    prints.set(key, pending);
    if (prints.size > PRINT_MEMORY) prints.delete(prints.keys().next().value!);
    add(out, { kind: 'print', aggressor, price: p0, size });
  }

  function decodeTickChange(e: Obj, out: Out): void {
    const outcome = outcomeOf(e.asset_id, 'tick_size_change', out);
    if (outcome === undefined) return;
    const t = typeof e.new_tick_size === 'string' ? microOf(e.new_tick_size) : undefined;
    if (t === undefined || t <= 0 || t >= PRICE_ONE) return void out.problems.push(`tick_size_change: new_tick_size ${clip(JSON.stringify(e.new_tick_size) ?? '')} is not a decimal in (0, 1)`);
    if (t === tick) return; // the other token's copy of the same change
    tick = t;
    // Old-grid levels are invalid on the new grid: drop deltas until a fresh snapshot (nautilus "book epoch").
    haveSnapshot = false;
    out.needsResync = true;
    add(out, { kind: 'tick', tickSize: t });
  }

  function decodeResolved(e: Obj, out: Out): void {
    let winner: 0 | 1 | undefined;
    if (typeof e.winning_asset_id === 'string') winner = tokenIndex(e.winning_asset_id);
    if (winner === undefined && typeof e.winning_outcome === 'string') winner = outcomeNameIndex(e.winning_outcome);
    if (winner === undefined) return void out.problems.push(`market_resolved: winner ${clip(JSON.stringify(e.winning_asset_id ?? e.winning_outcome) ?? '')} is not an outcome of this market`);
    resolve(winner, out);
  }

  function decodeMarket(raw: unknown, out: Out): void {
    if (!isObj(raw)) return void out.problems.push('market: not a market object');
    if ('condition_id' in raw) return decodeClobMarket(raw, out);
    if ('conditionId' in raw) return decodeGammaMarket(raw, out);
    out.problems.push('market: neither a CLOB (condition_id) nor a Gamma (conditionId) market object');
  }

  function decodeClobMarket(m: Obj, out: Out): void {
    if (typeof m.condition_id !== 'string' || m.condition_id.toLowerCase() !== conditionId) return void out.problems.push(`market: another market ${clip(String(m.condition_id))}`);
    if (m.tokens !== undefined && !Array.isArray(m.tokens)) return void out.problems.push('market: tokens must be an array');
    const winners = new Set<0 | 1>();
    for (const [i, tk] of ((m.tokens as unknown[] | undefined) ?? []).entries()) {
      if (!isObj(tk) || tk.winner !== true) continue;
      const idx = typeof tk.token_id === 'string' && tk.token_id !== '' ? tokenIndex(tk.token_id) : i === 0 || i === 1 ? (i as 0 | 1) : undefined;
      if (idx === undefined) out.problems.push(`market: winner token ${clip(String(tk.token_id))} is not a token of this market`);
      else winners.add(idx);
    }
    if (winners.size === 1) return resolve([...winners][0]!, out);
    if (winners.size > 1) out.problems.push('market: both tokens marked winner (a 50/50 resolution); treated as closed');
    // The tick is not read here: the market object's tick can lag the book's (clients cache it for minutes,
    // reference §7.5), and flipping between the two would drop the public layer at every poll.
    // A closed market can still say accepting_orders: true (reference §4): closed wins either way.
    if (m.closed === true || m.accepting_orders === false || winners.size > 1) close(out);
  }

  function decodeGammaMarket(m: Obj, out: Out): void {
    if (typeof m.conditionId !== 'string' || m.conditionId.toLowerCase() !== conditionId) return void out.problems.push(`market: another market ${clip(String(m.conditionId))}`);
    // nautilus's rule (reference §4): closed, two prices, one ≥ 0.999 and the other ≤ 0.001.
    if (m.closed === true && typeof m.outcomePrices === 'string') {
      const prices = jsonArray(m.outcomePrices)?.map((p) => (typeof p === 'string' ? microOf(p) : undefined));
      if (prices?.length === 2 && prices[0] !== undefined && prices[1] !== undefined) {
        if (prices[0] >= 999_000 && prices[1] <= 1_000) return resolve(0, out);
        if (prices[1] >= 999_000 && prices[0] <= 1_000) return resolve(1, out);
      }
    }
    if (m.closed === true || m.acceptingOrders === false) close(out);
  }

  function resolve(winner: 0 | 1, out: Out): void {
    if (saidResolved) return;
    saidResolved = true;
    saidClosed = true;
    add(out, { kind: 'resolved', winner });
  }

  function close(out: Out): void {
    if (saidClosed || saidResolved) return;
    saidClosed = true;
    add(out, { kind: 'closed' });
  }

  /** The market's condition id in any case (the lower-case copy is made only when the text is not already lower case). */
  function sameMarket(v: unknown): boolean {
    return v === conditionId || (typeof v === 'string' && v.toLowerCase() === conditionId);
  }

  function outcomeOf(asset: unknown, what: string, out: Out): 0 | 1 | undefined {
    if (typeof asset !== 'string') {
      out.problems.push(`${what}: asset_id must be a decimal string, not ${clip(JSON.stringify(asset) ?? String(asset))}`);
      return undefined;
    }
    const i = tokenIndex(asset);
    if (i === undefined) out.problems.push(`${what}: unknown asset ${clip(asset)}`);
    return i;
  }

  function tokenIndex(asset: string): 0 | 1 | undefined {
    return asset === token0 ? 0 : asset === token1 ? 1 : undefined;
  }

  function outcomeNameIndex(name: string): 0 | 1 | undefined {
    const n = name.toLowerCase();
    return n === identity.outcomes[0].toLowerCase() ? 0 : n === identity.outcomes[1].toLowerCase() ? 1 : undefined;
  }

  return { decode };
}

interface Out {
  events: PublicBookEvent[];
  problems: string[];
  needsResync: boolean;
}

/** Appends an event; the first goes into an array of its own size (an empty array's first push reserves 17 slots). */
function add(out: Out, e: PublicBookEvent): void {
  if (out.events.length === 0) out.events = [e];
  else out.events.push(e);
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Unix ms as 1 to 16 digits of text (read digit by digit: one per frame, no regex). */
function timestampOf(v: unknown): number | undefined {
  if (typeof v !== 'string' || v.length === 0 || v.length > 16) return undefined;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    n = n * 10 + (c - 48);
  }
  // Exact below 2^53 (15 digits always are); 16 digits are read by Number() as before.
  return v.length < 16 ? n : Number(v);
}

/**
 * The hash of a book as py-clob-client's `generate_orderbook_summary_hash` computes it: compact JSON in the
 * GET /book key order with hash "". Undefined when a field of that form is missing (not recomputable).
 *
 * A book arrives per token after every match, so the JSON is written directly: each field as
 * JSON.stringify writes it, and each level as `{"price":"…","size":"…"}` when both are strings that need
 * no escaping (decimals always). Any other level (extra or missing fields, other types, escapes) makes the
 * whole text come from JSON.stringify of the canonical object, as py-clob-client's does.
 */
export function canonicalHash(raw: Obj): string | undefined {
  const { market, asset_id, timestamp, min_order_size, tick_size, neg_risk, last_trade_price } = raw;
  if (market === undefined || asset_id === undefined || timestamp === undefined || min_order_size === undefined || tick_size === undefined || neg_risk === undefined || last_trade_price === undefined) return undefined;
  const bids = levelsJsonOf(raw.bids as unknown[]);
  const asks = bids === undefined ? undefined : levelsJsonOf(raw.asks as unknown[]);
  if (bids === undefined || asks === undefined) return canonicalHashByObject(raw);
  return sha1(
    '{"market":' +
      jsonOf(market) +
      ',"asset_id":' +
      jsonOf(asset_id) +
      ',"timestamp":' +
      jsonOf(timestamp) +
      ',"hash":"","bids":' +
      bids +
      ',"asks":' +
      asks +
      ',"min_order_size":' +
      jsonOf(min_order_size) +
      ',"tick_size":' +
      jsonOf(tick_size) +
      ',"neg_risk":' +
      jsonOf(neg_risk) +
      ',"last_trade_price":' +
      jsonOf(last_trade_price) +
      '}',
  );
}

/** JSON.stringify's text of a value, written directly for the plain strings and booleans a book holds. */
function jsonOf(v: unknown): string {
  if (typeof v === 'string' && plainText(v)) return '"' + v + '"';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
}

/** SHA-1 hex of a text: one call where Node has crypto.hash (20.12+), else the Hash object. */
const sha1: (text: string) => string = typeof nodeCrypto.hash === 'function' ? (text) => nodeCrypto.hash('sha1', text, 'hex') : sha1Hex;

/** The canonical object, serialised whole (the reference the direct text above must equal). */
export function canonicalHashByObject(raw: Obj): string | undefined {
  const keys = ['market', 'asset_id', 'timestamp', 'min_order_size', 'tick_size', 'neg_risk', 'last_trade_price'];
  if (keys.some((k) => raw[k] === undefined)) return undefined;
  const levels = (l: unknown[]) => l.map((x) => (isObj(x) ? { price: x.price, size: x.size } : x));
  return bookHashOf({
    market: raw.market,
    asset_id: raw.asset_id,
    timestamp: raw.timestamp,
    hash: '',
    bids: levels(raw.bids as unknown[]),
    asks: levels(raw.asks as unknown[]),
    min_order_size: raw.min_order_size,
    tick_size: raw.tick_size,
    neg_risk: raw.neg_risk,
    last_trade_price: raw.last_trade_price,
  });
}

/** `[{"price":"…","size":"…"},…]` of levels whose price and size are plain strings; undefined for anything else. */
function levelsJsonOf(list: unknown[]): string | undefined {
  let json = '[';
  for (let i = 0; i < list.length; i++) {
    const l = list[i];
    if (!isObj(l)) return undefined;
    const { price, size } = l;
    if (typeof price !== 'string' || typeof size !== 'string' || !plainText(price) || !plainText(size)) return undefined;
    json += (i === 0 ? '{"price":"' : ',{"price":"') + price + '","size":"' + size + '"}';
  }
  return json + ']';
}

/** Printable ASCII without `"` or `\`: JSON writes it as it is, between quotes. */
function plainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** Gamma's JSON-in-JSON arrays (reference §7.1). */
export function jsonArray(text: string): unknown[] | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function clip(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}
