import WebSocket from 'ws';
import { UPSTREAM_USER_AGENT } from './upstreamClient.js';

/**
 * One WebSocket to the public market channel that stays up: text `PING` every 10 s (reference §3.1),
 * a silent socket (no frame, not even `PONG`, for `deadAfterMs`) is dropped as a stall, and every close
 * is followed by a reconnect after an exponential backoff with jitter (rs-clob-client: 1 s → 60 s, ×2).
 * It knows nothing of markets: the feed subscribes in `onOpen` and reads frames in `onText`.
 */
export interface Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  /** ± this share of each delay, at random, so many clients do not reconnect in step. */
  readonly jitter: number;
}

export const DEFAULT_BACKOFF: Backoff = Object.freeze({ initialMs: 1_000, maxMs: 60_000, factor: 2, jitter: 0.2 });
export const PING_INTERVAL_MS = 10_000;
/** No frame for this long on an open socket is a silent stall (rs-clob-client treats 30 s without PONG as dead). */
export const DEAD_AFTER_MS = 30_000;
/** Time allowed for the TCP + WebSocket handshake. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

export interface MarketSocketOptions {
  readonly url: string;
  readonly pingIntervalMs?: number;
  readonly deadAfterMs?: number;
  readonly backoff?: Backoff;
  /** Called on every (re)connect, once the socket is open: subscribe here. */
  readonly onOpen: () => void;
  readonly onText: (text: string) => void;
  /** Connection errors and closes, for logs and the mirror's state. */
  readonly onProblem: (problem: string) => void;
  readonly onClose?: () => void;
}

export class MarketSocket {
  private ws: WebSocket | undefined;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private lastFrameAt = 0;
  private stopped = false;

  constructor(private readonly opts: MarketSocketOptions) {}

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (this.ws || this.reconnectTimer || this.stopped) return;
    this.connect();
  }

  /** Sends a JSON message if the socket is open; false otherwise (the next onOpen resubscribes anyway). */
  send(msg: unknown): boolean {
    if (!this.open) return false;
    this.ws!.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
    return true;
  }

  /** Drops the connection now (a stall, or a test); the backoff reconnect follows. */
  drop(reason: string): void {
    this.opts.onProblem(`upstream socket dropped: ${reason}`);
    this.ws?.terminate();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.reconnectTimer = undefined;
    const ws = this.ws;
    this.ws = undefined;
    ws?.removeAllListeners();
    ws?.on('error', () => undefined);
    ws?.terminate();
  }

  private connect(): void {
    const ws = new WebSocket(this.opts.url, { headers: { 'user-agent': UPSTREAM_USER_AGENT }, handshakeTimeout: HANDSHAKE_TIMEOUT_MS, maxPayload: 64 * 1024 * 1024 });
    this.ws = ws;
    ws.on('open', () => {
      this.lastFrameAt = Date.now();
      this.startPings();
      this.safely(() => this.opts.onOpen());
    });
    ws.on('message', (data, isBinary) => {
      // The backoff resets on the first frame, not on open: a server that accepts and hangs up at once stays backed off.
      this.attempt = 0;
      this.lastFrameAt = Date.now();
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      // Not through safely(): no closure per frame.
      try {
        this.opts.onText(text);
      } catch (e) {
        this.failed(e);
      }
    });
    ws.on('error', (e) => this.opts.onProblem(`upstream socket error: ${e.message}`));
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      clearInterval(this.pingTimer);
      this.opts.onProblem(`upstream socket closed (${code}${reason.length ? ' ' + reason.toString().slice(0, 80) : ''})`);
      this.safely(() => this.opts.onClose?.());
      this.scheduleReconnect();
    });
  }

  private startPings(): void {
    clearInterval(this.pingTimer);
    const every = this.opts.pingIntervalMs ?? PING_INTERVAL_MS;
    const deadAfter = this.opts.deadAfterMs ?? DEAD_AFTER_MS;
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastFrameAt > deadAfter) return this.drop(`silent for ${deadAfter} ms (no PONG)`);
      this.send('PING');
    }, Math.min(every, deadAfter));
    this.pingTimer.unref();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const b = this.opts.backoff ?? DEFAULT_BACKOFF;
    const base = Math.min(b.maxMs, b.initialMs * b.factor ** this.attempt);
    const delay = Math.max(0, Math.round(base * (1 + b.jitter * (2 * Math.random() - 1))));
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.stopped) this.connect();
    }, delay);
  }

  private safely(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.failed(e);
    }
  }

  private failed(e: unknown): void {
    this.opts.onProblem(`mirror handler failed on an upstream frame: ${e instanceof Error ? e.message : String(e)}`);
  }
}
