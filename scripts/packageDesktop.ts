// `npm run package`: the desktop packages (AppImage and .deb, electron-builder.yml) in out/.
// First checks that the Electron binary can be had (electron-builder's cache, else its download URL
// answers): offline it stops at once with one line naming what it could not download, before building
// anything. Then builds (contracts, renderer, main process) and runs electron-builder, whose output goes
// to out/electron-builder.log; a download that fails there (a packaging tool) is reported the same way.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadFailureLine, electronBinaryName, electronZip, failureLine } from './downloadFailure.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Electron version to package: the installed package's, else the lowest the package.json range allows. */
function electronVersion(): string {
  const installed = join(root, 'node_modules', 'electron', 'package.json');
  if (existsSync(installed)) return (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const range = pkg.optionalDependencies?.electron ?? pkg.devDependencies?.electron ?? pkg.dependencies?.electron;
  const v = range && /\d+\.\d+\.\d+/.exec(range)?.[0];
  if (!v) throw new Error('package.json names no electron version');
  return v;
}

function inCache(dir: string, file: string, depth = 2): boolean {
  if (!existsSync(dir)) return false;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === file) return true;
    if (depth > 0 && statSync(p).isDirectory() && inCache(p, file, depth - 1)) return true;
  }
  return false;
}

/** undefined when the Electron archive is cached or its URL answers, else why not. */
async function electronUnreachable(url: string, file: string): Promise<string | undefined> {
  if (inCache(process.env.ELECTRON_CACHE ?? join(homedir(), '.cache', 'electron'), file)) return undefined;
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    return res.status < 400 ? undefined : `HTTP ${res.status}`;
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause;
    return cause?.message ?? (e as Error).message;
  }
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

async function main(): Promise<void> {
  const version = electronVersion();
  const zip = electronZip(version);
  const unreachable = await electronUnreachable(zip.url, zip.file);
  if (unreachable) {
    console.error(failureLine(electronBinaryName(zip), unreachable));
    process.exit(1);
  }
  run('npm', ['run', '--silent', 'build']);
  run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'buildElectron.ts')]);

  mkdirSync(join(root, 'out'), { recursive: true });
  const logPath = join(root, 'out', 'electron-builder.log');
  const log = createWriteStream(logPath);
  let output = '';
  const child = spawn(process.execPath, [join(root, 'node_modules', 'electron-builder', 'cli.js'), '--linux', '--publish', 'never', `-c.electronVersion=${version}`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const onData = (d: Buffer) => {
    log.write(d);
    output += d.toString();
    // electron-builder can stay up after reporting a failed download: it has said all it will.
    if (/^\s*⨯/m.test(output)) setTimeout(() => child.kill('SIGTERM'), 5000).unref();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  log.end();
  if (code === 0) {
    console.log(`desktop packages in ${join(root, 'out')} (electron-builder's output: ${logPath})`);
    return;
  }
  console.error(downloadFailureLine(output, { electronVersion: version }) ?? `npm run package: electron-builder failed (exit ${code}); see ${logPath}`);
  process.exit(1);
}

await main();
