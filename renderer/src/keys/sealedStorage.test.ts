import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sealedStorage } from './sealedStorage.js';
import { aesGcmBox, newDeviceKey, type SecretBox } from './secretBox.js';

const PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const API_SECRET = 'c2VjcmV0LW9mLXRoZS1hcGkta2V5LWZvci10ZXN0cw==';
const STATE = JSON.stringify({ state: { burners: [{ privateKey: PRIVATE_KEY }], credentials: { '0xabc': [{ key: 'k', secret: API_SECRET, passphrase: 'pass-phrase-1' }] } }, version: 1 });

/** The browser's Storage, as a Map (what localStorage is to the page). */
function memoryStorage() {
  const m = new Map<string, string>();
  return { m, getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
}

async function setup() {
  const box = aesGcmBox(await newDeviceKey());
  const backing = memoryStorage();
  const storage = sealedStorage(async () => box, async () => box, backing);
  return { box, backing, storage };
}

test('what reaches the backing storage is a sealed envelope without the private key, API secret or passphrase, and opens back to the state', async () => {
  const { backing, storage } = await setup();
  await storage.setItem('wallets', STATE);
  const stored = backing.m.get('wallets')!;
  for (const plain of [PRIVATE_KEY.slice(2), API_SECRET, 'pass-phrase-1', 'privateKey', 'burners']) assert.ok(!stored.includes(plain), `${plain} is not stored in the clear`);
  assert.deepEqual(Object.keys(JSON.parse(stored)), ['sealed', 'by', 'data']);
  assert.equal(JSON.parse(stored).by, 'device-key');
  assert.equal(await storage.getItem('wallets'), STATE);
  await storage.removeItem('wallets');
  assert.equal(await storage.getItem('wallets'), null);
});

test('the same state sealed twice gives different ciphertexts (fresh IV), and a tampered one is refused', async () => {
  const { box } = await setup();
  const a = await box.seal(STATE);
  const b = await box.seal(STATE);
  assert.notEqual(a, b);
  const [iv, ct] = a.split('.');
  const flipped = Buffer.from(ct!, 'base64');
  flipped[0]! ^= 1;
  await assert.rejects(box.open(`${iv}.${flipped.toString('base64')}`), /cannot be decrypted/);
  await assert.rejects(box.open('not sealed'), /not in the sealed format/);
  // Another profile's key cannot open it.
  await assert.rejects(aesGcmBox(await newDeviceKey()).open(a), /cannot be decrypted/);
});

test('a state stored in plain text by an older terminal is read once and sealed at once', async () => {
  const { backing, storage } = await setup();
  backing.m.set('wallets', STATE);
  assert.equal(await storage.getItem('wallets'), STATE);
  assert.ok(!backing.m.get('wallets')!.includes(PRIVATE_KEY.slice(2)));
  assert.equal(await storage.getItem('wallets'), STATE);
});

test('writes land in order even when an earlier encryption is slower, so the last state is the one kept', async () => {
  const inner = aesGcmBox(await newDeviceKey());
  let calls = 0;
  // The first seal takes longest: without the write chain it would land last and win.
  const slowFirst: SecretBox = { kind: 'device-key', open: inner.open, seal: async (p) => (calls++ === 0 ? new Promise((r) => setTimeout(() => r(inner.seal(p)), 50)) : inner.seal(p)) };
  const backing = memoryStorage();
  const storage = sealedStorage(async () => slowFirst, async () => slowFirst, backing);
  void storage.setItem('w', 'first');
  void storage.setItem('w', 'second');
  await storage.setItem('w', 'third');
  assert.equal(await storage.getItem('w'), 'third');
});
