import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakePreloadElectron } from './fakeElectron.js';
import { DESKTOP_GLOBAL, IPC_CHANNELS, isSafeExternalUrl, type DesktopApi } from './ipc.js';
import { exposeDesktopApi } from './preload.js';

test('the preload exposes exactly the typed desktop API on window.desktop', () => {
  const fe = fakePreloadElectron();
  exposeDesktopApi(fe.api);
  const api = fe.exposed.get(DESKTOP_GLOBAL) as DesktopApi;
  assert.ok(api);
  assert.deepEqual(Object.keys(api).sort(), ['decryptSecret', 'encryptSecret', 'getEngineInfo', 'isDesktop', 'openExternal', 'secretStorage']);
  assert.equal(api.isDesktop, true);
  assert.ok(Object.isFrozen(api));
});

test('each desktop call invokes its own channel with its arguments', async () => {
  const fe = fakePreloadElectron();
  const api = exposeDesktopApi(fe.api);
  await api.getEngineInfo();
  await api.openExternal('https://example.com');
  await api.secretStorage();
  await api.encryptSecret('plain');
  await api.decryptSecret('c2VhbGVk');
  assert.deepEqual(fe.invoked, [
    { channel: IPC_CHANNELS.getEngineInfo, args: [] },
    { channel: IPC_CHANNELS.openExternal, args: ['https://example.com'] },
    { channel: IPC_CHANNELS.secretStorage, args: [] },
    { channel: IPC_CHANNELS.encryptSecret, args: ['plain'] },
    { channel: IPC_CHANNELS.decryptSecret, args: ['c2VhbGVk'] },
  ]);
});

test('only http and https links count as safe external links', () => {
  assert.equal(isSafeExternalUrl('https://example.com/x'), true);
  assert.equal(isSafeExternalUrl('http://127.0.0.1:3000/'), true);
  assert.equal(isSafeExternalUrl('file:///etc/passwd'), false);
  assert.equal(isSafeExternalUrl('javascript:alert(1)'), false);
  assert.equal(isSafeExternalUrl('not a url'), false);
});
