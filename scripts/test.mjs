#!/usr/bin/env node
// `npm test`: lint, typecheck, every unit test beside the code, then the e2e journeys.
// Usage: node scripts/test.mjs [unit|e2e|all] [path filter...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureBrowser } from './findBrowser.mjs';

const root = new URL('..', import.meta.url).pathname;
const [mode = 'all', ...filters] = process.argv.slice(2);

function find(dir, suffix, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, suffix, out);
    else if (p.endsWith(suffix)) out.push(relative(root, p));
  }
  return out.sort();
}

function run(label, cmd, args, env = process.env) {
  console.log(`\n▶ ${label}: ${cmd} ${args.length > 8 ? args.slice(0, 8).join(' ') + ' …' : args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`✖ ${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

const match = (files) => (filters.length ? files.filter((f) => filters.some((x) => f.includes(x))) : files);
const unit = match([...find(join(root, 'engine'), '.test.ts'), ...find(join(root, 'electron'), '.test.ts'), ...find(join(root, 'renderer'), '.test.ts'), ...find(join(root, 'scripts'), '.test.ts'), ...find(join(root, 'bench'), '.test.ts')]);
const e2e = match(find(join(root, 'e2e'), '.e2e.ts'));
const node = process.execPath;

if (mode === 'all') {
  run('lint', node, ['node_modules/eslint/bin/eslint.js', '.', '--max-warnings=0']);
  run('typecheck', node, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
}
if (mode === 'all' || mode === 'unit') {
  if (unit.length) run(`unit tests (${unit.length} files)`, node, ['--import', 'tsx', '--test', '--test-reporter=spec', ...unit]);
}
if (mode === 'all' || mode === 'e2e') {
  if (e2e.length) {
    let browser;
    try {
      browser = ensureBrowser();
    } catch (e) {
      console.error(`✖ ${e.message}`);
      process.exit(1);
    }
    console.log(`▶ browser for the e2e journeys: ${browser}`);
    run('build', 'npm', ['run', '--silent', 'build']);
    run(`e2e journeys (${e2e.length} files)`, node, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...e2e], { ...process.env, CHROMIUM_PATH: browser });
  }
}
