import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumCommand, electronBinary, redactedReadyLine, terminalUrl } from './start.js';

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

test('electron is reported absent when its package or binary is not installed', () => {
  // In this environment the optional dependency failed to install; the probe must not throw.
  const bin = electronBinary();
  assert.ok(bin === undefined || typeof bin === 'string');
});

test('npm start prints the ready line without the operator token, saying where it is kept', () => {
  const line = redactedReadyLine({ ready: true, trading: 'http://x', operatorToken: 'secret-token' }, '/data');
  assert.equal(JSON.stringify(line).includes('secret-token'), false);
  assert.match(line.operatorToken, /\/data\/secrets\.json/);
});
