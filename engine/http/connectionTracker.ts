import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:net';
import type { Socket } from 'node:net';

/** How long a shutdown waits for in-flight requests and slow clients before it cuts them off. */
export const SHUTDOWN_GRACE_MS = 2000;

/**
 * Every connection the engine accepted, and which of them have a request in flight. Node tracks the
 * connections of a server that listens; fastify's server never listens here (the lean front hands it
 * sockets). requestDeadlines.ts starts Node's tracking for it (for the head/body deadlines), but that
 * covers only sockets already handed over, not the ones the lean front still holds, and Node's close()
 * has no grace for busy ones: before this, a bot holding an idle keep-alive socket kept the engine
 * from exiting. Shutdown, with this: idle connections are closed at once, busy ones
 * right after their answer is written (durable: the answer waits for the write), and whatever is left
 * (a client trickling a request head, a peer that stopped reading) is destroyed after the grace.
 */
export class ConnectionTracker {
  private readonly sockets = new Set<Socket>();
  private readonly busy = new Map<Socket, number>();
  private closing = false;

  constructor(front: Server, fallback: HttpServer) {
    front.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.once('close', () => {
        this.sockets.delete(s);
        this.busy.delete(s);
      });
    });
    fallback.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const s = req.socket;
      this.busy.set(s, (this.busy.get(s) ?? 0) + 1);
      res.once('close', () => {
        const n = (this.busy.get(s) ?? 1) - 1;
        if (n > 0) this.busy.set(s, n);
        else this.busy.delete(s);
        if (this.closing && n <= 0) s.destroySoon();
      });
    });
  }

  /** Open connections (tests and stats). */
  get size(): number {
    return this.sockets.size;
  }

  /**
   * Starts closing: idle sockets end now; the promise resolves once every socket is gone, destroying
   * the stragglers after `graceMs`. `isLeanBusy` says whether the lean front still owes a socket an
   * answer (it ends those itself when they are written).
   */
  async close(isLeanBusy: (s: Socket) => boolean, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
    this.closing = true;
    for (const s of this.sockets) if (!this.busy.has(s) && !isLeanBusy(s)) s.destroySoon();
    const deadline = Date.now() + graceMs;
    while (this.sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const s of this.sockets) s.destroy();
  }
}
