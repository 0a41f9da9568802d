/**
 * The load generator's parts, shared by the engine's HTTP benchmark and the machine's reference pipelines:
 * pre-signed BUY orders, L2 headers, keep-alive connections and the measured blast.
 */
import { readFileSync } from 'node:fs';
import secp256k1 from 'secp256k1';
import { ZERO_ADDRESS, type Address } from '../engine/protocol/eip712.js';
import { buildL2Signature } from '../engine/protocol/hmac.js';
import { orderDigest } from '../engine/services/crypto/orderDigest.js';
import { RawConnection } from './rawHttpClient.js';

export interface OrderSigner {
  priv: Uint8Array;
  address: Address;
}

export interface ApiCreds {
  key: string;
  secret: string;
  passphrase: string;
}

export interface OrderDomain {
  chainId: number;
  verifyingContract: Address;
}

/** One measured round of POST /order. */
export interface HttpRound {
  accepted: number;
  seconds: number;
  acceptedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time per accepted order: the server process (all threads) and this load generator. */
  engineCpuUsPerOrder: number;
  loadGeneratorCpuUsPerOrder: number;
}

export interface BlastResult {
  latencies: number[];
  ok: number;
  /** Order ids of the first 5,000 accepted orders. */
  ids: string[];
  seconds: number;
  firstError?: string;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** The JSON body of POST /order for a BUY signed with native secp256k1 over the engine's own EIP-712 digest (both proven equal to viem in tests). */
export function signedBuyBody(
  t: OrderSigner,
  conditionId: string,
  tokenId: string,
  priceMicro: bigint,
  sizeMicro: bigint,
  salt: number,
  orderType: string,
  domain: OrderDomain,
): string {
  const makerAmount = (priceMicro * sizeMicro) / 1_000_000n;
  const order = {
    salt,
    maker: t.address,
    signer: t.address,
    taker: ZERO_ADDRESS,
    tokenId,
    makerAmount: makerAmount.toString(),
    takerAmount: sizeMicro.toString(),
    expiration: '0',
    nonce: '0',
    feeRateBps: '0',
    side: 'BUY' as const,
    signatureType: 0,
  };
  const digest = orderDigest(order, domain);
  const { signature, recid } = secp256k1.ecdsaSign(digest, t.priv);
  const sig = '0x' + Buffer.from(signature).toString('hex') + (27 + recid).toString(16);
  return JSON.stringify({
    order: { ...order, conditionId, referrer: ZERO_ADDRESS, signature: sig },
    owner: t.address,
    orderType,
  });
}

export function l2Headers(address: Address, creds: ApiCreds, method: string, path: string, body: string): Record<string, string> {
  const ts = Math.floor(Date.now() / 1000).toString();
  return {
    'content-type': 'application/json',
    SERVICE_ADDRESS: address,
    SERVICE_API_KEY: creds.key,
    SERVICE_PASSPHRASE: creds.passphrase,
    SERVICE_TIMESTAMP: ts,
    SERVICE_SIGNATURE: buildL2Signature(creds.secret, ts, method, path, body),
  };
}

/** Keep-alive connections of the lean client that sends the measured orders. */
export async function openConnections(base: string, n: number): Promise<RawConnection[]> {
  const u = new URL(base);
  return Promise.all(Array.from({ length: n }, () => RawConnection.open(Number(u.port), u.hostname)));
}

/**
 * Sends every request, one at a time per connection, all connections at once. Callbacks rather than an
 * async loop per connection: the load generator's CPU is taken from the server's two cores.
 */
export function blast(conns: RawConnection[], reqs: Buffer[]): Promise<BlastResult> {
  const latencies = new Array<number>(reqs.length);
  const ids: string[] = [];
  let next = 0;
  let ok = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let active = conns.length;
    const finish = () => {
      const seconds = (performance.now() - t0) / 1000;
      resolve({ latencies: latencies.sort((a, b) => a - b), ok, ids, seconds, ...(firstError ? { firstError } : {}) });
    };
    const sendNext = (conn: RawConnection): void => {
      const i = next++;
      if (i >= reqs.length) {
        if (--active === 0) finish();
        return;
      }
      const s = performance.now();
      conn.request(
        reqs[i]!,
        (status, body) => {
          latencies[i] = performance.now() - s;
          if (status === 201) {
            ok++;
            // Only the first ids are needed (the lookup), so the load generator skips parsing the rest.
            if (ids.length < 5_000) {
              const id = (JSON.parse(body.toString('utf8')) as { order_id?: string }).order_id;
              if (id) ids.push(id);
            }
          } else if (!firstError) firstError = `${status} ${body.toString('utf8', 0, 300)}`;
          sendNext(conn);
        },
        reject,
      );
    };
    if (reqs.length === 0) return finish();
    for (const c of conns) sendNext(c);
  });
}

/** One measured blast with the server's CPU (by pid) and this process's CPU per accepted order. */
export async function measuredRound(serverPid: number, conns: RawConnection[], reqs: Buffer[]): Promise<{ round: HttpRound; run: BlastResult }> {
  const serverCpu0 = processCpuSeconds(serverPid);
  const ownCpu0 = process.cpuUsage();
  const run = await blast(conns, reqs);
  const serverCpu = processCpuSeconds(serverPid) - serverCpu0;
  const ownCpu = process.cpuUsage(ownCpu0);
  if (run.ok === 0) throw new Error(`no order was accepted: ${run.firstError}`);
  return {
    run,
    round: {
      accepted: run.ok,
      seconds: run.seconds,
      acceptedPerSecond: run.ok / run.seconds,
      p50Ms: percentile(run.latencies, 50),
      p99Ms: percentile(run.latencies, 99),
      engineCpuUsPerOrder: Math.round((serverCpu * 1e6) / run.ok),
      loadGeneratorCpuUsPerOrder: Math.round((ownCpu.user + ownCpu.system) / run.ok),
    },
  };
}

/** The round with the median throughput. */
export function medianRound(rounds: HttpRound[]): HttpRound {
  return [...rounds].sort((a, b) => a.acceptedPerSecond - b.acceptedPerSecond)[Math.floor(rounds.length / 2)]!;
}
