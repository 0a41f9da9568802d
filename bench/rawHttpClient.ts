/**
 * A minimal keep-alive HTTP/1.1 client for the load generator: requests are serialised to bytes before
 * the measured run, and responses are parsed only as far as status line, Content-Length and body.
 * The load generator shares the machine's two cores with the engine; a general-purpose client spends
 * several times more CPU per request than this, CPU the engine then does not get.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  body: string;
}

/** The bytes of one request (Content-Length and Host added), ready to write as often as needed. */
export function serializeRequest(host: string, method: string, path: string, headers: Record<string, string>, body: string): Buffer {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  const payload = Buffer.from(body);
  head += `content-length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

/** One persistent connection; one request at a time (no pipelining), like a browser or SDK client. */
export class RawConnection {
  private chunks: Buffer[] = [];
  private size = 0;
  private waiting: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    const fail = (e?: Error) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.reject(e ?? new Error('connection closed before the response'));
    };
    socket.on('error', fail);
    socket.on('close', () => fail());
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = connect(port, host, () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }

  send(request: Buffer): Promise<RawResponse> {
    if (this.waiting) return Promise.reject(new Error('a request is already in flight on this connection'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  private onData(d: Buffer): void {
    this.chunks.push(d);
    this.size += d.length;
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    const headerEnd = buf.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = buf.toString('latin1', 0, headerEnd);
    const m = CONTENT_LENGTH.exec(head);
    if (!m) {
      this.waiting?.reject(new Error(`response without Content-Length: ${head.slice(0, 200)}`));
      this.waiting = undefined;
      return;
    }
    const end = headerEnd + 4 + Number(m[1]);
    if (buf.length < end) {
      this.chunks = [buf];
      return;
    }
    const response = { status: Number(head.slice(9, 12)), body: buf.toString('utf8', headerEnd + 4, end) };
    const rest = buf.subarray(end);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    const w = this.waiting;
    this.waiting = undefined;
    w?.resolve(response);
  }

  close(): void {
    this.socket.end();
  }
}
