/**
 * End to end over HTTP: pre-signed orders on many keep-alive connections against the headless exchange
 * running in its own process (durable before each 201), then the batch lookup and the deep-book read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import secp256k1 from 'secp256k1';
import { Pool } from 'undici';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CLOB_AUTH_TYPES, clobAuthDomain, clobAuthMessage, type Address } from '../engine/protocol/eip712.js';
import { recoveryCeiling } from './recoveryCeiling.js';
import { startEngineProcess, type ReadyInfo } from './engineProcess.js';
import { blast, l2Headers, measuredRound, medianRound, openConnections, percentile, signedBuyBody, type HttpRound, type OrderDomain } from './orderLoad.js';
import { RawConnection, serializeRequest } from './rawHttpClient.js';

export type { HttpRound } from './orderLoad.js';

export interface HttpBenchOptions {
  /** Orders per measured round. */
  orders?: number;
  connections?: number;
  traders?: number;
  /** Measured rounds (each on a fresh market with fresh orders); the figures are the median round's. */
  rounds?: number;
}

export interface HttpBenchResult {
  orders: number;
  connections: number;
  accepted: number;
  rejected: number;
  seconds: number;
  acceptedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Two worker threads recovering order signatures flat out, measured just before the engine starts. */
  recoveryCeilingPerSecond: number;
  /** acceptedPerSecond as a percentage of that ceiling. */
  ceilingPercent: number;
  /** CPU time per accepted order: the engine process (all threads) and this load generator. */
  engineCpuUsPerOrder: number;
  loadGeneratorCpuUsPerOrder: number;
  /** During the measured run: writer-thread transactions and signature-recovery batches, and how many orders each carried. */
  pipeline: { writerTransactions: number; groupsPerWriterTransaction: number; recoveryBatches: number; ordersPerRecoveryBatch: number; batchVerifiedPercent: number };
  /** 1-minute load average before and after the measured runs (other processes share the cores). */
  loadAverage: { before: number; after: number };
  /** Every round, in the order run: the machine's run-to-run spread. */
  rounds: HttpRound[];
  lookup500: { p50Ms: number; p99Ms: number };
  book1000Levels: { levels: number; p50Ms: number; p99Ms: number; serverP50Ms: number };
}

export interface Trader {
  key: `0x${string}`;
  priv: Uint8Array;
  address: Address;
  creds: { key: string; secret: string; passphrase: string };
}

export interface Market {
  conditionId: string;
  yes: string;
  no: string;
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text}`);
  return JSON.parse(text) as T;
}

export async function createMarket(ready: ReadyInfo, tickSize: string): Promise<Market> {
  const m = await json<{ condition_id: string; tokens: Array<{ token_id: string }> }>(
    await fetch(`${ready.trading}/admin/markets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ready.operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: `Benchmark market at tick ${tickSize}?`, tickSize, minOrderSize: '5' }),
    }),
  );
  return { conditionId: m.condition_id, yes: m.tokens[0]!.token_id, no: m.tokens[1]!.token_id };
}

export async function createTrader(ready: ReadyInfo): Promise<Trader> {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  const timestamp = Math.floor(Date.now() / 1000).toString();
  const signature = await account.signTypedData({
    domain: clobAuthDomain(ready.chainId),
    types: CLOB_AUTH_TYPES,
    primaryType: 'ClobAuth',
    message: clobAuthMessage(account.address, timestamp, 0n),
  });
  const creds = await json<Trader['creds']>(
    await fetch(`${ready.trading}/auth/api-key`, {
      method: 'POST',
      headers: { SERVICE_ADDRESS: account.address, SERVICE_SIGNATURE: signature, SERVICE_TIMESTAMP: timestamp, SERVICE_NONCE: '0' },
    }),
  );
  await json(
    await fetch(`${ready.trading}/admin/faucet`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ready.operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: account.address, amount: '10000000' }),
    }),
  );
  return { key, priv: Buffer.from(key.slice(2), 'hex'), address: account.address, creds };
}

interface PreparedRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The order stream: mostly resting BUYs on both outcomes below 0.5 (they never cross each other), and every
 * tenth a FAK BUY of the other outcome at 0.6 that mints against the resting side: matching, fills and
 * settlement writes are part of the measured path.
 */
let nextSalt = 1_000_000;

export function prepareOrders(n: number, traders: Trader[], market: Market, domain: OrderDomain): PreparedRequest[] {
  const out: PreparedRequest[] = [];
  for (let i = 0; i < n; i++) {
    const t = traders[i % traders.length]!;
    const crossing = i % 10 === 9;
    const outcomeYes = i % 2 === 0;
    const token = outcomeYes ? market.yes : market.no;
    const price = crossing ? 600_000n : BigInt(10_000 * (1 + (i % 45)));
    const body = signedBuyBody(t, market.conditionId, token, price, 5_000_000n, nextSalt++, crossing ? 'FAK' : 'GTC', domain);
    out.push({ body, headers: l2Headers(t.address, t.creds, 'POST', '/order', body) });
  }
  return out;
}

function ceilingSamples(n: number): Array<{ digest: Uint8Array; signature: string }> {
  const priv = Buffer.from(generatePrivateKey().slice(2), 'hex');
  const out = [];
  for (let i = 0; i < n; i++) {
    const digest = new Uint8Array(32);
    digest[0] = i & 255;
    digest[1] = i >> 8;
    digest[31] = 7;
    const { signature, recid } = secp256k1.ecdsaSign(digest, priv);
    out.push({ digest, signature: '0x' + Buffer.from(signature).toString('hex') + (27 + recid).toString(16) });
  }
  return out;
}

/** The requests as bytes, built before the clock starts. */
export function serializeOrders(base: string, reqs: PreparedRequest[]): Buffer[] {
  const host = new URL(base).host;
  return reqs.map((r) => serializeRequest(host, 'POST', '/order', r.headers, r.body));
}

async function timeRequests(pool: Pool, n: number, req: () => { path: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }, expect: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = req();
    const s = performance.now();
    const res = await pool.request(r);
    await res.body.text();
    const dt = performance.now() - s;
    if (res.statusCode !== expect) throw new Error(`${r.method} ${r.path} answered ${res.statusCode}`);
    if (i >= 5) times.push(dt); // the first few warm the route up
  }
  return times.sort((a, b) => a - b);
}

/** 1,000 levels on one token: 500 distinct YES bids and 500 distinct NO bids (mirrored as YES asks). */
async function deepBook(ready: ReadyInfo, conns: RawConnection[], trader: Trader, domain: OrderDomain): Promise<{ market: Market; levels: number }> {
  const market = await createMarket(ready, '0.0001');
  const reqs: PreparedRequest[] = [];
  for (let i = 1; i <= 500; i++) {
    for (const token of [market.yes, market.no]) {
      const body = signedBuyBody(trader, market.conditionId, token, BigInt(100 * i), 5_000_000n, nextSalt++, 'GTC', domain);
      reqs.push({ body, headers: l2Headers(trader.address, trader.creds, 'POST', '/order', body) });
    }
  }
  const r = await blast(conns.slice(0, 16), serializeOrders(ready.trading, reqs));
  if (r.ok !== reqs.length) throw new Error(`deep book: only ${r.ok}/${reqs.length} orders accepted (${r.firstError})`);
  const book = await json<{ bids: unknown[]; asks: unknown[] }>(await fetch(`${ready.trading}/book?token_id=${market.yes}`));
  return { market, levels: book.bids.length + book.asks.length };
}

export async function runHttpBench(opts: HttpBenchOptions = {}): Promise<HttpBenchResult> {
  const n = opts.orders ?? 40_000;
  const connections = opts.connections ?? 64;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const recoveryCeilingPerSecond = await recoveryCeiling(ceilingSamples(256), 2000);
  const engine = await startEngineProcess(['--port', '0', '--data-dir', dataDir, '--chain', 'none', '--no-demo', '--no-rate-limits']);
  const pool = new Pool(engine.ready.trading, { connections, pipelining: 1 });
  const conns = await openConnections(engine.ready.trading, connections);
  try {
    const ready = engine.ready;
    const config = await json<{ chainId: number; contracts: { exchange: Address } }>(await fetch(`${ready.trading}/config`));
    const domain = { chainId: config.chainId, verifyingContract: config.contracts.exchange };
    const traders = await Promise.all(Array.from({ length: opts.traders ?? 16 }, () => createTrader(ready)));
    // Warm-up on a separate market so JIT and caches are hot, then the measured rounds.
    const warmMarket = await createMarket(ready, '0.01');
    await blast(conns, serializeOrders(ready.trading, prepareOrders(3_000, traders, warmMarket, domain)));
    const stats = async () =>
      json<{ orderWriter: { transactions: number; groups: number }; signatureVerifier: { batches: number; inWorker: number; batchVerified: number } }>(
        await fetch(`${ready.trading}/admin/stats`, { headers: { authorization: `Bearer ${ready.operatorToken}` } }),
      );
    const stats0 = await stats();
    const loadBefore = loadavg()[0]!;
    const rounds: HttpRound[] = [];
    const ids: string[] = [];
    for (let r = 0; r < (opts.rounds ?? 3); r++) {
      const market = await createMarket(ready, '0.01');
      const reqs = serializeOrders(ready.trading, prepareOrders(n, traders, market, domain));
      const { round, run } = await measuredRound(engine.pid, conns, reqs);
      if (run.firstError) console.error(`first rejection: ${run.firstError}`);
      if (ids.length === 0) ids.push(...run.ids.slice(0, 500));
      rounds.push(round);
    }
    const loadAfter = loadavg()[0]!;
    const stats1 = await stats();
    const writerTransactions = stats1.orderWriter.transactions - stats0.orderWriter.transactions;
    const recoveryBatches = stats1.signatureVerifier.batches - stats0.signatureVerifier.batches;
    const pipeline = {
      writerTransactions,
      groupsPerWriterTransaction: Math.round(((stats1.orderWriter.groups - stats0.orderWriter.groups) / Math.max(1, writerTransactions)) * 10) / 10,
      recoveryBatches,
      ordersPerRecoveryBatch: Math.round(((stats1.signatureVerifier.inWorker - stats0.signatureVerifier.inWorker) / Math.max(1, recoveryBatches)) * 10) / 10,
      batchVerifiedPercent:
        Math.round(((stats1.signatureVerifier.batchVerified - stats0.signatureVerifier.batchVerified) / Math.max(1, stats1.signatureVerifier.inWorker - stats0.signatureVerifier.inWorker)) * 1000) / 10,
    };
    const median = medianRound(rounds);

    const lookupBody = JSON.stringify(ids.map((orderId) => ({ orderId })));
    const lookup = await timeRequests(pool, 55, () => ({ path: '/data/orders/lookup', method: 'POST', body: lookupBody, headers: { 'content-type': 'application/json' } }), 207);

    const deep = await deepBook(ready, conns, traders[0]!, domain);
    const bookTimes = await timeRequests(pool, 505, () => ({ path: `/book?token_id=${deep.market.yes}`, method: 'GET' }), 200);
    // The same read with HTTP round-trip overhead removed: an empty-route baseline on the same connection.
    const health = await timeRequests(pool, 505, () => ({ path: '/', method: 'GET' }), 200);

    return {
      orders: n,
      connections,
      accepted: median.accepted,
      rejected: n - median.accepted,
      seconds: median.seconds,
      acceptedPerSecond: median.acceptedPerSecond,
      p50Ms: median.p50Ms,
      p99Ms: median.p99Ms,
      recoveryCeilingPerSecond: Math.round(recoveryCeilingPerSecond),
      ceilingPercent: Math.round((median.acceptedPerSecond / recoveryCeilingPerSecond) * 1000) / 10,
      engineCpuUsPerOrder: median.engineCpuUsPerOrder,
      loadGeneratorCpuUsPerOrder: median.loadGeneratorCpuUsPerOrder,
      pipeline,
      loadAverage: { before: loadBefore, after: loadAfter },
      rounds,
      lookup500: { p50Ms: percentile(lookup, 50), p99Ms: percentile(lookup, 99) },
      book1000Levels: {
        levels: deep.levels,
        p50Ms: percentile(bookTimes, 50),
        p99Ms: percentile(bookTimes, 99),
        serverP50Ms: Math.max(0, percentile(bookTimes, 50) - percentile(health, 50)),
      },
    };
  } finally {
    for (const c of conns) c.close();
    await pool.close();
    await engine.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runHttpBench({ orders: Number(process.env.BENCH_ORDERS ?? 40_000), connections: Number(process.env.BENCH_CONNECTIONS ?? 64), rounds: Number(process.env.BENCH_ROUNDS ?? 3) })
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
