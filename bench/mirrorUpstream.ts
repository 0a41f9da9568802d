/**
 * A synthetic public exchange for the mirror benchmark: binary markets whose books change at a set rate,
 * published as the public service publishes them (reference/public-market-data.md): a market WebSocket
 * (`book` initial dump on subscribe, `price_change` in the `price_changes[]` form carrying both tokens,
 * after a match one `last_trade_price` and one `book` per token, `PING` → `PONG`) and the CLOB REST routes a
 * mirror reads (`GET /markets/{cid}`, `/book`, `/fee-rate`, `/tick-size`, `/neg-risk`). Every book hash is
 * the §2.3 hash, so a mirror that verifies hashes accepts every frame. Deterministic for a seed.
 *
 * Each level change that a mirror must show carries a size unique within the run (its low cent digits are a
 * serial number), so the benchmark can find the matching local stream event by (token, price, size).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { createSeededRandom, type SeededRandom } from '../engine/book/seededRandom.js';
import { bookHashOf } from '../engine/protocol/bookHash.js';
import { formatUnits } from '../engine/protocol/amounts.js';

const ONE = 1_000_000;
/** 0.01 in micro-units: the tick of every synthetic market. */
export const SYNTHETIC_TICK = 10_000;
/** Levels each side of the mid (a fixed ladder: the benchmark measures the mirror, not a price process). */
const LEVELS = 10;
/** Sizes are `W × 100 + serial / 100` shares with W below this: 0.01 … 1,999.99 shares. */
const SIZE_HUNDREDS = 20;

type Side = 'BUY' | 'SELL';

export interface SyntheticMarket {
  readonly conditionId: string;
  readonly questionId: string;
  readonly question: string;
  readonly slug: string;
  readonly tokenIds: readonly [string, string];
  /** Outcome-0 book: price micro → size micro. */
  readonly bids: Map<number, number>;
  readonly asks: Map<number, number>;
  readonly mid: number;
  /** Last trade price of each token (decimal text, "" before the first). */
  lastTrade: [string, string];
  /** Unix ms (text) of the last book change. */
  timestamp: string;
}

export interface GeneratedFrame {
  /** The event object, sent as one text frame. */
  readonly event: Record<string, unknown>;
  /** The outcome-0 level change this event makes, as `token|price micro|size micro`, when it sets one level to a fresh size. */
  readonly key?: string;
}

/** `token|price|size` in micro-units: how the benchmark finds a level change again in another stream. */
export const levelKey = (tokenId: string, priceMicro: bigint | number, sizeMicro: bigint | number): string => `${tokenId}|${priceMicro}|${sizeMicro}`;

const text = (micro: number): string => formatUnits(BigInt(micro));

function digits(rng: SeededRandom, n: number, alphabet: string, first = alphabet): string {
  let s = first[rng.int(0, first.length - 1)]!;
  while (s.length < n) s += alphabet[rng.int(0, alphabet.length - 1)]!;
  return s;
}

/** The synthetic markets and their event generator (no I/O: the server below and the tape writer both use it). */
export class SyntheticPublicMarkets {
  readonly markets: SyntheticMarket[] = [];
  private readonly byToken = new Map<string, { market: SyntheticMarket; outcome: 0 | 1 }>();
  private readonly byCondition = new Map<string, SyntheticMarket>();
  private readonly rng: SeededRandom;
  private serial = 0;
  private trade = 0;

  constructor(opts: { seed: number; markets: number; nowMs: number }) {
    this.rng = createSeededRandom(opts.seed);
    for (let i = 0; i < opts.markets; i++) {
      const conditionId = '0x' + digits(this.rng, 64, '0123456789abcdef');
      const tokenIds = [digits(this.rng, 77, '0123456789', '123456789'), digits(this.rng, 77, '0123456789', '123456789')] as const;
      const mid = this.rng.int(20, 80) * SYNTHETIC_TICK;
      const m: SyntheticMarket = {
        conditionId,
        questionId: '0x' + digits(this.rng, 64, '0123456789abcdef'),
        question: `Synthetic market ${i + 1}: will it happen?`,
        slug: `synthetic-market-${i + 1}`,
        tokenIds,
        bids: new Map(),
        asks: new Map(),
        mid,
        lastTrade: ['', ''],
        timestamp: String(opts.nowMs),
      };
      for (let k = 1; k <= LEVELS; k++) {
        m.bids.set(mid - k * SYNTHETIC_TICK, this.freshSize());
        m.asks.set(mid + k * SYNTHETIC_TICK, this.freshSize());
      }
      this.markets.push(m);
      this.byCondition.set(conditionId, m);
      this.byToken.set(tokenIds[0], { market: m, outcome: 0 });
      this.byToken.set(tokenIds[1], { market: m, outcome: 1 });
    }
  }

  market(conditionId: string): SyntheticMarket | undefined {
    return this.byCondition.get(conditionId);
  }

  token(tokenId: string): { market: SyntheticMarket; outcome: 0 | 1 } | undefined {
    return this.byToken.get(tokenId);
  }

  /** A size (micro) whose cent digits are the next serial number: unique among the last 10,000 changes. */
  private freshSize(below?: number): number {
    const serial = (this.serial = (this.serial + 1) % 10_000);
    const maxHundreds = below === undefined ? SIZE_HUNDREDS - 1 : Math.floor(below / (100 * ONE)) - 1;
    const cents = this.rng.int(0, Math.max(0, maxHundreds)) * 10_000 + (serial === 0 ? 1 : serial);
    return cents * 10_000;
  }

  /**
   * The next upstream action of a random market at `nowMs`: a placement or cancel (one `price_change` with
   * both tokens' level), or a match at the best level (a `last_trade_price` and a `book` per token).
   */
  next(nowMs: number): GeneratedFrame[] {
    const m = this.markets[this.rng.int(0, this.markets.length - 1)]!;
    m.timestamp = String(nowMs);
    if (this.rng.next() < 0.2) {
      const frames = this.match(m);
      if (frames) return frames;
    }
    return [this.levelChange(m)];
  }

  private levelChange(m: SyntheticMarket): GeneratedFrame {
    const bid = this.rng.next() < 0.5;
    const price = m.mid + (bid ? -1 : 1) * this.rng.int(1, LEVELS) * SYNTHETIC_TICK;
    const levels = bid ? m.bids : m.asks;
    // A cancel that empties a level now and then (it comes back on a later placement).
    const size = levels.has(price) && this.rng.next() < 0.05 ? 0 : this.freshSize();
    if (size === 0) levels.delete(price);
    else levels.set(price, size);
    const side: Side = bid ? 'BUY' : 'SELL';
    const [h0, h1] = [this.bookSummary(m, 0).hash, this.bookSummary(m, 1).hash];
    const [b0, b1] = [bestOf(m, 0), bestOf(m, 1)];
    return {
      event: {
        event_type: 'price_change',
        market: m.conditionId,
        timestamp: m.timestamp,
        price_changes: [
          { asset_id: m.tokenIds[0], price: text(price), size: text(size), side, hash: h0, best_bid: b0.bid, best_ask: b0.ask },
          { asset_id: m.tokenIds[1], price: text(ONE - price), size: text(size), side: bid ? 'SELL' : 'BUY', hash: h1, best_bid: b1.bid, best_ask: b1.ask },
        ],
      },
      ...(size > 0 ? { key: levelKey(m.tokenIds[0], price, size) } : {}),
    };
  }

  /** A public taker takes part of the best bid or ask; null when that level is too small to leave a fresh size behind. */
  private match(m: SyntheticMarket): GeneratedFrame[] | null {
    const buy = this.rng.next() < 0.5;
    const levels = buy ? m.asks : m.bids;
    if (levels.size === 0) return null;
    const price = buy ? Math.min(...levels.keys()) : Math.max(...levels.keys());
    const old = levels.get(price)!;
    if (old < 100 * ONE) return null;
    const left = this.freshSize(old);
    levels.set(price, left);
    const size = text(old - left);
    m.lastTrade = [text(price), text(ONE - price)];
    const hash = '0x' + (++this.trade).toString(16).padStart(64, '0');
    const print = (outcome: 0 | 1, side: Side) => ({
      event: {
        event_type: 'last_trade_price',
        asset_id: m.tokenIds[outcome],
        market: m.conditionId,
        price: m.lastTrade[outcome],
        size,
        side,
        fee_rate_bps: '0',
        timestamp: m.timestamp,
        transaction_hash: hash,
      },
    });
    return [
      print(0, buy ? 'BUY' : 'SELL'),
      print(1, buy ? 'SELL' : 'BUY'),
      { event: this.bookEvent(m, 0), key: levelKey(m.tokenIds[0], price, left) },
      { event: this.bookEvent(m, 1) },
    ];
  }

  /** `GET /book?token_id=` of one token (§2.3): best last on both sides, hashed in the server's key order. */
  bookSummary(m: SyntheticMarket, outcome: 0 | 1): Record<string, unknown> & { hash: string } {
    // Outcome 1's bids are outcome 0's asks at 1 − p, and its asks outcome 0's bids.
    const [bidSrc, askSrc] = outcome === 0 ? [m.bids, m.asks] : [m.asks, m.bids];
    const side = (src: Map<number, number>, ascending: boolean) =>
      [...src]
        .map(([p, s]) => [outcome === 0 ? p : ONE - p, s] as const)
        .sort((a, b) => (ascending ? a[0] - b[0] : b[0] - a[0]))
        .map(([p, s]) => ({ price: text(p), size: text(s) }));
    const bids = side(bidSrc, true);
    const asks = side(askSrc, false);
    const summary = {
      market: m.conditionId,
      asset_id: m.tokenIds[outcome],
      timestamp: m.timestamp,
      hash: '',
      bids,
      asks,
      min_order_size: '5',
      tick_size: text(SYNTHETIC_TICK),
      neg_risk: false,
      last_trade_price: m.lastTrade[outcome],
    };
    return { ...summary, hash: bookHashOf(summary) };
  }

  /** The WebSocket `book` event of one token: the REST fields (same hash) with `event_type`. */
  bookEvent(m: SyntheticMarket, outcome: 0 | 1): Record<string, unknown> {
    const s = this.bookSummary(m, outcome);
    return { event_type: 'book', asset_id: s.asset_id, market: s.market, bids: s.bids, asks: s.asks, timestamp: s.timestamp, hash: s.hash, min_order_size: s.min_order_size, tick_size: s.tick_size, neg_risk: s.neg_risk, last_trade_price: s.last_trade_price };
  }

  /** `GET /markets/{condition_id}` (§2.1). */
  marketInfo(m: SyntheticMarket): Record<string, unknown> {
    const mid = m.mid / ONE;
    return {
      condition_id: m.conditionId,
      question_id: m.questionId,
      question: m.question,
      market_slug: m.slug,
      description: 'A synthetic public market of the mirror benchmark.',
      tokens: [
        { token_id: m.tokenIds[0], outcome: 'Yes', price: mid, winner: false },
        { token_id: m.tokenIds[1], outcome: 'No', price: Math.round((1 - mid) * 100) / 100, winner: false },
      ],
      minimum_order_size: 5,
      minimum_tick_size: SYNTHETIC_TICK / ONE,
      neg_risk: false,
      neg_risk_market_id: '',
      neg_risk_request_id: '',
      active: true,
      closed: false,
      archived: false,
      accepting_orders: true,
      accepting_order_timestamp: '2026-01-01T00:00:00Z',
      enable_order_book: true,
      end_date_iso: '2030-01-01T00:00:00Z',
      game_start_time: null,
      seconds_delay: 0,
      maker_base_fee: 0,
      taker_base_fee: 0,
      is_50_50_outcome: false,
      rewards: { rates: null, min_size: 0, max_spread: 0 },
      fpmm: '',
      notifications_enabled: true,
      icon: '',
      image: '',
      tags: ['Synthetic'],
    };
  }
}

function bestOf(m: SyntheticMarket, outcome: 0 | 1): { bid: string; ask: string } {
  const maxBid = m.bids.size ? Math.max(...m.bids.keys()) : undefined;
  const minAsk = m.asks.size ? Math.min(...m.asks.keys()) : undefined;
  const t = (p: number | undefined, flip: boolean) => (p === undefined ? '' : text(flip ? ONE - p : p));
  return outcome === 0 ? { bid: t(maxBid, false), ask: t(minAsk, false) } : { bid: t(minAsk, true), ask: t(maxBid, true) };
}

/** Every token id an event names (top-level `asset_id` or inside `price_changes`). */
export function assetsOf(event: Record<string, unknown>): string[] {
  if (typeof event.asset_id === 'string') return [event.asset_id];
  const changes = event.price_changes;
  return Array.isArray(changes) ? changes.map((c) => String((c as { asset_id?: unknown }).asset_id)) : [];
}

export interface MirrorUpstream {
  readonly markets: SyntheticPublicMarkets;
  /** CLOB REST base (`--upstream-clob`). */
  readonly clobUrl: string;
  /** Market channel URL (`--upstream-ws`). */
  readonly wsUrl: string;
  /** Starts publishing `eventsPerSecond` event frames in total, spread over the markets. */
  start(eventsPerSecond: number): void;
  stop(): void;
  /** Event frames published since start. */
  readonly sent: number;
  /** Called with each frame as it is sent (performance.now() just before the sends). */
  onSend?: (frame: GeneratedFrame, textFrame: string, at: number) => void;
  close(): Promise<void>;
}

interface Connection {
  ws: WebSocket;
  assets: Set<string>;
}

/** Serves the synthetic markets over HTTP and WebSocket on an ephemeral local port. */
export async function startMirrorUpstream(opts: { seed: number; markets: number }): Promise<MirrorUpstream> {
  const markets = new SyntheticPublicMarkets({ seed: opts.seed, markets: opts.markets, nowMs: Date.now() });
  const server: Server = createServer((req, res) => route(markets, req, res));
  const wss = new WebSocketServer({ server });
  const conns = new Set<Connection>();
  wss.on('connection', (ws) => {
    const c: Connection = { ws, assets: new Set() };
    conns.add(c);
    ws.on('close', () => conns.delete(c));
    ws.on('message', (data) => {
      const msg = data.toString();
      if (msg === 'PING') return void ws.send('PONG');
      let req: { assets_ids?: unknown; operation?: unknown; initial_dump?: unknown };
      try {
        req = JSON.parse(msg) as typeof req;
      } catch {
        return;
      }
      const ids = Array.isArray(req.assets_ids) ? req.assets_ids.map(String) : [];
      if (req.operation === 'unsubscribe') return ids.forEach((id) => c.assets.delete(id));
      for (const id of ids) c.assets.add(id);
      if (req.initial_dump === false) return;
      const dump = ids.flatMap((id) => {
        const t = markets.token(id);
        return t ? [markets.bookEvent(t.market, t.outcome)] : [];
      });
      if (dump.length) ws.send(JSON.stringify(dump));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  let timer: NodeJS.Timeout | undefined;
  let sent = 0;
  const upstream: MirrorUpstream = {
    markets,
    clobUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws/market`,
    get sent() {
      return sent;
    },
    start(eventsPerSecond) {
      const t0 = performance.now();
      const base = sent;
      // Paced on a 5 ms timer, catching up to the rate in whole actions (a match is four frames at once, as upstream).
      timer = setInterval(() => {
        const due = ((performance.now() - t0) / 1000) * eventsPerSecond;
        while (sent - base < due) {
          for (const frame of markets.next(Date.now())) {
            const textFrame = JSON.stringify(frame.event);
            const assets = assetsOf(frame.event);
            const at = performance.now();
            upstream.onSend?.(frame, textFrame, at);
            for (const c of conns) if (assets.some((a) => c.assets.has(a))) c.ws.send(textFrame);
            sent++;
          }
        }
      }, 5);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    async close() {
      upstream.stop();
      for (const c of conns) c.ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return upstream;
}

function route(markets: SyntheticPublicMarkets, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://upstream');
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const path = url.pathname.replace(/\/+$/, '');
  const marketPath = /^\/markets\/(0x[0-9a-fA-F]{64})$/.exec(path);
  if (req.method !== 'GET') return send(405, { error: 'method not allowed' });
  if (marketPath) {
    const m = markets.market(marketPath[1]!.toLowerCase());
    return m ? send(200, markets.marketInfo(m)) : send(404, { error: 'market not found' });
  }
  const tokenRoute = /^\/(book|fee-rate|tick-size|neg-risk)(?:\/(\d+))?$/.exec(path);
  if (!tokenRoute) return send(404, { error: 'not found' });
  const tokenId = tokenRoute[2] ?? url.searchParams.get('token_id') ?? '';
  if (!/^\d+$/.test(tokenId)) return send(400, { error: 'Invalid token id' });
  const t = markets.token(tokenId);
  if (!t) return send(404, { error: 'No orderbook exists for the requested token id' });
  switch (tokenRoute[1]) {
    case 'book':
      return send(200, markets.bookSummary(t.market, t.outcome));
    case 'fee-rate':
      return send(200, { base_fee: 0 });
    case 'tick-size':
      return send(200, { minimum_tick_size: SYNTHETIC_TICK / ONE });
    default:
      return send(200, { neg_risk: false });
  }
}
