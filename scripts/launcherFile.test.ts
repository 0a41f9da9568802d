import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { writeLauncher } from './launcherFile.js';

const root = fileURLToPath(new URL('..', import.meta.url));

test('the launcher page is readable by this user only, holds the target and removes cleanly', () => {
  const dir = mkdtempSync(join(tmpdir(), 'launcher-'));
  try {
    const l = writeLauncher(dir, 'http://127.0.0.1:1/app/#bootstrap=abc"<x>');
    assert.equal(statSync(l.path).mode & 0o777, 0o600);
    assert.ok(l.url.startsWith('file://'));
    const html = readFileSync(l.path, 'utf8');
    assert.match(html, /content="0;url=http:\/\/127\.0\.0\.1:1\/app\/#bootstrap=abc&quot;&lt;x&gt;"/);
    l.remove();
    assert.equal(existsSync(l.path), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm start opens the browser without the bootstrap code on its command line, and the launcher file hands the code over once', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-argv-'));
  const argvFile = join(dir, 'argv.txt');
  // A stand-in browser that records its command line (what /proc/<pid>/cmdline shows), then waits.
  const fakeBrowser = join(dir, 'chromium');
  writeFileSync(fakeBrowser, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\nexec sleep 60\n`);
  chmodSync(fakeBrowser, 0o755);
  const env = { ...process.env, DISPLAY: ':99', CHROMIUM_PATH: fakeBrowser };
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/start.ts'), '--data-dir', join(dir, 'data'), '--chain', 'none', '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const deadline = Date.now() + 90_000;
    while (!existsSync(argvFile) || readFileSync(argvFile, 'utf8') === '') {
      if (Date.now() > deadline || child.exitCode !== null) assert.fail(`the browser was not started: ${err.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const ready = JSON.parse(out.split('\n')[0]!) as { trading: string };
    const argv = readFileSync(argvFile, 'utf8');
    assert.doesNotMatch(argv, /bootstrap/, 'no code on the command line');
    const app = /^--app=(.*)$/m.exec(argv)?.[1];
    assert.ok(app?.startsWith('file://'), argv);
    const launcher = fileURLToPath(app!);
    assert.equal(statSync(launcher).mode & 0o777, 0o600);
    const code = /#bootstrap=([A-Za-z0-9_-]+)/.exec(readFileSync(launcher, 'utf8'))?.[1];
    assert.ok(code);
    assert.match(readFileSync(launcher, 'utf8'), new RegExp(`url=${ready.trading}/app/#bootstrap=${code}`));
    const trade = (c: string) => fetch(`${ready.trading}/admin/bootstrap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: c }) });
    const first = await trade(code);
    assert.equal(first.status, 200, await first.clone().text());
    assert.equal((await trade(code)).status, 401, 'the code works once');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
});
