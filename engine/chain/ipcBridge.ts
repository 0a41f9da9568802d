import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/** Largest JSON-RPC body forwarded (contract deployments are the big ones; far below this). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const ANSWER_TIMEOUT_MS = 60_000;

export interface IpcBridge {
  /** The URL the engine's own clients use: loopback, this port, the secret path. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The engine's private door to anvil when anvil runs in a network namespace of its own (its HTTP port
 * is unreachable; it answers only on its IPC socket in the 0700 chain directory). An HTTP listener on
 * loopback that forwards a JSON-RPC body over the socket and answers with anvil's reply, so every
 * HTTP client of the engine (viem, the /rpc proxy, tests) keeps working unchanged. It answers only a
 * POST to the secret path with the exact `Host: 127.0.0.1:<port>` and no `Origin`: a web page cannot
 * rebind a name onto it (Host), a browser cannot call it (Origin), and no other process knows the
 * path (it is in the engine's memory and a 0600 file of the 0700 chain directory, never on argv).
 */
export async function startIpcBridge(ipcPath: string, port: number, secret: string): Promise<IpcBridge> {
  const host = `127.0.0.1:${port}`;
  const server: Server = createHttpServer((req, res) => {
    const refuse = (status: number, why: string) => {
      res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
      res.end(why + '\n');
    };
    if (req.headers.host !== host) return refuse(421, 'misdirected request');
    if (req.headers.origin !== undefined) return refuse(403, 'browsers may not call the chain node; use the engine /rpc');
    if (req.method !== 'POST' || req.url !== `/${secret}`) return refuse(404, 'not found');
    void readBody(req).then(
      async (body) => {
        if (body === undefined) return refuse(413, 'body too large');
        try {
          const answer = await ipcCall(ipcPath, body);
          if (answer === undefined) {
            res.writeHead(204).end();
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(answer);
        } catch (e) {
          refuse(502, `the chain node did not answer: ${(e as Error).message}`);
        }
      },
      () => refuse(400, 'could not read the body'),
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://${host}/${secret}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const sock of idle.get(ipcPath) ?? []) sock.destroy();
        idle.delete(ipcPath);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Whether JSON-RPC answers a payload at all (a notification, or a batch of only notifications, gets nothing). */
function expectsAnswer(body: Buffer): boolean {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    return true; // anvil answers a parse error
  }
  const hasId = (r: unknown) => typeof r !== 'object' || r === null || 'id' in r;
  return Array.isArray(v) ? v.length === 0 || v.some(hasId) : hasId(v);
}

/**
 * One payload at a time per IPC connection: anvil answers each payload with one JSON line (a batch as
 * one array), in its own order across payloads, so a connection carries one payload until its answer
 * is in. Idle connections are kept for the next call (a connect per call cost ~1 ms more per call).
 */
const idle = new Map<string, Socket[]>();
const MAX_IDLE = 8;

function ipcCall(ipcPath: string, body: Buffer): Promise<string | undefined> {
  const answered = expectsAnswer(body);
  return new Promise((resolve, reject) => {
    const pool = idle.get(ipcPath) ?? [];
    idle.set(ipcPath, pool);
    let sock = pool.pop();
    while (sock && (sock.destroyed || !sock.writable)) sock = pool.pop();
    const fresh = !sock;
    const s = sock ?? connect(ipcPath);
    // An idle pooled connection may still fail (anvil stopped): that must not be an unhandled error.
    if (fresh) s.on('error', () => undefined);
    const chunks: Buffer[] = [];
    const cleanup = () => {
      clearTimeout(timer);
      s.off('data', onData);
      s.off('error', onError);
      s.off('close', onClose);
    };
    const timer = setTimeout(() => {
      cleanup();
      s.destroy();
      reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    timer.unref();
    const onError = (e: Error) => {
      cleanup();
      s.destroy();
      reject(e);
    };
    const onClose = () => onError(new Error('the chain node closed the connection'));
    const onData = (c: Buffer) => {
      const nl = c.indexOf(0x0a);
      if (nl < 0) {
        chunks.push(c);
        return;
      }
      chunks.push(c.subarray(0, nl));
      cleanup();
      // Anything after the answer's line would belong to no one: such a connection is not reused.
      if (nl === c.length - 1 && pool.length < MAX_IDLE) {
        s.unref();
        pool.push(s);
      } else s.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    s.on('error', onError);
    s.on('close', onClose);
    s.on('data', onData);
    s.ref();
    const send = () => {
      if (answered) {
        s.write(body);
        return;
      }
      cleanup();
      s.end(body, () => s.destroy());
      resolve(undefined);
    };
    if (fresh) s.once('connect', send);
    else send();
  });
}
