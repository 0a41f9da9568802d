/**
 * Reference servers for the HTTP benchmark: what this machine gives POST /order before the engine does any
 * of its own work, measured with the same load generator and the same pre-signed orders.
 *   http       bare node:http answering every POST /order with a fixed 201: no work at all;
 *   verify     + the L2 HMAC (native), JSON parsing, the EIP-712 digest and the signature (worker thread,
 *              batch-verified once the signer is known): the checks no order can skip;
 *   durable    + one row per order in SQLite (WAL, synchronous=FULL), one transaction per event-loop turn,
 *              committed before the replies: the least an exchange must do before a 201. Its key is
 *              append-ordered and duplicates are caught in memory, as the engine does (migration 006: a
 *              random key dirties a random page per order and the rounds slow down as the table grows);
 *   prototype  the prototype as it describes it: node:http, createHmac, recovery in a worker thread
 *              (the benchmark switches batch verification off for it), one transaction per turn.
 * None of them matches, reserves balances or validates fields beyond what it needs: they are floors, not
 * exchanges, and they answer only POST /order. Their verdicts are real (a wrong HMAC is a 401, a forged
 * signature or a replayed order a 400), so a reference cannot look fast by accepting anything.
 * As a process: `tsx bench/referenceServer.ts <stage> <dataDir>` prints {"port":N} and serves until SIGTERM.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { base64Decode } from '../engine/protocol/hmac.js';
import type { Address } from '../engine/protocol/eip712.js';
import { hmacSha256Base64Url } from '../engine/services/crypto/hmacSha256.js';
import { bytesToHex, orderDigest, type OrderDigestInput } from '../engine/services/crypto/orderDigest.js';
import { SignatureVerifier } from '../engine/services/crypto/signatureVerifier.js';
import { accepted } from '../engine/services/orders/placementResult.js';
import type { ApiCreds, OrderDomain } from './orderLoad.js';

export const REFERENCE_STAGES = ['http', 'verify', 'durable', 'prototype'] as const;
export type ReferenceStage = (typeof REFERENCE_STAGES)[number];

/** The one API key every reference server accepts (the load generator signs its L2 headers with it). */
export const REFERENCE_CREDS: ApiCreds = {
  key: '00000000-0000-4000-8000-00000000beef',
  secret: Buffer.alloc(32, 7).toString('base64url'),
  passphrase: 'reference-pipeline',
};
export const REFERENCE_DOMAIN: OrderDomain = { chainId: 31337, verifyingContract: '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E' };

interface Reply {
  status: number;
  body: string;
}

type Headers = Record<string, string | string[] | undefined>;

const error = (status: number, message: string): Reply => ({ status, body: JSON.stringify({ error: message }) });
const FIXED_ACCEPT: Reply = { status: 201, body: JSON.stringify(accepted('0x' + '00'.repeat(32), 'live')) };

interface PendingRow {
  orderId: string;
  owner: string;
  body: string;
  resolve: (r: Reply) => void;
}

/** The work of one stage, independent of the HTTP server that carries it. */
class OrderPipeline {
  private readonly key = base64Decode(REFERENCE_CREDS.secret);
  private readonly verifier: SignatureVerifier | undefined;
  private readonly commitRows: ((rows: PendingRow[]) => void) | undefined;
  /** Every stored order id: duplicates are refused here, so the table needs no random-keyed index. */
  private readonly stored = new Set<string>();
  private readonly db: Database.Database | undefined;
  private rows: PendingRow[] = [];
  private scheduled = false;

  constructor(
    private readonly stage: ReferenceStage,
    dataDir: string,
    private readonly hmac: (key: Uint8Array, message: string) => string,
  ) {
    if (stage === 'http') return;
    this.verifier = new SignatureVerifier({ mode: 'worker', workers: 1 });
    if (stage === 'verify') return;
    const db = new Database(join(dataDir, 'reference.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE IF NOT EXISTS orders (seq INTEGER PRIMARY KEY, order_id TEXT NOT NULL, owner TEXT NOT NULL, body TEXT NOT NULL)');
    for (const r of db.prepare('SELECT order_id FROM orders').pluck().iterate()) this.stored.add(r as string);
    const insert = db.prepare('INSERT INTO orders (order_id, owner, body) VALUES (?, ?, ?)');
    this.db = db;
    this.commitRows = db.transaction((rows: PendingRow[]) => {
      for (const r of rows) insert.run(r.orderId, r.owner, r.body);
    });
  }

  async handle(method: string, path: string, h: Headers, body: string): Promise<Reply> {
    if (method !== 'POST' || path !== '/order') return error(404, 'reference servers answer POST /order only');
    if (this.stage === 'http') return FIXED_ACCEPT;
    const signature = h['service_signature'];
    if (h['service_api_key'] !== REFERENCE_CREDS.key || h['service_passphrase'] !== REFERENCE_CREDS.passphrase || typeof signature !== 'string') {
      return error(401, 'Unauthorized/Invalid api key');
    }
    const expected = this.hmac(this.key, `${String(h['service_timestamp'])}${method}${path}${body}`);
    if (expected !== signature.replace(/=+$/, '')) return error(401, 'Unauthorized/Invalid api key');
    let parsed: { order?: OrderDigestInput & { signature?: unknown; signer?: unknown }; owner?: unknown };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      return error(400, 'Invalid order payload');
    }
    const order = parsed.order;
    if (!order || typeof order.signature !== 'string' || typeof order.signer !== 'string' || typeof parsed.owner !== 'string') return error(400, 'Invalid order payload');
    let digest: Uint8Array;
    try {
      digest = orderDigest(order, REFERENCE_DOMAIN);
    } catch {
      return error(400, 'Invalid order payload');
    }
    const signer = await this.verifier!.recover(digest, order.signature, order.signer);
    if (signer !== (order.signer.toLowerCase() as Address)) return error(400, 'invalid signature');
    const orderId = bytesToHex(digest);
    if (!this.commitRows) return { status: 201, body: JSON.stringify(accepted(orderId, 'live')) };
    if (this.stored.has(orderId)) return error(400, 'order already exists');
    this.stored.add(orderId);
    return new Promise<Reply>((resolve) => {
      this.rows.push({ orderId, owner: parsed.owner as string, body, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.commit());
      }
    });
  }

  /** One transaction for every order of the turn, durable before any of them is answered. */
  private commit(): void {
    this.scheduled = false;
    const rows = this.rows;
    this.rows = [];
    this.commitRows!(rows);
    for (const r of rows) r.resolve({ status: 201, body: JSON.stringify(accepted(r.orderId, 'live')) });
  }

  async close(): Promise<void> {
    await this.verifier?.close();
    this.db?.close();
  }
}

export interface ReferenceServer {
  port: number;
  close(): Promise<void>;
}

export async function startReferenceServer(stage: ReferenceStage, dataDir: string): Promise<ReferenceServer> {
  const hmac = stage === 'prototype' ? (key: Uint8Array, message: string) => createHmac('sha256', key).update(message).digest('base64url') : hmacSha256Base64Url;
  const pipeline = new OrderPipeline(stage, dataDir, hmac);
  // Bare node:http, as the engine's server is underneath fastify: the same parser, sockets and keep-alive.
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void pipeline.handle(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8')).then((r) => {
        res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) });
        res.end(r.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('reference server has no TCP port');
  return {
    port: address.port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pipeline.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [stage, dataDir] = process.argv.slice(2);
  if (!REFERENCE_STAGES.includes(stage as ReferenceStage) || !dataDir) {
    console.error(`usage: tsx bench/referenceServer.ts <${REFERENCE_STAGES.join('|')}> <dataDir>`);
    process.exit(2);
  }
  const s = await startReferenceServer(stage as ReferenceStage, dataDir);
  console.log(JSON.stringify({ port: s.port }));
  process.once('SIGTERM', () => void s.close().then(() => process.exit(0)));
}
