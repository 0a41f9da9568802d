import type { LiveDataFrame, MarketEvent, UserEvent } from '../../protocol/streamEvents.js';

/** What a stream connection needs from its socket (the HTTP layer adapts a `ws` socket to it). */
export interface StreamTransport {
  /** Sends one text frame (pre-encoded UTF-8 so one event is encoded once for every subscriber). */
  send(frame: Buffer): void;
  /** Bytes queued on the socket and not yet written (a slow consumer's backlog). */
  buffered(): number;
  close(code: number, reason: string): void;
}

/** Close codes of the stream endpoints (docs/api-streams.md). */
export const CLOSE = {
  shutdown: 1001,
  tooBig: 1009,
  slowConsumer: 4008,
  authRequired: 4001,
  authFailed: 4003,
  revoked: 4004,
  idle: 4010,
  tooManyMessages: 4029,
} as const;

/** A subscriber whose socket holds more than this many unsent bytes is closed (it stopped reading). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Assets (market channel) or markets (user channel) one connection may follow, as the public service. */
export const MAX_SUBSCRIPTIONS = 500;
/** Events kept per asset for `resume_from`; an older seq gets a fresh `book`. */
export const REPLAY_EVENTS = 2048;
/**
 * Shortest time between two flushes of the market channel while changes keep coming: a busy market's
 * changes in that window go out as one frame per subscriber (one conflated price_change per asset), so
 * the cost of sending does not grow with the order rate. After a quiet spell the next change goes out
 * at once (end of its event-loop turn).
 */
export const FLUSH_INTERVAL_MS = 10;
/** Largest accepted client message (bytes); bigger ones close the socket with 1009. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** Client messages per second one socket may send on average, and at once (a token bucket); over it the socket is closed. */
export const MESSAGES_PER_SECOND = 50;
export const MESSAGE_BURST = 100;
/** A user socket must authenticate within this long of opening (else close 4001). */
export const LOGIN_TIMEOUT_MS = 10_000;
/** A socket that sends nothing (not even the PING asked for every 10 s) for this long is closed (4010). */
export const IDLE_TIMEOUT_MS = 60_000;
/**
 * Stream sockets open at once. The engine's listener accepts 4,096 connections in all; sockets past this
 * many are refused (503) so a quarter of the connections stay free for HTTP (GET /ok, orders) however many
 * sockets a client opens. Set with `maxStreamSockets` in the engine's options.
 */
export const MAX_STREAM_SOCKETS = 3072;

/** The per-connection bounds (the service holds one object; tests lower them). */
export interface StreamLimits {
  messagesPerSecond: number;
  messageBurst: number;
  loginTimeoutMs: number;
  idleTimeoutMs: number;
  /** Stream sockets open at once (the upgrade of one more is refused). */
  maxSockets: number;
  maxBufferedBytes: number;
  maxSubscriptions: number;
  /** Events kept per asset for `resume_from` (at least; the ring is trimmed in chunks). */
  replayEvents: number;
  /** See FLUSH_INTERVAL_MS (tests set 0 to see every change as its own event). */
  flushIntervalMs: number;
}

/** Base of both channels' connections: frames out with the slow-consumer bound, errors as events. */
export abstract class StreamConnection {
  closed = false;

  constructor(
    protected readonly transport: StreamTransport,
    protected readonly limits: StreamLimits,
  ) {}

  sendFrame(frame: Buffer): void {
    if (this.closed) return;
    if (this.transport.buffered() > this.limits.maxBufferedBytes) {
      this.close(CLOSE.slowConsumer, `slow consumer: more than ${this.limits.maxBufferedBytes} bytes unread`);
      return;
    }
    this.transport.send(frame);
  }

  sendJson(event: MarketEvent | UserEvent | LiveDataFrame): void {
    this.sendFrame(Buffer.from(JSON.stringify(event)));
  }

  sendError(message: string): void {
    this.sendJson({ event_type: 'error', message });
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.onClosed();
    this.transport.close(code, reason);
  }

  /** The socket closed (either side): drop every subscription. */
  abstract onClosed(): void;

  /** One text message from the client. */
  abstract onMessage(text: string): void;

  /** Answers the text PING; returns true when the message was one. */
  protected pong(text: string): boolean {
    if (text.trim().toUpperCase() !== 'PING') return false;
    this.sendFrame(PONG);
    return true;
  }

  /** Parses a JSON object message or answers an error event and returns undefined. */
  protected parse(text: string): Record<string, unknown> | undefined {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      this.sendError(`message is not JSON: send a subscribe object (see docs/api-streams.md) or the text PING; got ${JSON.stringify(text.slice(0, 60))}`);
      return undefined;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.sendError('message must be a JSON object such as {"assets_ids":["<token id>"],"type":"market"}');
      return undefined;
    }
    return v as Record<string, unknown>;
  }
}

const PONG = Buffer.from('PONG');

/** A list of decimal id strings from a message field, or an error sentence. */
export function idList(v: unknown, field: string): string[] | string {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return `'${field}' must be an array of strings`;
  return v as string[];
}
