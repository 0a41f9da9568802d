import { connect, type Socket } from 'node:net';

/**
 * A raw HTTP/1.1 connection for tests of the HTTP front: writes exact bytes, reads Content-Length
 * responses (what the engine's server sends), so tests control pipelining, splitting and headers.
 */
export class Wire {
  private data = '';
  private waiters: Array<() => void> = [];
  ended = false;
  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      this.data += d;
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('end', () => {
      this.ended = true;
      for (const w of this.waiters.splice(0)) w();
    });
  }
  static open(port: number): Promise<Wire> {
    return new Promise((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve(new Wire(s)));
    });
  }
  write(text: string): void {
    this.socket.write(text, 'utf8');
  }
  /** The next `n` responses as [status, headers, body]. */
  async responses(n: number): Promise<Array<{ status: number; headers: Record<string, string>; body: string }>> {
    const out = [];
    while (out.length < n) {
      const end = this.data.indexOf('\r\n\r\n');
      const len = end < 0 ? -1 : Number(/\r\ncontent-length: *(\d+)/i.exec(this.data.slice(0, end))?.[1] ?? 0);
      if (end < 0 || this.data.length < end + 4 + len) {
        if (this.ended) throw new Error(`connection ended after ${out.length} responses: ${this.data}`);
        await new Promise<void>((r) => this.waiters.push(r));
        continue;
      }
      const [statusLine, ...lines] = this.data.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: this.data.slice(end + 4, end + 4 + len) });
      this.data = this.data.slice(end + 4 + len);
    }
    return out;
  }
  async closed(): Promise<void> {
    while (!this.ended) await new Promise<void>((r) => this.waiters.push(r));
  }
  close(): void {
    this.socket.destroy();
  }
}
