/** The standard WebSocket surface the streams use (browsers' global, or the `ws` package in Node 20). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface StreamSocketOptions {
  /** ws://host:port/ws/market or /ws/user. */
  url: string;
  /** Defaults to globalThis.WebSocket (Node 20 has none: pass the `ws` package's class). */
  WebSocket?: WebSocketConstructor;
  /** Text PING interval (the public service wants one about every 10 s). */
  pingMs?: number;
  /** No message (not even PONG) for this long → the connection is dead and is replaced. */
  deadMs?: number;
  /** Delay before reconnect attempt n (1, 2, …). */
  backoffMs?: (attempt: number) => number;
}

export interface StreamStatus {
  state: StreamState;
  /** Time of the last frame received (ms since epoch), 0 before any. */
  lastMessageAt: number;
  reconnects: number;
  lastClose?: { code: number; reason: string };
}

/**
 * One self-healing stream connection: sends PING every `pingMs`, treats `deadMs` of silence as a dead
 * connection, reconnects with backoff and lets the subclass re-subscribe (with resume) on every open.
 */
export abstract class StreamSocket<E> {
  private ws: WebSocketLike | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private stopped = false;
  private readonly listeners = new Set<(e: E) => void>();
  private readonly statusListeners = new Set<(s: StreamStatus) => void>();
  readonly status: StreamStatus = { state: 'connecting', lastMessageAt: 0, reconnects: 0 };
  private readonly opts: Required<Omit<StreamSocketOptions, 'WebSocket'>> & { WebSocket: WebSocketConstructor };

  constructor(opts: StreamSocketOptions) {
    const ctor = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!ctor) throw new Error('No WebSocket implementation: pass the `ws` package as options.WebSocket (Node 20 has no global WebSocket).');
    this.opts = { pingMs: 10_000, deadMs: 30_000, backoffMs: (n) => Math.min(10_000, 250 * 2 ** (n - 1)), ...opts, WebSocket: ctor };
  }

  /** Calls `listener` for every event; returns the unsubscribe function. */
  on(listener: (e: E) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: (s: StreamStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Events as an async iterator (ends when the stream is closed). */
  async *[Symbol.asyncIterator](): AsyncGenerator<E> {
    const queue: E[] = [];
    let wake: (() => void) | undefined;
    const off = this.on((e) => (queue.push(e), wake?.()));
    const offStatus = this.onStatus(() => wake?.());
    try {
      while (true) {
        while (queue.length > 0) yield queue.shift()!;
        if (this.stopped) return;
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    } finally {
      off();
      offStatus();
    }
  }

  protected start(): void {
    this.connect();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close(1000, 'client closed');
    this.setState('closed');
  }

  protected send(v: unknown): void {
    if (this.ws && this.ws.readyState === 1) this.ws.send(typeof v === 'string' ? v : JSON.stringify(v));
  }

  protected emit(e: E): void {
    for (const l of this.listeners) l(e);
  }

  /** Replaces the current connection (a dead one, or one whose book could not be trusted). */
  protected reconnect(): void {
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      try {
        ws.close(4000, 'client reconnects');
      } catch {
        // already closed
      }
    }
    this.scheduleReconnect();
  }

  /** Sent on every (re)open: the subscribe message, with resume data after a reconnect. */
  protected abstract onOpen(): void;
  /** One parsed event of the channel. */
  protected abstract onEvent(e: E): void;

  private connect(): void {
    if (this.stopped) return;
    const ws = new this.opts.WebSocket(this.opts.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.status.lastMessageAt = Date.now();
      this.setState('open');
      this.onOpen();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.tick(), this.opts.pingMs);
    };
    ws.onmessage = (ev) => {
      this.status.lastMessageAt = Date.now();
      const text = typeof ev.data === 'string' ? ev.data : String(ev.data);
      if (text === 'PONG') return;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        return;
      }
      for (const e of Array.isArray(v) ? v : [v]) this.onEvent(e as E);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.status.lastClose = { code: ev.code, reason: ev.reason };
      clearInterval(this.pingTimer);
      this.ws = undefined;
      // Rejected credentials and revoked keys do not heal by retrying.
      if (ev.code === 4003 || ev.code === 4004 || ev.code === 4001) {
        this.stopped = true;
        this.setState('closed');
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => undefined;
  }

  private tick(): void {
    if (Date.now() - this.status.lastMessageAt > this.opts.deadMs) {
      this.reconnect();
      return;
    }
    this.send('PING');
  }

  private scheduleReconnect(): void {
    clearInterval(this.pingTimer);
    if (this.stopped) return;
    this.attempt += 1;
    this.status.reconnects += 1;
    this.setState('reconnecting');
    this.retryTimer = setTimeout(() => this.connect(), this.opts.backoffMs(this.attempt));
  }

  private setState(state: StreamState): void {
    this.status.state = state;
    for (const l of this.statusListeners) l({ ...this.status });
  }
}
