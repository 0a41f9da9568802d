import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumCommand, electronBinary, redactedReadyLine, terminalUrl } from './start.js';

const root = fileURLToPath(new URL('..', import.meta.url));

test('the terminal URL is the engine trading URL plus /app/', () => {
  assert.equal(terminalUrl('http://127.0.0.1:17317'), 'http://127.0.0.1:17317/app/');
});

test('without a display no Chromium window is opened', () => {
  assert.equal(chromiumCommand('http://x/app/', '/data', {}, process.execPath), undefined);
});

test('with a display Chromium opens the terminal as an app window with its own profile in the data dir', () => {
  const c = chromiumCommand('http://x/app/', '/data', { DISPLAY: ':0' }, process.execPath);
  assert.ok(c);
  assert.equal(c.cmd, process.execPath);
  assert.ok(c.args.includes('--app=http://x/app/'));
  assert.ok(c.args.includes('--user-data-dir=/data/browser'));
});

test('as root Chromium gets --no-sandbox (it refuses to start without it) and the caller is told so', () => {
  const root = chromiumCommand('http://x/app/', '/data', { DISPLAY: ':0' }, process.execPath, 0);
  assert.ok(root?.args.includes('--no-sandbox'));
  assert.equal(root?.asRoot, true);
  const user = chromiumCommand('http://x/app/', '/data', { DISPLAY: ':0' }, process.execPath, 1000);
  assert.equal(user?.args.includes('--no-sandbox'), false);
  assert.equal(user?.asRoot, false);
});

test('a missing Chromium binary means no window', () => {
  assert.equal(chromiumCommand('http://x/app/', '/data', { DISPLAY: ':0' }, '/nonexistent/chromium'), undefined);
});

test('electron is reported absent when its package or binary is not installed, and its path when it is', () => {
  // The package missing, or installed without its download (index.js throws reading path.txt).
  assert.equal(electronBinary(() => { throw new Error("Cannot find module 'electron'"); }), undefined);
  assert.equal(electronBinary(() => { throw new Error('Electron failed to install correctly, please delete node_modules/electron and try installing again'); }), undefined);
  // path.txt naming a binary that is not there.
  assert.equal(electronBinary(() => '/nonexistent/electron/dist/electron'), undefined);
  assert.equal(electronBinary(() => process.execPath), process.execPath);
  // The real probe: the binary named by the package's path.txt when it is on disk, else nothing (here: no download).
  const pkg = join(root, 'node_modules', 'electron');
  const named = existsSync(join(pkg, 'path.txt')) ? join(pkg, 'dist', readFileSync(join(pkg, 'path.txt'), 'utf8')) : undefined;
  assert.equal(electronBinary(), named !== undefined && existsSync(named) ? named : undefined);
});

test('npm start prints the ready line without the operator token, saying where it is kept', () => {
  const line = redactedReadyLine({ ready: true, trading: 'http://x', operatorToken: 'secret-token' }, '/data');
  assert.equal(JSON.stringify(line).includes('secret-token'), false);
  assert.match(line.operatorToken, /\/data\/secrets\.json/);
});
