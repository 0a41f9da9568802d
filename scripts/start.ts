// `npm start`: build what is missing, then run the desktop app — in Electron when its binary is
// installed, otherwise the engine in-process with the terminal opened in a Chromium app window.
// Usage: npm start -- [--data-dir <dir>] [--chain anvil|none|<json-rpc-url>] [--port <n>] [--no-open]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pickPort } from '../electron/stablePort.js';
import { BOOTSTRAP_TTL_MS } from '../engine/services/operatorAccess/operatorBootstrap.js';
import { findBrowser } from './findBrowser.mjs';
import { writeLauncher } from './launcherFile.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The ready line as `npm start` and the desktop app print it: the operator token replaced by where to find it. */
export function redactedReadyLine<T extends { operatorToken: string }>(ready: T, dataDir: string): T {
  return { ...ready, operatorToken: `(not printed: see ${join(dataDir, 'secrets.json')})` };
}

export function terminalUrl(trading: string): string {
  return `${trading}/app/`;
}

/**
 * The Electron binary's path when the optional `electron` package and its download are present.
 * `load` stands for `require('electron')`: resolving the package runs its index.js, which reads
 * path.txt and throws when the binary was never downloaded.
 */
export function electronBinary(load: () => unknown = () => createRequire(import.meta.url)('electron')): string | undefined {
  try {
    const bin = load();
    return typeof bin === 'string' && existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Chromium command that opens the terminal as a standalone app window with its own profile.
 * As root Chromium refuses to start without `--no-sandbox`; `asRoot` says so, for the warning line.
 */
export function chromiumCommand(
  url: string,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  chromium: string | undefined = findBrowser({ env }).path,
  uid: number | undefined = process.getuid?.(),
): { cmd: string; args: string[]; asRoot: boolean } | undefined {
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  if (!chromium || !existsSync(chromium)) return undefined;
  const asRoot = uid === 0;
  return {
    cmd: chromium,
    args: [
      `--app=${url}`,
      `--user-data-dir=${join(dataDir, 'browser')}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-sync',
      '--disable-background-networking',
      ...(asRoot ? ['--no-sandbox'] : []),
    ],
    asRoot,
  };
}

function npmRun(script: string): void {
  console.error(`▶ npm run ${script}`);
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm run ${script} failed (exit ${r.status ?? r.signal})`);
}

async function buildMissing(needPreload: boolean): Promise<void> {
  const { contractsUpToDate } = await import('../engine/chain/compileContracts.js');
  if (!contractsUpToDate()) npmRun('build:contracts');
  if (!existsSync(join(root, 'renderer/dist/index.html'))) npmRun('build:renderer');
  if (needPreload && !existsSync(join(root, 'dist/electron/preload.cjs'))) {
    const { buildPreload } = await import('./buildElectron.js');
    await buildPreload();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'data-dir': { type: 'string' }, chain: { type: 'string' }, port: { type: 'string' }, 'no-open': { type: 'boolean' } },
    strict: true,
  });
  const electron = electronBinary();
  await buildMissing(!!electron);

  if (electron) {
    console.error('▶ starting the desktop app (Electron)');
    const env = { ...process.env, ...(values.chain ? { SANDBOX_EXCHANGE_CHAIN: values.chain } : {}) };
    const child = spawn(electron, [join(root, 'electron/devMain.mjs')], { cwd: root, stdio: 'inherit', env });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }

  // No Electron binary: the same engine in this process, the terminal in a browser window.
  const { createEngine, defaultDataDir } = await import('../engine/index.js');
  const chain = values.chain === undefined ? undefined : values.chain === 'anvil' || values.chain === 'none' ? values.chain : { rpcUrl: values.chain };
  if (values.chain !== undefined && typeof chain === 'object' && !/^https?:\/\//.test(values.chain)) {
    throw new Error(`--chain must be anvil, none or an http(s) JSON-RPC URL, not '${values.chain}'`);
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  mkdirSync(dataDir, { recursive: true });
  const port = values.port !== undefined ? Number(values.port) : await pickPort();
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, not '${values.port}'`);

  const engine = await createEngine({ dataDir, port, ...(chain ? { chain } : {}) });
  const ready = await engine.listen();
  // The token stays out of this output (terminals are logged and shared): secrets.json has it.
  process.stdout.write(JSON.stringify(redactedReadyLine(ready, dataDir)) + '\n');
  const url = terminalUrl(ready.trading);
  console.error(`terminal: ${url}`);

  let browser: ChildProcess | undefined;
  let stopping = false;
  // The one-time code reaches the window through a 0600 launcher file, never on its command line.
  const launcher = values['no-open'] ? undefined : writeLauncher(dataDir, `${url}#bootstrap=${engine.ctx.operatorBootstrap.issue()}`);
  if (launcher) setTimeout(() => launcher.remove(), BOOTSTRAP_TTL_MS).unref();
  const chromium = launcher ? chromiumCommand(launcher.url, dataDir) : undefined;
  if (!chromium) launcher?.remove();
  if (chromium) {
    if (chromium.asRoot) console.error('running as root: Chromium is started with --no-sandbox (run npm start as a normal user to keep its sandbox).');
    browser = spawn(chromium.cmd, chromium.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let browserErr = '';
    browser.stderr?.on('data', (d: Buffer) => (browserErr = (browserErr + d.toString()).slice(-2000)));
    browser.on('error', (e) => console.error(`could not open Chromium (${chromium.cmd}): ${e.message}; open ${url} yourself`));
    browser.on('exit', (code) => {
      if (code && !stopping) console.error(`Chromium exited with ${code} (${browserErr.trim().split('\n').pop() ?? 'no output'}); open ${url} yourself`);
    });
  } else if (!values['no-open']) {
    console.error(`no display or no Chromium: open the URL above in a browser (the admin tab takes the operatorToken kept in ${join(dataDir, 'secrets.json')}).`);
  }

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: shutting down`);
    launcher?.remove();
    if (browser && browser.exitCode === null) browser.kill('SIGTERM');
    engine
      .close()
      .then(() => process.exit(0))
      .catch((e: unknown) => {
        console.error('shutdown failed:', e instanceof Error ? e.message : e);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
