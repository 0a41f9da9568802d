import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { findBrowser, installPlan } from './findBrowser.mjs';

const root = mkdtempSync(join(tmpdir(), 'find-browser-'));
after(() => rmSync(root, { recursive: true, force: true }));

function fakeBin(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, '#!/bin/sh\nexit 0\n');
  chmodSync(p, mode);
  return p;
}
const noPlaywright = () => undefined;

test('a google-chrome on a fake PATH is found when no chromium is there', () => {
  const a = join(root, 'a');
  const b = join(root, 'b');
  mkdirSync(a, { recursive: true });
  const chrome = fakeBin(b, 'google-chrome');
  const r = findBrowser({ env: { PATH: `${a}:${b}` }, playwright: noPlaywright });
  assert.equal(r.path, chrome);
  assert.equal(r.source, 'google-chrome on PATH');
});

test('chromium is preferred to google-chrome, and the earlier PATH entry wins', () => {
  const c = join(root, 'c');
  const d = join(root, 'd');
  fakeBin(c, 'google-chrome');
  const chromium = fakeBin(d, 'chromium');
  assert.equal(findBrowser({ env: { PATH: `${d}:${c}` }, playwright: noPlaywright }).path, chromium);
  assert.equal(findBrowser({ env: { PATH: `${c}:${d}` }, playwright: noPlaywright }).path, join(c, 'google-chrome'));
});

test('a file that is not executable is not a browser', () => {
  const e = join(root, 'e');
  fakeBin(e, 'chromium', 0o644);
  const r = findBrowser({ env: { PATH: e }, playwright: noPlaywright });
  assert.equal(r.path, undefined);
  assert.match(r.missing ?? '', /no chromium/);
});

test("CHROMIUM_PATH wins over PATH and Playwright's cache, and a wrong one is reported rather than skipped", () => {
  const f = join(root, 'f');
  const mine = fakeBin(f, 'my-chrome');
  const pathDir = join(root, 'g');
  fakeBin(pathDir, 'chromium');
  assert.equal(findBrowser({ env: { CHROMIUM_PATH: mine, PATH: pathDir }, playwright: () => '/pw/chrome' }).path, mine);
  const wrong = findBrowser({ env: { CHROMIUM_PATH: join(f, 'nope'), PATH: pathDir }, playwright: noPlaywright });
  assert.equal(wrong.path, undefined);
  assert.match(wrong.missing ?? '', /CHROMIUM_PATH=.*nope is not an executable file/);
});

test("Playwright's downloaded browser is used before the system ones", () => {
  const h = join(root, 'h');
  fakeBin(h, 'chromium');
  assert.deepEqual(findBrowser({ env: { PATH: h }, playwright: () => '/pw/chrome' }), { path: '/pw/chrome', source: "Playwright's browser cache" });
});

test('an empty PATH with nothing installed says what is missing', () => {
  const r = findBrowser({ env: { PATH: '' }, playwright: noPlaywright });
  assert.equal(r.path, undefined);
  assert.match(r.missing ?? '', /no chromium \/ chromium-browser \/ google-chrome/);
});

test("Debian as root installs Debian's chromium with apt-get; elsewhere Playwright's installer", () => {
  const debian = installPlan({ platform: 'linux', uid: 0, exists: () => true });
  assert.deepEqual(debian?.steps.map(([cmd, args]) => [cmd, ...args].join(' ')), ['apt-get update -qq', 'apt-get install -y -qq chromium']);
  assert.match(debian?.say ?? '', /installing Debian's chromium/);
  const user = installPlan({ platform: 'linux', uid: 1000, exists: () => true });
  assert.match(user?.steps[0]?.[1].join(' ') ?? '', /playwright-core.*cli\.js install chromium/);
  const mac = installPlan({ platform: 'darwin', uid: 501, exists: () => false });
  assert.match(mac?.say ?? '', /Playwright's Chromium/);
});
