/**
 * A minimal keep-alive HTTP/1.1 client for the load generator: requests are serialised to bytes before
 * the measured run, and responses are parsed only as far as status line, Content-Length and body, on
 * bytes (no string is made of a response unless its caller asks for the body).
 * The load generator shares the machine's two cores with the engine; a general-purpose client spends
 * several times more CPU per request than this, CPU the engine then does not get.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  body: string;
}

/** Called with each response: its status and its body bytes (a view, valid only during the call). */
export type OnResponse = (status: number, body: Buffer) => void;

/** The bytes of one request (Content-Length and Host added), ready to write as often as needed. */
export function serializeRequest(host: string, method: string, path: string, headers: Record<string, string>, body: string): Buffer {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  const payload = Buffer.from(body);
  head += `content-length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = Buffer.from('\r\ncontent-length:');
const CONTENT_LENGTH_ANY_CASE = /\r\ncontent-length:\s*(\d+)/i;

/** Content-Length of the head in buf[0, headerEnd), or -1 when it has none. */
function contentLength(buf: Buffer, headerEnd: number): number {
  const at = buf.indexOf(CONTENT_LENGTH);
  if (at < 0 || at > headerEnd) {
    const m = CONTENT_LENGTH_ANY_CASE.exec(buf.toString('latin1', 0, headerEnd));
    return m ? Number(m[1]) : -1;
  }
  let i = at + CONTENT_LENGTH.length;
  while (buf[i] === 0x20) i++;
  let n = 0;
  for (let c = buf[i]!; c >= 0x30 && c <= 0x39; c = buf[++i]!) n = n * 10 + (c - 0x30);
  return n;
}

/** One persistent connection; one request at a time (no pipelining), like a browser or SDK client. */
export class RawConnection {
  private pending: Buffer | undefined;
  private onResponse: OnResponse | undefined;
  private onError: ((e: Error) => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    const fail = (e?: Error) => {
      const f = this.onError;
      this.onResponse = undefined;
      this.onError = undefined;
      f?.(e ?? new Error('connection closed before the response'));
    };
    socket.on('error', fail);
    socket.on('close', () => {
      this.closed = true;
      fail();
    });
  }

  /** The server closed it (e.g. its idle keep-alive timeout): a request on it fails at once instead of hanging. */
  closed = false;

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = connect(port, host, () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }

  /** Writes one request; `done` gets its response, `failed` a connection error. */
  request(request: Buffer, done: OnResponse, failed: (e: Error) => void): void {
    if (this.onResponse) return failed(new Error('a request is already in flight on this connection'));
    if (this.closed) return failed(new Error('the connection was closed (idle for longer than the server keeps it?)'));
    this.onResponse = done;
    this.onError = failed;
    this.socket.write(request);
  }

  send(request: Buffer): Promise<RawResponse> {
    return new Promise((resolve, reject) => this.request(request, (status, body) => resolve({ status, body: body.toString('utf8') }), reject));
  }

  private onData(d: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, d]) : d;
    const headerEnd = buf.indexOf(HEADER_END);
    if (headerEnd < 0) {
      this.pending = buf;
      return;
    }
    const length = contentLength(buf, headerEnd);
    if (length < 0) {
      this.pending = undefined;
      this.onError?.(new Error(`response without Content-Length: ${buf.toString('latin1', 0, Math.min(headerEnd, 200))}`));
      return;
    }
    const end = headerEnd + 4 + length;
    if (buf.length < end) {
      this.pending = buf;
      return;
    }
    this.pending = end < buf.length ? buf.subarray(end) : undefined;
    const status = (buf[9]! - 0x30) * 100 + (buf[10]! - 0x30) * 10 + (buf[11]! - 0x30);
    const done = this.onResponse;
    this.onResponse = undefined;
    this.onError = undefined;
    done?.(status, buf.subarray(headerEnd + 4, end));
  }

  close(): void {
    this.socket.end();
  }
}
