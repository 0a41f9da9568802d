import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine, EngineConfig, ReadyLine } from '../engine/index.js';
import { FakeWebContents, fakeElectron } from './fakeElectron.js';
import { IPC_CHANNELS } from './ipc.js';
import { desktopDataDir, runMain } from './main.js';

const READY: ReadyLine = {
  ready: true,
  trading: 'http://127.0.0.1:4321',
  relayer: 'http://127.0.0.1:4321/relayer',
  data: 'http://127.0.0.1:4321/data-api',
  ws: 'ws://127.0.0.1:4321/ws',
  operatorToken: 'op-token',
  dataDir: '/tmp/fake-user-data/exchange',
  chainId: 31337,
};

function fakeEngine(opts: { failListen?: boolean } = {}) {
  const calls = { created: [] as Partial<EngineConfig>[], closed: 0 };
  let releaseClose: () => void = () => undefined;
  const closeGate = new Promise<void>((r) => (releaseClose = r));
  const createEngine = async (partial: Partial<EngineConfig>) => {
    calls.created.push(partial);
    return {
      listen: async () => {
        if (opts.failListen) throw new Error('port in use');
        return READY;
      },
      close: async () => {
        calls.closed++;
        await closeGate;
      },
    } as unknown as Engine;
  };
  return { createEngine, calls, releaseClose };
}

const terminalFrame = { senderFrame: { url: 'http://127.0.0.1:4321/app/' } };

test('starts the engine on loopback with the chosen port and a data dir under userData', async () => {
  const fe = fakeElectron({ userData: '/home/u/.config/Sandbox' });
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p/preload.cjs', createEngine: eng.createEngine, choosePort: async () => 17317, log: () => undefined });
  assert.deepEqual(eng.calls.created[0], { dataDir: desktopDataDir('/home/u/.config/Sandbox'), host: '127.0.0.1', port: 17317 });
});

test('the ready line is logged without the operator token', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  const lines: string[] = [];
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: (m) => lines.push(m) });
  assert.ok(lines.some((l) => l.includes('"ready":true')), 'the ready line is logged');
  assert.ok(lines.every((l) => !l.includes('op-token')), lines.join('\n'));
});

test('opens one isolated window on the engine terminal URL with the preload', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  const handle = await runMain(fe.api, { preloadPath: '/p/preload.cjs', createEngine: eng.createEngine, log: () => undefined });
  assert.equal(handle?.appUrl, 'http://127.0.0.1:4321/app/');
  const [win] = fe.windows();
  assert.ok(win);
  assert.deepEqual(win.loaded, ['http://127.0.0.1:4321/app/']);
  assert.deepEqual(win.options.webPreferences, { preload: '/p/preload.cjs', contextIsolation: true, nodeIntegration: false, sandbox: true });
  win.readyListeners.forEach((l) => l());
  assert.equal(win.shown, true);
});

test('getEngineInfo answers the ready line with the operator token to the terminal page only', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  const handler = fe.handlers.get(IPC_CHANNELS.getEngineInfo);
  assert.ok(handler);
  assert.deepEqual(handler(terminalFrame), { ...READY, appVersion: '9.9.9' });
  assert.throws(() => handler({ senderFrame: { url: 'https://evil.example/app/' } }), /only answered to the terminal page/);
  assert.throws(() => handler({ senderFrame: null }), /only answered to the terminal page/);
});

test('openExternal opens web links in the system browser and refuses other schemes', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  const handler = fe.handlers.get(IPC_CHANNELS.openExternal)!;
  assert.deepEqual(await handler(terminalFrame, 'https://docs.example/api'), { opened: true });
  assert.deepEqual(await handler(terminalFrame, 'file:///etc/passwd'), { opened: false });
  assert.deepEqual(await handler(terminalFrame, 42), { opened: false });
  assert.deepEqual(fe.opened, ['https://docs.example/api']);
});

test('navigation away from the terminal is blocked and new windows are denied', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  const [win] = fe.windows();
  assert.ok(win);
  assert.equal(win.navigate('http://127.0.0.1:4321/app/markets'), false);
  assert.equal(win.navigate('https://elsewhere.example/'), true);
  assert.deepEqual(win.openHandler?.({ url: 'https://docs.example/' }), { action: 'deny' });
  assert.deepEqual(fe.opened, ['https://elsewhere.example/', 'https://docs.example/']);
});

test('a server redirect away from the terminal is stopped, one inside it goes through', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  const [win] = fe.windows();
  assert.ok(win);
  assert.equal(win.webContents.fire('will-redirect', 'http://127.0.0.1:4321/app/markets'), false);
  assert.equal(win.webContents.fire('will-redirect', 'https://rebind.example/phish'), true);
  assert.equal(win.webContents.fire('will-redirect', 'http://127.0.0.1:4321/rpc'), true);
  assert.deepEqual(fe.opened, [], 'a redirect opens nothing in the system browser');
});

test('every webContents the app creates, not only the window, is held to the terminal', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  // A webContents the app did not make itself (a devtools, popup or webview one).
  const other = new FakeWebContents();
  fe.emit('web-contents-created', { preventDefault: () => undefined }, other);
  assert.deepEqual(other.openHandler?.({ url: 'https://docs.example/' }), { action: 'deny' });
  assert.equal(other.fire('will-navigate', 'https://elsewhere.example/'), true);
  assert.equal(other.fire('will-redirect', 'https://elsewhere.example/'), true);
  assert.equal(other.fire('will-attach-webview'), true);
  assert.equal(other.fire('will-navigate', 'http://127.0.0.1:4321/app/'), false);
});

test('quitting waits for the engine to close, then quits for real', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  fe.emit('window-all-closed');
  assert.equal(eng.calls.closed, 1);
  assert.equal(fe.state.exitCode, undefined, 'the quit is held while the engine closes');
  fe.api.app.quit(); // a second quit request while closing does not close twice
  assert.equal(eng.calls.closed, 1);
  eng.releaseClose();
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(fe.state.exitCode, 0);
});

test('a second instance quits without starting an engine', async () => {
  const fe = fakeElectron({ lock: false });
  const eng = fakeEngine();
  const handle = await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  assert.equal(handle, undefined);
  assert.equal(eng.calls.created.length, 0);
  assert.equal(fe.state.quitCalls, 1);
});

test('an engine that cannot start shows an error box and exits 1', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine({ failListen: true });
  eng.releaseClose();
  const handle = await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  assert.equal(handle, undefined);
  assert.equal(fe.errors.length, 1);
  assert.match(fe.errors[0]!.content, /port in use/);
  assert.equal(fe.state.exitCode, 1);
  assert.equal(eng.calls.closed, 1);
  assert.equal(fe.windows().length, 0);
});

test('permission requests are denied by default; only clipboard writing from the terminal origin is granted', async () => {
  const fe = fakeElectron();
  const eng = fakeEngine();
  await runMain(fe.api, { preloadPath: '/p', createEngine: eng.createEngine, log: () => undefined });
  const request = fe.permissions.request;
  const check = fe.permissions.check;
  assert.ok(request && check, 'both handlers are installed');
  const ask = (permission: string, url: string) =>
    new Promise<boolean>((resolve) => request({}, permission, resolve, { requestingUrl: url }));
  for (const p of ['media', 'geolocation', 'notifications', 'midi', 'hid', 'serial', 'openExternal', 'pointerLock']) {
    assert.equal(await ask(p, 'http://127.0.0.1:4321/app/'), false, p);
    assert.equal(check({}, p, 'http://127.0.0.1:4321'), false, p);
  }
  assert.equal(await ask('clipboard-sanitized-write', 'http://127.0.0.1:4321/app/'), true);
  assert.equal(await ask('clipboard-sanitized-write', 'https://evil.example/'), false);
  assert.equal(check({}, 'clipboard-sanitized-write', 'https://evil.example'), false);
});

test('secrets are encrypted with safeStorage for the terminal page: base64 ciphertext without the plaintext, decrypted back to it', async () => {
  const fe = fakeElectron({ safeStorage: { backend: 'gnome_libsecret' } });
  await runMain(fe.api, { preloadPath: '/p', createEngine: fakeEngine().createEngine, log: () => undefined });
  const secret = '{"burners":[{"privateKey":"0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}]}';
  assert.deepEqual(await fe.handlers.get(IPC_CHANNELS.secretStorage)!(terminalFrame), { available: true, backend: 'gnome_libsecret' });
  const sealed = (await fe.handlers.get(IPC_CHANNELS.encryptSecret)!(terminalFrame, secret)) as string;
  assert.match(sealed, /^[A-Za-z0-9+/]+=*$/);
  assert.ok(!Buffer.from(sealed, 'base64').toString('latin1').includes('ac0974bec39a'), 'no plaintext in the ciphertext');
  assert.equal(await fe.handlers.get(IPC_CHANNELS.decryptSecret)!(terminalFrame, sealed), secret);
});

test('secret storage answers only the terminal page, only strings, and refuses when the OS keeps no key', async () => {
  const fe = fakeElectron();
  await runMain(fe.api, { preloadPath: '/p', createEngine: fakeEngine().createEngine, log: () => undefined });
  const encrypt = fe.handlers.get(IPC_CHANNELS.encryptSecret)!;
  await assert.rejects(async () => encrypt({ senderFrame: { url: 'https://evil.example/' } }, 'x'), /only answered to the terminal page/);
  await assert.rejects(async () => fe.handlers.get(IPC_CHANNELS.decryptSecret)!({ senderFrame: null }, 'eA=='), /only answered to the terminal page/);
  await assert.rejects(async () => encrypt(terminalFrame, 42), /takes a string/);
  await assert.rejects(async () => encrypt(terminalFrame, 'x'.repeat(1_000_001)), /takes a string of at most/);
  await assert.rejects(async () => fe.handlers.get(IPC_CHANNELS.decryptSecret)!(terminalFrame, Buffer.from('garbage').toString('base64')), /decrypting/);

  // Linux without a keyring: Chromium's built-in key is obfuscation, so safeStorage counts as unavailable.
  for (const safeStorage of [{ available: false }, { available: true, backend: 'basic_text' }]) {
    const off = fakeElectron({ safeStorage });
    await runMain(off.api, { preloadPath: '/p', createEngine: fakeEngine().createEngine, log: () => undefined });
    assert.equal(((await off.handlers.get(IPC_CHANNELS.secretStorage)!(terminalFrame)) as { available: boolean }).available, false);
    await assert.rejects(async () => off.handlers.get(IPC_CHANNELS.encryptSecret)!(terminalFrame, 'x'), /no secret storage/);
  }
});
