/**
 * The machine's reference pipelines (bench/referenceServer.ts), each in its own process, under the load
 * generator and pre-signed orders of the engine's HTTP benchmark: what this machine gives POST /order
 * before the engine's own work, printed beside the engine's figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { spawnWithReadyLine } from './engineProcess.js';
import { blast, l2Headers, measuredRound, medianRound, openConnections, signedBuyBody, type HttpRound, type OrderSigner } from './orderLoad.js';
import { serializeRequest } from './rawHttpClient.js';
import { REFERENCE_CREDS, REFERENCE_DOMAIN, REFERENCE_STAGES, type ReferenceStage } from './referenceServer.js';

export interface ReferenceBenchOptions {
  stages?: readonly ReferenceStage[];
  connections?: readonly number[];
  orders?: number;
  rounds?: number;
}

export interface ReferenceResult {
  stage: ReferenceStage;
  connections: number;
  /** The median round's figures. */
  median: HttpRound;
  rounds: HttpRound[];
}

const CONDITION_ID = '0x' + '5a'.repeat(32);

/** `count` distinct signed orders from 16 signers, as request bytes. */
function signedRequests(signers: OrderSigner[], count: number, firstSalt: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const t = signers[i % signers.length]!;
    const body = signedBuyBody(t, CONDITION_ID, '1000' + (i % 2), BigInt(10_000 * (1 + (i % 45))), 5_000_000n, firstSalt + i, 'GTC', REFERENCE_DOMAIN);
    out.push(serializeRequest('127.0.0.1', 'POST', '/order', l2Headers(t.address, REFERENCE_CREDS, 'POST', '/order', body), body));
  }
  return out;
}

/**
 * Every stage at every connection count, on a fresh process and data directory each time. The orders are
 * signed once and replayed to each process (each has its own database, so none is a duplicate there).
 */
export async function runReferenceBench(opts: ReferenceBenchOptions = {}): Promise<ReferenceResult[]> {
  const orders = opts.orders ?? 40_000;
  const roundCount = opts.rounds ?? 3;
  const signers: OrderSigner[] = Array.from({ length: 16 }, () => {
    const key = generatePrivateKey();
    return { priv: Buffer.from(key.slice(2), 'hex'), address: privateKeyToAccount(key).address };
  });
  const warmUp = signedRequests(signers, 3_000, 1);
  const measured = Array.from({ length: roundCount }, (_, r) => signedRequests(signers, orders, 10_000 + r * orders));
  const results: ReferenceResult[] = [];
  for (const stage of opts.stages ?? REFERENCE_STAGES) {
    for (const connections of opts.connections ?? [64, 256]) {
      const dataDir = mkdtempSync(join(tmpdir(), `bench-reference-${stage}-`));
      // The prototype recovers every signature, as the prototype did.
      const env = stage === 'prototype' ? { ...process.env, SIGNATURE_BATCH_VERIFY: '0' } : process.env;
      const server = await spawnWithReadyLine<{ port: number }>(['--import', 'tsx', 'bench/referenceServer.ts', stage, dataDir], env);
      const conns = await openConnections(`http://127.0.0.1:${server.ready.port}`, connections);
      try {
        const warm = await blast(conns, warmUp);
        if (warm.ok !== warmUp.length) throw new Error(`reference ${stage}: ${warm.ok}/${warmUp.length} accepted (${warm.firstError})`);
        const rounds: HttpRound[] = [];
        for (const reqs of measured) {
          const { round, run } = await measuredRound(server.pid, conns, reqs);
          if (run.ok !== reqs.length) throw new Error(`reference ${stage}: ${run.ok}/${reqs.length} accepted (${run.firstError})`);
          rounds.push(round);
        }
        results.push({ stage, connections, median: medianRound(rounds), rounds });
      } finally {
        for (const c of conns) c.close();
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runReferenceBench({ orders: Number(process.env.BENCH_ORDERS ?? 40_000), rounds: Number(process.env.BENCH_ROUNDS ?? 3) })
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
