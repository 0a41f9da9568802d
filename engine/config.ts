import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ClockMode } from './services/clock.js';

export type ChainMode = 'anvil' | 'none' | { rpcUrl: string };

export interface EngineConfig {
  /** Everything the engine keeps lives here: SQLite file, chain state, secrets. */
  dataDir: string;
  /** Loopback by default; never 0.0.0.0 unless asked. */
  host: string;
  /** 0 picks a free port. */
  port: number;
  chain: ChainMode;
  /** Chain id used in every signing domain; the local chain is started with it. */
  chainId: number;
  /** 'polymarket' switches on the compatibility profile of decisions §6. */
  profile: 'default' | 'polymarket';
  /**
   * The order protocol GET /version reports (`--order-version 1|2`): what clob-client-v2 then signs.
   * Both V1 and V2 signed orders are accepted whatever it says (decisions §6). Default: 2 in the
   * polymarket profile (as the public service), 1 in the default profile (what engine/client signs).
   */
  orderVersion: 1 | 2;
  /** Allowed distance between SERVICE_TIMESTAMP and the server clock, seconds. */
  authWindowSeconds: number;
  /** Paper balance checks with reservations (decisions §3). */
  enforceBalances: boolean;
  /** Paper collateral granted on a wallet's first credential creation, 6-dp units. */
  initialCollateral: bigint;
  /** Create the demo markets and their liquidity in a fresh data directory. */
  seedDemo: boolean;
  /** Throttle per interface §8. */
  rateLimits: boolean;
  /**
   * The operator token, pinned (config or SANDBOX_OPERATOR_TOKEN); undefined rotates it at every start.
   * `rotateOperatorToken` false keeps the one stored in the data directory (tests that restart an engine).
   */
  operatorToken?: string;
  rotateOperatorToken: boolean;
  /** Browser origins allowed besides the engine's own (e.g. a Vite dev server on another port). */
  allowedOrigins: string[];
  /** Serve the built renderer (renderer/dist) at /app when present. */
  serveRenderer: boolean;
  /** Simulated participants on the demo markets (decisions §9); off with --no-sim. */
  simulation: boolean;
  /** Stream (WebSocket) sockets open at once; default keeps a quarter of the listener's connections for HTTP (docs/api-streams.md). */
  maxStreamSockets?: number;
  /** How exchange time moves (`--clock real|fast|stepped`, decisions §11). */
  clock: ClockMode;
  /** `--speed N`: exchange time runs N times faster than wall time (real mode only). */
  speed: number;
  /** Exchange time at start, unix ms (default: the wall time of launch); pins a run for byte-identical records. */
  clockStart?: number;
  /** The run's seed (`--seed N`): participants, and in fast and stepped runs every id the exchange makes. */
  seed?: number;
  /** Resting orders one account may hold (docs/api-orders.md); default 10,000. */
  maxOpenOrders?: number;
  /** Public CLOB REST base of mirrored markets (`--upstream-clob`, decisions §10). */
  upstreamClob: string;
  /** Public Gamma base, for slugs, URLs and the catalogue search (`--upstream-gamma`). */
  upstreamGamma: string;
  /** Public market channel WebSocket URL (`--upstream-ws`). */
  upstreamWs: string;
  /** Public markets to mirror at start (`--mirror <slug|condition id|URL>[,…]`). */
  mirrors: string[];
  /** A local order on a mirrored market is matched against the book as it stands this many exchange ms after arrival (`--latency-ms`, 0..60000). */
  latencyMs: number;
  /** `--record`: write every mirrored market's upstream events to `<data>/tapes/` from the start (docs/tapes.md). */
  record: boolean;
  /** `--replay <tape>[,…]`: tapes to replay at start (names under `<data>/tapes/`, shipped examples or paths); the run's clock starts at the earliest tape's start unless `clockStart` pins it. */
  replays: string[];
}

/** The public upstreams (decisions §10); tests point them at local servers. */
export const PUBLIC_UPSTREAM_CLOB = 'https://clob.polymarket.com';
export const PUBLIC_UPSTREAM_GAMMA = 'https://gamma-api.polymarket.com';
export const PUBLIC_UPSTREAM_WS = 'wss://ws-subscriptions-clob.polymarket.com/ws/market';
/** `--latency-ms` bound: a minute is far beyond any real round trip. */
export const MAX_LATENCY_MS = 60_000;

/** The seed of fast and stepped runs started without one. */
export const DEFAULT_RUN_SEED = 1;
/** `--speed` bounds: faster than 10,000× leaves the timers no room to keep up. */
export const MAX_SPEED = 10_000;

export const LOCAL_CHAIN_ID = 31337;

export function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share');
  return join(base, 'sandbox-exchange');
}

export function resolveConfig(partial: Partial<EngineConfig> = {}): EngineConfig {
  const profile = partial.profile ?? 'default';
  return {
    dataDir: partial.dataDir ?? defaultDataDir(),
    host: partial.host ?? '127.0.0.1',
    port: partial.port ?? 0,
    chain: partial.chain ?? 'anvil',
    chainId: partial.chainId ?? (profile === 'polymarket' ? 137 : LOCAL_CHAIN_ID),
    profile,
    orderVersion: partial.orderVersion ?? (profile === 'polymarket' ? 2 : 1),
    authWindowSeconds: partial.authWindowSeconds ?? 300,
    enforceBalances: partial.enforceBalances ?? true,
    initialCollateral: partial.initialCollateral ?? 10_000_000_000n,
    seedDemo: partial.seedDemo ?? true,
    rateLimits: partial.rateLimits ?? true,
    serveRenderer: partial.serveRenderer ?? true,
    operatorToken: partial.operatorToken ?? (process.env.SANDBOX_OPERATOR_TOKEN || undefined),
    rotateOperatorToken: partial.rotateOperatorToken ?? true,
    allowedOrigins: partial.allowedOrigins ?? [],
    simulation: partial.simulation ?? true,
    ...(partial.maxStreamSockets === undefined ? {} : { maxStreamSockets: partial.maxStreamSockets }),
    clock: checkedClockMode(partial.clock ?? 'real'),
    speed: checkedSpeed(partial.speed ?? 1, partial.clock ?? 'real'),
    ...(partial.clockStart !== undefined ? { clockStart: checkedInteger(partial.clockStart, 'clockStart') } : {}),
    ...(partial.seed !== undefined ? { seed: checkedInteger(partial.seed, 'seed') } : {}),
    ...(partial.maxOpenOrders === undefined ? {} : { maxOpenOrders: partial.maxOpenOrders }),
    upstreamClob: checkedUrl(partial.upstreamClob ?? PUBLIC_UPSTREAM_CLOB, 'upstream-clob', ['http:', 'https:']),
    upstreamGamma: checkedUrl(partial.upstreamGamma ?? PUBLIC_UPSTREAM_GAMMA, 'upstream-gamma', ['http:', 'https:']),
    upstreamWs: checkedUrl(partial.upstreamWs ?? PUBLIC_UPSTREAM_WS, 'upstream-ws', ['ws:', 'wss:']),
    mirrors: [...(partial.mirrors ?? [])],
    latencyMs: checkedLatency(partial.latencyMs ?? 0),
    record: partial.record ?? false,
    replays: [...(partial.replays ?? [])],
  };
}

/** A base URL without its trailing slash, of one of the allowed schemes. */
function checkedUrl(v: string, flag: string, schemes: readonly string[]): string {
  let url: URL | undefined;
  try {
    url = new URL(v);
  } catch {
    url = undefined;
  }
  const kinds = schemes.map((s) => s.slice(0, -1)).join(' or ');
  if (!url || !schemes.includes(url.protocol)) throw new Error(`--${flag} must be ${kinds.startsWith('h') ? 'an' : 'a'} ${kinds} URL, not '${v}'`);
  return v.replace(/\/+$/, '');
}

function checkedLatency(v: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > MAX_LATENCY_MS) throw new Error(`--latency-ms must be a whole number of milliseconds 0..${MAX_LATENCY_MS}, not '${v}'`);
  return v;
}

function checkedClockMode(v: string): ClockMode {
  if (v !== 'real' && v !== 'fast' && v !== 'stepped') throw new Error(`--clock must be real, fast or stepped, not '${v}'`);
  return v;
}

function checkedSpeed(v: number, mode: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > MAX_SPEED) throw new Error(`--speed must be a number above 0 and at most ${MAX_SPEED}, not '${v}'`);
  if (v !== 1 && mode !== 'real') throw new Error(`--speed applies to --clock real; a ${mode} clock runs as fast as the work allows${mode === 'stepped' ? ' between advances' : ''}`);
  return v;
}

function checkedInteger(v: number, name: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new Error(`${name} must be a non-negative integer, not '${v}'`);
  return v;
}

/** Loopback names and addresses: a listener on one of them is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * `--host` beyond loopback exposes the operator token's routes, the keys and the paper balances to the
 * network: refused unless asked for explicitly, and then said on stderr. Returns the warning to print.
 */
export function checkListenHost(host: string, allowRemote: boolean): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  if (!allowRemote) {
    throw new Error(`--host ${host} is not a loopback address: the exchange, its operator routes and every wallet's keys would be reachable from the network. Add --allow-remote if that is what you want.`);
  }
  return `warning: listening on ${host}: the operator routes, API keys and paper balances of this exchange are reachable from the network (anyone who learns the operator token can operate it).`;
}
