#!/usr/bin/env node
// `npm run exchange -- [flags]`: the headless exchange (flags: engine/cli.ts).
// Runs the compiled engine in dist/ (built by `npm install`'s prepare step, or `npm run build:engine`) when
// it is at least as new as the sources, so a start pays no TypeScript transpilation; otherwise it runs the
// sources through tsx, so an edit is never shadowed by a stale build.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.engine-build-stamp');

function newest(dir, suffix) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    if (s.isDirectory()) t = Math.max(t, newest(p, suffix));
    else if (p.endsWith(suffix)) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sources = Math.max(newest(join(root, 'engine'), '.ts'), newest(join(root, 'engine'), '.mjs'), newest(join(root, 'resources', 'contracts'), '.sol'));

if (built >= sources) {
  await import(pathToFileURL(join(root, 'dist', 'engine', 'cli.js')).href);
} else {
  console.error('exchange: running from source (dist/ is missing or older than engine/; `npm run build:engine` makes starts faster)');
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'engine', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
