import { STATUS_CODES, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { errorReply } from './app.js';
import { BODY_TIMEOUT_MS, HEAD_TIMEOUT_MS, REQUEST_TIMEOUT_RESPONSE } from './requestDeadlines.js';

/** A request the lean path handles: a complete HTTP/1.1 message with a Content-Length body (or none). */
export interface LeanRequest {
  method: string;
  path: string;
  /** Lower-case names; every name appears once (a repeated header sends the request to the fallback). */
  headers: Record<string, string>;
  /** The body as UTF-8 text, exactly the bytes received. */
  body: string;
}

export interface LeanResponse {
  status: number;
  /** Extra headers (lower-case names); content-type, content-length, date and connection are added. */
  headers?: Record<string, string>;
  /** A JSON text. */
  body: string;
}

/** A route's answer ({ status, body, headers? }, as errorReply and placementReply give it) as a lean response. */
export function leanJson(r: { status: number; body: unknown; headers?: Record<string, string> }): LeanResponse {
  return { status: r.status, body: JSON.stringify(r.body), ...(r.headers ? { headers: r.headers } : {}) };
}

/** Returns the handler of a request, or undefined to let the fallback server handle it. */
export type LeanRouter = (method: string, target: string) => ((req: LeanRequest) => Promise<LeanResponse>) | undefined;

export interface LeanServerOptions {
  /** The node HTTP server (fastify's) that takes over every connection the lean path does not handle. */
  fallback: HttpServer;
  route: LeanRouter;
  /** Largest accepted body; a bigger Content-Length goes to the fallback (which answers 413). */
  bodyLimit: number;
  /** Idle keep-alive connections are closed after this long (fastify's default is 72 s). */
  keepAliveTimeoutMs?: number;
  /** A request head must arrive whole within this long of its first byte (408 and close otherwise). */
  headTimeoutMs?: number;
  /** Its body, within this long of the head. */
  bodyTimeoutMs?: number;
  /** Connections open at once; past it new ones are closed at once (a slow-client flood cannot exhaust the process). */
  maxConnections?: number;
}

/** HTTP and WebSocket connections together: room for the 1,000 stream subscribers beside the HTTP clients. */
export const MAX_CONNECTIONS = 4096;

/** Requests of one connection being handled at once; beyond it, reading pauses (pipelining backpressure). */
const MAX_IN_FLIGHT = 64;
/** Node's default limit on the request head; a longer head goes to the fallback (which answers 431). */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const REQUEST_LINE = /^([A-Z]+) (\/[^ ]*) HTTP\/1\.1$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

let dateSecond = 0;
let dateText = '';
function httpDate(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/**
 * A minimal HTTP/1.1 front for the hottest routes (POST /order), in front of the fastify server.
 *
 * Why: on this workload node's HTTP machinery plus fastify's request lifecycle cost the engine more CPU
 * per order than matching, validation and the SQLite write together (a plain `net` parser measured
 * 37 µs of server CPU per request against 79 µs for node:http and ~120 µs for fastify with hooks and
 * a body schema, same load). The lean path parses the request itself and writes the response in one
 * write.
 *
 * It handles only plain requests: HTTP/1.1, a route the router knows, no repeated header, a
 * Content-Length body within the limit (no chunked encoding, no Expect). Anything else, and every
 * request after it on the same connection, goes to the fallback server: the connection, with the bytes
 * not yet handled, is handed to node's HTTP server, which then owns it (so fastify answers exactly as
 * it does without this front: 400 for a malformed request, 413, 431, and every other route).
 * Pipelined requests are answered in order.
 */
export function createLeanServer(opts: LeanServerOptions): LeanServer {
  const open = new Set<LeanConnection>();
  const bySocket = new WeakMap<Socket, LeanConnection>();
  const server = createServer({ noDelay: true }, (socket) => {
    const c = new LeanConnection(socket, opts, () => open.delete(c));
    open.add(c);
    bySocket.set(socket, c);
  });
  server.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  return {
    server,
    busy: (socket) => bySocket.get(socket)?.inFlight() ?? false,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold close() open; busy ones end after their responses.
        for (const c of open) c.closeWhenIdle();
      }),
  };
}

export interface LeanServer {
  /** The listening socket server. */
  readonly server: Server;
  /** Stops accepting, closes idle connections and the rest once their responses are written. */
  close(): Promise<void>;
  /** Whether the lean path still owes this connection an answer (a shutdown waits for it). */
  busy(socket: Socket): boolean;
}

interface Slot {
  text: string | undefined;
}

class LeanConnection {
  private buf: Buffer | undefined;
  private readonly slots: Slot[] = [];
  private handOver = false;
  private closeAfter = false;
  /** Chunks of a body still on its way, joined once when it is whole (not on every chunk). */
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  /** Bytes the request being received needs in all (head + body), once its head is parsed. */
  private need = 0;
  private deadline: NodeJS.Timeout | undefined;
  private readonly onData = (d: Buffer) => this.receive(d);

  /** A request of this connection is being answered by the lean path. */
  inFlight(): boolean {
    return !this.handOver && this.slots.length > 0;
  }

  constructor(
    private readonly socket: Socket,
    private readonly opts: LeanServerOptions,
    private readonly forget: () => void,
  ) {
    socket.setTimeout(opts.keepAliveTimeoutMs ?? 72_000, () => {
      if (this.slots.length === 0 && !this.handOver) socket.destroy();
    });
    socket.on('data', this.onData);
    socket.on('error', () => socket.destroy());
    socket.on('close', forget);
    socket.on('drain', () => this.resume());
  }

  /** A client that pipelines without reading its responses is not read from until it catches up. */
  private get backlogged(): boolean {
    return this.slots.length >= MAX_IN_FLIGHT || this.socket.writableNeedDrain;
  }

  private resume(): void {
    if (this.handOver || this.backlogged || !this.socket.isPaused()) return;
    this.socket.resume();
    this.parse();
  }

  /** Shutdown: end the connection now if nothing is pending, else after the pending responses. */
  closeWhenIdle(): void {
    if (this.handOver) return; // the fallback server owns it and closes it
    this.closeAfter = true;
    if (this.slots.length === 0) this.socket.end();
  }

  private receive(d: Buffer): void {
    if (this.need > 0) {
      this.chunks.push(d);
      this.chunkBytes += d.length;
      if ((this.buf?.length ?? 0) + this.chunkBytes < this.need) return;
      this.joinChunks();
    } else {
      if (!this.buf || this.buf.length === 0) this.arm(this.opts.headTimeoutMs ?? HEAD_TIMEOUT_MS);
      this.buf = this.buf && this.buf.length > 0 ? Buffer.concat([this.buf, d]) : d;
    }
    this.parse();
  }

  private joinChunks(): void {
    if (this.chunks.length > 0) this.buf = Buffer.concat(this.buf ? [this.buf, ...this.chunks] : this.chunks);
    this.chunks = [];
    this.chunkBytes = 0;
    this.need = 0;
  }

  /** A request must arrive whole in time: a client trickling bytes cannot hold a connection forever. */
  private arm(ms: number): void {
    clearTimeout(this.deadline);
    this.deadline = setTimeout(() => {
      if (this.handOver || this.socket.destroyed) return;
      this.socket.end(REQUEST_TIMEOUT_RESPONSE);
      this.socket.destroySoon();
    }, ms);
    this.deadline.unref();
  }

  private parse(): void {
    while (!this.handOver && !this.closeAfter && this.buf && this.buf.length > 0) {
      if (this.backlogged) {
        this.socket.pause();
        return;
      }
      const buf = this.buf;
      const headEnd = buf.indexOf(HEAD_END);
      if (headEnd < 0) {
        if (buf.length > MAX_HEAD_BYTES) this.toFallback();
        return;
      }
      const head = buf.toString('latin1', 0, headEnd);
      const lines = head.split('\r\n');
      const m = REQUEST_LINE.exec(lines[0]!);
      const handler = m ? this.opts.route(m[1]!, m[2]!) : undefined;
      if (!m || !handler) return this.toFallback();
      const headers: Record<string, string> = {};
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        const colon = line.indexOf(':');
        if (colon <= 0) return this.toFallback();
        const name = line.slice(0, colon).toLowerCase();
        if (!TOKEN.test(name) || name in headers) return this.toFallback();
        headers[name] = line.slice(colon + 1).trim();
      }
      if (headers['transfer-encoding'] !== undefined || headers.expect !== undefined) return this.toFallback();
      const lengthText = headers['content-length'];
      if (lengthText !== undefined && !/^\d{1,9}$/.test(lengthText)) return this.toFallback();
      const length = lengthText === undefined ? 0 : Number(lengthText);
      if (length > this.opts.bodyLimit) return this.toFallback();
      const end = headEnd + HEAD_END.length + length;
      if (buf.length < end) {
        // The rest of the body is still on its way: collect it, join once (re-joining per chunk cost
        // seconds of CPU for a megabyte sent in small segments), and give it the body deadline.
        this.need = end;
        this.arm(this.opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
        return;
      }
      clearTimeout(this.deadline);
      const connection = headers.connection?.toLowerCase();
      if (connection !== undefined && connection !== 'keep-alive' && connection !== 'close') return this.toFallback();
      const body = buf.toString('utf8', headEnd + HEAD_END.length, end);
      this.buf = end === buf.length ? undefined : buf.subarray(end);
      if (this.buf) this.arm(this.opts.headTimeoutMs ?? HEAD_TIMEOUT_MS);
      if (connection === 'close') this.closeAfter = true;
      const slot: Slot = { text: undefined };
      this.slots.push(slot);
      const close = this.closeAfter;
      handler({ method: m[1]!, path: m[2]!, headers, body }).then(
        (res) => this.fill(slot, res, close),
        (e: unknown) => this.fill(slot, leanJson(errorReply(e)), close),
      );
    }
  }

  private fill(slot: Slot, res: LeanResponse, close: boolean): void {
    let head = `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? 'Status'}\r\n`;
    if (res.headers) for (const k in res.headers) head += `${k}: ${res.headers[k]}\r\n`;
    head += `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(res.body)}\r\ndate: ${httpDate()}\r\nconnection: ${close ? 'close' : 'keep-alive'}\r\n\r\n`;
    slot.text = head + res.body;
    this.flush();
  }

  /** Writes the answered responses at the head of the queue, in request order. */
  private flush(): void {
    while (this.slots.length > 0 && this.slots[0]!.text !== undefined) {
      const slot = this.slots.shift()!;
      if (!this.socket.destroyed) this.socket.write(slot.text!, 'utf8');
    }
    if (this.slots.length > 0) return this.resume();
    if (this.closeAfter) this.socket.end();
    else if (this.handOver) this.handOff();
    else this.resume();
  }

  /** From this request on, the fallback server owns the connection (once earlier responses are out). */
  private toFallback(): void {
    this.handOver = true;
    if (this.slots.length === 0) this.handOff();
  }

  private handOff(): void {
    this.joinChunks();
    clearTimeout(this.deadline);
    const socket = this.socket;
    socket.off('data', this.onData);
    socket.removeAllListeners('drain');
    if (socket.isPaused()) socket.resume();
    socket.setTimeout(0);
    this.forget();
    const rest = this.buf;
    this.buf = undefined;
    if (rest && rest.length > 0) socket.unshift(rest);
    this.opts.fallback.emit('connection', socket);
  }
}
