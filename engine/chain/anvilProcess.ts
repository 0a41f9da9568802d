/**
 * The local chain as a child process: Foundry's anvil from the npm package @foundry-rs/anvil-linux-amd64,
 * its state loaded from and dumped to a file in the data directory.
 *
 * anvil checks no Host header and cannot turn its HTTP listener off, so a DNS-rebinding page could call
 * its cheat methods on a loopback port (docs/api.md, "The chain"). Where the OS allows it, anvil runs in
 * a network namespace of its own (`unshare -n`, or `unshare -rn` as a normal user): its HTTP port exists
 * only there, and it answers on an IPC socket in the 0700 chain directory, which the engine reaches
 * through a guarded loopback bridge (ipcBridge.ts). Elsewhere it listens on a random 127.x.y.z address.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { unpackedPath } from '../unpackedPath.js';
import { startIpcBridge, type IpcBridge } from './ipcBridge.js';

export interface AnvilOptions {
  chainId: number;
  /** anvil --state file: loaded at start if present, dumped on SIGTERM and every `stateIntervalSeconds`. */
  stateFile: string;
  stateIntervalSeconds?: number;
  /**
   * Where the chain's port is kept, so `GET /config`'s rpcUrl survives restarts (wallets and scripts
   * store it). The stored port is reused while it is free; a new one is stored (and said on stderr) only
   * when it is taken.
   */
  portFile?: string;
  /** Told when the stored port was taken and another one had to be chosen (default: one line on stderr). */
  onPortMoved?: (from: number, to: number) => void;
  /** How long to wait for JSON-RPC to answer (default 15 s). */
  readyTimeoutMs?: number;
}

export interface AnvilProcess {
  readonly rpcUrl: string;
  readonly port: number;
  readonly pid: number;
  /** How anvil's own HTTP listener is kept from other processes (docs/api.md, "The chain"). */
  readonly isolation: ChainIsolation;
  /** SIGTERM (anvil dumps its state), wait for exit, SIGKILL after `timeoutMs`. Idempotent. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * The anvil executable of the npm package. In the packaged app the package lies inside app.asar, which
 * spawn cannot execute from: electron-builder.yml unpacks it, and the real file is in app.asar.unpacked.
 */
export function anvilBinaryPath(pkg: string = createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json')): string {
  return unpackedPath(join(dirname(pkg), 'bin', 'anvil'));
}

/**
 * `netns`: anvil in a private network namespace, reached over IPC through the bridge (nothing else can
 * reach its HTTP port). `loopback`: no namespace could be made here; anvil listens on a random
 * 127.x.y.z address and port.
 */
export type ChainIsolation = 'netns' | 'loopback';

let probed: string[] | null | undefined;

/**
 * The `unshare` prefix that gives a child a private network namespace here, or null: `-n` needs root
 * (CAP_SYS_ADMIN), `-rn` an unprivileged user namespace (off on some distributions and containers).
 * SANDBOX_CHAIN_ISOLATION=off skips it (tests of the fallback).
 */
export function netnsPrefix(env: NodeJS.ProcessEnv = process.env): string[] | null {
  if (env.SANDBOX_CHAIN_ISOLATION === 'off') return null;
  if (probed !== undefined) return probed;
  probed = null;
  for (const flags of ['-n', '-rn']) {
    const r = spawnSync('unshare', [flags, '/bin/true'], { stdio: 'ignore', timeout: 5000 });
    if (r.status === 0) {
      probed = ['unshare', flags];
      break;
    }
  }
  return probed;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function rpcAnswers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(1000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

// A process that is not ours to wait for: our child has exited once `exitCode`/`signalCode` is set.
function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/** On a normal process exit, ask every live anvil to dump its state and quit (synchronous signal only). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const c of liveChildren) if (!hasExited(c)) c.kill('SIGTERM');
  });
}

/**
 * A crash that skips the 'exit' hook (SIGKILL, fatal error) would orphan anvil. The watchdog is a tiny
 * shell whose stdin is a pipe only this process holds: when this process dies the pipe closes, `read`
 * returns and the shell sends anvil SIGTERM (so it still dumps its state).
 */
function spawnWatchdog(anvilPid: number): ChildProcess {
  const script = `read _ignored; kill -0 ${anvilPid} 2>/dev/null && kill -TERM ${anvilPid}`;
  const dog = spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'ignore', 'ignore'] });
  dog.unref();
  // The pipe must not keep the event loop alive either.
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  dog.on('error', () => undefined);
  return dog;
}

/** The bridge's secret path, kept in the 0700 chain directory so the engine's rpcUrl is stable across restarts. */
function bridgeSecret(dir: string): string {
  const file = join(dir, 'rpc-secret');
  const stored = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (/^[A-Za-z0-9_-]{32,}$/.test(stored)) return stored;
  const secret = randomBytes(24).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

async function spawnOnce(opts: AnvilOptions, port: number): Promise<AnvilProcess | { failed: string }> {
  const dir = dirname(opts.stateFile);
  const netns = netnsPrefix();
  const ipcPath = join(dir, 'anvil.ipc');
  if (netns) rmSync(ipcPath, { force: true });
  // Isolated: the HTTP port lives in anvil's own namespace only (any port does). Else a random loopback address.
  const host = netns ? '127.0.0.1' : `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const httpPort = netns ? 8545 : port;
  const args = [
    '--host', host,
    '--port', String(httpPort),
    ...(netns ? ['--ipc', ipcPath] : []),
    '--chain-id', String(opts.chainId),
    '--state', opts.stateFile,
    '--state-interval', String(opts.stateIntervalSeconds ?? 5),
    '--silent',
    // No CORS answers: a browser's preflight fails, so no web page can call the node's cheat methods
    // (anvil already refuses the simple, preflight-free content types). Pages use the engine's /rpc.
    '--no-cors',
  ];
  // umask 077 so every state dump anvil writes is 0600 (the chain state holds the operator's keys' effects
  // and the users' wallets); `exec` keeps the pid ours to signal.
  const shell = ['/bin/sh', '-c', 'umask 077 && exec "$0" "$@"', anvilBinaryPath(), ...args];
  // unshare execs the shell, which execs anvil: the pid stays the one to signal.
  const [cmd, ...cmdArgs] = netns ? [...netns, ...shell] : shell;
  const child = spawn(cmd!, cmdArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  liveChildren.add(child);
  installExitHook();

  let bridge: IpcBridge | undefined;
  if (netns) {
    try {
      bridge = await startIpcBridge(ipcPath, port, bridgeSecret(dir));
    } catch (e) {
      child.kill('SIGKILL');
      liveChildren.delete(child);
      return { failed: `the chain bridge could not listen on 127.0.0.1:${port}: ${(e as Error).message}` };
    }
  }
  const rpcUrl = bridge ? bridge.url : `http://${host}:${httpPort}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 15_000);
  let failure: string | null = null;
  spawnError.then((e) => (failure = `anvil could not be started: ${e.message}`), () => undefined);
  while (!failure) {
    if (hasExited(child)) {
      failure = `anvil exited with ${child.exitCode ?? child.signalCode} before answering: ${stderr.trim() || '(no output)'}`;
      break;
    }
    if (await rpcAnswers(rpcUrl)) break;
    if (Date.now() > deadline) {
      failure = `anvil did not answer on ${rpcUrl} within ${opts.readyTimeoutMs ?? 15_000} ms`;
      child.kill('SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  if (failure) {
    liveChildren.delete(child);
    await bridge?.close();
    return { failed: failure };
  }

  const pid = child.pid ?? -1;
  const watchdog = spawnWatchdog(pid);
  let stopping: Promise<void> | null = null;
  return {
    rpcUrl,
    port,
    pid,
    isolation: netns ? 'netns' : 'loopback',
    stop(timeoutMs = 10_000) {
      stopping ??= (async () => {
        await bridge?.close();
        if (watchdog.pid !== undefined && watchdog.exitCode === null) watchdog.kill('SIGKILL');
        if (!hasExited(child)) {
          child.kill('SIGTERM');
          const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
          if ((await Promise.race([exited.then(() => 'exited' as const), timer])) === 'timeout') {
            child.kill('SIGKILL');
            await exited;
          }
        }
        liveChildren.delete(child);
      })();
      return stopping;
    },
  };
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function storedPort(portFile: string | undefined): number | undefined {
  if (!portFile || !existsSync(portFile)) return undefined;
  const n = Number(readFileSync(portFile, 'utf8').trim());
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

/**
 * Starts anvil on loopback: on the port stored for this data directory while it is free, else on a
 * free one (stored for next time); retries on another port if the chosen one was taken meanwhile.
 */
export async function startAnvil(opts: AnvilOptions): Promise<AnvilProcess> {
  const dir = dirname(opts.stateFile);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (existsSync(opts.stateFile)) chmodSync(opts.stateFile, 0o600);
  const stored = storedPort(opts.portFile);
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const wanted = attempt === 0 && stored !== undefined && (await portIsFree(stored)) ? stored : await freePort();
    const r = await spawnOnce(opts, wanted);
    if ('failed' in r) {
      lastError = r.failed;
      continue;
    }
    if (opts.portFile && wanted !== stored) {
      writeFileSync(opts.portFile, `${wanted}\n`, { mode: 0o600 });
      if (stored !== undefined) {
        (opts.onPortMoved ?? ((from, to) => console.error(`chain: port ${from} (kept in ${opts.portFile}) is taken; the local chain now listens on ${to}, so GET /config's rpcUrl changed`)))(stored, wanted);
      }
    }
    return r;
  }
  throw new Error(lastError);
}
