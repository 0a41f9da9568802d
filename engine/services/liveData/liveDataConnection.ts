import { randomUUID } from 'node:crypto';
import type { Identity } from '../auth/authService.js';
import type { MarketChannel, MarketSubscriber } from '../streams/marketChannel.js';
import { StreamConnection, type StreamLimits, type StreamTransport } from '../streams/streamTransport.js';
import type { UserChannel, UserSubscriber } from '../streams/userChannel.js';
import { parseSubscription, sameSubscription, wants, type LiveDataSubscription } from './liveDataSubscription.js';
import { MARKET_EVENT_TYPE } from './liveDataTopics.js';

/** A live-data socket also sends WebSocket ping frames (the keepalive). */
export interface LiveDataTransport extends StreamTransport {
  ping(): void;
}

/** Close code for a socket that sent nothing (not even the client's text `ping`) for the idle limit. */
export const CLOSE_IDLE = 4010;

/** What a connection needs of the engine. */
export interface LiveDataDeps {
  market: MarketChannel;
  user: UserChannel;
  verify(key: string, secret: string, passphrase: string): Identity;
  /** The order fields the public clob_user `order` message has beyond the user channel's event (undefined once unknown). */
  orderFields(id: string): Record<string, unknown> | undefined;
  /** Every token id of every market (a clob_market subscription without filters follows them all). */
  allTokens(): string[];
  now(): number;
}

/**
 * One socket of the real-time data protocol (@polymarket/real-time-data-client): `{"action":"subscribe"|
 * "unsubscribe","subscriptions":[{topic,type,filters?,clob_auth?}]}` in; `{topic,type,timestamp,payload,
 * connection_id}` out. clob_market and clob_user are fed by the market and user channels themselves (taps
 * registered as their subscribers), so they tell exactly what those channels tell; activity comes from
 * the service (committed trades).
 */
export class LiveDataConnection extends StreamConnection {
  readonly id = randomUUID();
  readonly subscriptions: LiveDataSubscription[] = [];
  private lastActivity: number;
  private marketTap: MarketTap | undefined;
  private readonly userTaps = new Map<string, UserTap>();

  constructor(
    transport: LiveDataTransport,
    limits: StreamLimits,
    private readonly deps: LiveDataDeps,
    private readonly release: (c: LiveDataConnection) => void,
  ) {
    super(transport, limits);
    this.lastActivity = deps.now();
  }

  /** Any client traffic counts as activity: messages (the stock client's text `ping` included) and pong frames. */
  touch(): void {
    this.lastActivity = this.deps.now();
  }

  /**
   * One keepalive tick: a ping frame, or a close when the client sent nothing for `idleMs`. A missing pong
   * is never a reason: the stock client replaces its library's pong and answers pings with a text `ping`.
   */
  keepalive(idleMs: number): void {
    if (this.closed) return;
    const quiet = this.deps.now() - this.lastActivity;
    if (quiet > idleMs) return this.close(CLOSE_IDLE, `idle: nothing received for ${Math.round(quiet / 1000)} s (send the text "ping" to keep the socket open)`);
    (this.transport as LiveDataTransport).ping();
  }

  backlog(): number {
    return this.transport.buffered();
  }

  onClosed(): void {
    this.marketTap?.close(1000, 'closed');
    for (const t of [...this.userTaps.values()]) t.close(1000, 'closed');
    this.subscriptions.length = 0;
    this.release(this);
  }

  /** A message of `topic`/`type` out, as the public service frames it. */
  deliver(topic: string, type: string, payload: object): void {
    this.sendJson({ topic, type, timestamp: this.deps.now(), payload, connection_id: this.id });
  }

  override sendError(message: string, topic = 'error'): void {
    this.deliver(topic, 'error', { message });
  }

  onMessage(text: string): void {
    this.touch();
    if (text.trim().toLowerCase() === 'ping') return;
    const msg = this.parse(text);
    if (!msg) return;
    const action = msg.action;
    if (action !== 'subscribe' && action !== 'unsubscribe') return this.sendError(`'action' must be "subscribe" or "unsubscribe"; got ${JSON.stringify(action ?? null).slice(0, 40)}`);
    if (!Array.isArray(msg.subscriptions)) return this.sendError("'subscriptions' must be an array of {topic, type, filters?}");
    for (const raw of msg.subscriptions) {
      const sub = parseSubscription(raw);
      if (typeof sub === 'string') {
        this.sendError(sub, typeof (raw as { topic?: unknown })?.topic === 'string' ? String((raw as { topic: string }).topic).slice(0, 40) : 'error');
        continue;
      }
      if (action === 'unsubscribe') this.unsubscribe(sub);
      else this.subscribe(sub);
    }
  }

  private subscribe(sub: LiveDataSubscription): void {
    if (sub.topic === 'clob_user') {
      const auth = sub.auth!;
      let tap = this.userTaps.get(auth.key);
      if (!tap) {
        let id: Identity;
        try {
          id = this.deps.verify(auth.key, auth.secret, auth.passphrase);
        } catch (e) {
          return this.sendError(`clob_auth refused: ${(e as Error).message}`, 'clob_user');
        }
        tap = new UserTap(this, this.limits, id);
        this.userTaps.set(auth.key, tap);
        this.deps.user.add(tap);
      }
      delete sub.auth;
      this.subscriptions.push({ ...sub, auth: { key: auth.key, secret: '', passphrase: '' } });
      return;
    }
    this.subscriptions.push(sub);
    if (sub.topic === 'clob_market' && sub.type !== 'market_created' && sub.type !== 'market_resolved') {
      const tokens = sub.tokens ?? this.deps.allTokens();
      if (tokens.length > this.limits.maxSubscriptions) return this.sendError(`at most ${this.limits.maxSubscriptions} tokens per connection; filter clob_market with a token list`, 'clob_market');
      this.follow(tokens, wants(sub, 'agg_orderbook'));
    }
  }

  /** Follows tokens on the market channel; a subscription taking agg_orderbook gets each book now (the dump). */
  follow(tokens: readonly string[], dump: boolean): void {
    const tap = (this.marketTap ??= new MarketTap(this, this.limits, this.deps.market));
    const unknown: string[] = [];
    for (const t of tokens) {
      if (this.deps.market.subscribe(t, tap, { initialDump: dump })) tap.assets.add(t);
      else unknown.push(t);
    }
    if (unknown.length > 0) this.sendError(`unknown token ids: ${unknown.slice(0, 10).join(', ')}; list them with GET /markets`, 'clob_market');
  }

  /** Whether a clob_market subscription without a token filter wants the tokens of new markets. */
  followsEveryMarket(): boolean {
    return this.subscriptions.some((s) => s.topic === 'clob_market' && s.tokens === null && s.type !== 'market_created' && s.type !== 'market_resolved');
  }

  private unsubscribe(sub: LiveDataSubscription): void {
    const key = sub.auth?.key;
    for (let i = this.subscriptions.length - 1; i >= 0; i--) {
      const s = this.subscriptions[i]!;
      if (sameSubscription(s, sub) && (s.topic !== 'clob_user' || s.auth?.key === key)) this.subscriptions.splice(i, 1);
    }
    // Taps nothing needs any more stop.
    for (const [k, tap] of this.userTaps) {
      if (!this.subscriptions.some((s) => s.topic === 'clob_user' && s.auth?.key === k)) {
        this.userTaps.delete(k);
        this.deps.user.remove(tap);
        tap.closed = true;
      }
    }
    if (this.marketTap) {
      const needed = new Set<string>();
      const every = this.followsEveryMarket();
      for (const s of this.subscriptions) if (s.topic === 'clob_market' && s.tokens) for (const t of s.tokens) needed.add(t);
      for (const t of [...this.marketTap.assets]) {
        if (every || needed.has(t)) continue;
        this.deps.market.unsubscribe(t, this.marketTap);
        this.marketTap.assets.delete(t);
      }
    }
  }

  /** A user tap closed (unsubscribed, socket closed, or its key revoked): it leaves the user channel. */
  dropUserTap(tap: UserTap): void {
    this.deps.user.remove(tap);
    if (this.userTaps.get(tap.apiKey) === tap) this.userTaps.delete(tap.apiKey);
  }

  /** A market-channel frame (one event or an array) for the followed tokens, out as clob_market messages. */
  fromMarket(frame: Buffer): void {
    const v = JSON.parse(frame.toString()) as Record<string, unknown> | Array<Record<string, unknown>>;
    for (const e of Array.isArray(v) ? v : [v]) {
      const type = MARKET_EVENT_TYPE[String(e.event_type)];
      if (!type) continue;
      const asset = String(e.asset_id);
      if (this.subscriptions.some((s) => s.topic === 'clob_market' && wants(s, type) && (s.tokens === null || s.tokens.includes(asset)))) this.deliver('clob_market', type, e);
    }
  }

  /** A user-channel event of `apiKey`'s orders and trades, out as clob_user messages. */
  fromUser(apiKey: string, frame: Buffer): void {
    const e = JSON.parse(frame.toString()) as Record<string, unknown>;
    const type = String(e.event_type);
    if (!this.subscriptions.some((s) => s.topic === 'clob_user' && s.auth?.key === apiKey && wants(s, type))) return;
    this.deliver('clob_user', type, type === 'trade' ? { ...e, match_time: e.matchtime } : { ...e, ...this.deps.orderFields(String(e.id)) });
  }
}

/** A transport that hands a channel's frames to the live-data connection that owns the tap. */
function tapTransport(owner: LiveDataConnection, onFrame: (frame: Buffer) => void): StreamTransport {
  return { send: onFrame, buffered: () => owner.backlog(), close: (code, reason) => owner.close(code, reason) };
}

/** The live-data connection's subscriber on the market channel. */
class MarketTap extends StreamConnection implements MarketSubscriber {
  readonly custom = false;
  readonly assets = new Set<string>();

  constructor(
    owner: LiveDataConnection,
    limits: StreamLimits,
    private readonly market: MarketChannel,
  ) {
    super(
      tapTransport(owner, (f) => owner.fromMarket(f)),
      limits,
    );
  }

  onClosed(): void {
    this.market.dropSubscriber(this, this.assets);
    this.assets.clear();
  }

  onMessage(): void {}
}

/** The live-data connection's subscriber on the user channel, for one API key (every market). */
class UserTap extends StreamConnection implements UserSubscriber {
  readonly address: string;
  readonly apiKey: string;
  seq = 0;

  constructor(
    private readonly owner: LiveDataConnection,
    limits: StreamLimits,
    id: Identity,
  ) {
    super(
      tapTransport(owner, (f) => owner.fromUser(id.apiKey, f)),
      limits,
    );
    this.address = id.address.toLowerCase();
    this.apiKey = id.apiKey;
  }

  follows(): boolean {
    return true;
  }

  onClosed(): void {
    this.owner.dropUserTap(this);
  }

  onMessage(): void {}
}
