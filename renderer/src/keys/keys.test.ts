import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seal, unseal } from './keyVault.js';
import { importSecret } from './secretImport.js';

// The standard BIP-39 test mnemonic and its first Ethereum account (m/44'/60'/0'/0/0).
const MNEMONIC = 'test test test test test test test test test test test junk';
const FIRST = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

test('a mnemonic imports the first account of the standard path, and another index on request', () => {
  const a = importSecret(`  ${MNEMONIC.toUpperCase()} `);
  assert.equal(a.kind, 'mnemonic');
  assert.equal(a.address, FIRST);
  assert.equal(a.privateKey, '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  assert.equal(importSecret(MNEMONIC, 1).address, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
});

test('a private key imports with or without 0x; anything else is refused with what is expected', () => {
  const k = importSecret('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  assert.equal(k.kind, 'private-key');
  assert.equal(k.address, FIRST);
  assert.throws(() => importSecret('0x1234'), /64 hex characters/);
  assert.throws(() => importSecret('test test test test test test test test test test test test test'), /12, 15, 18, 21 or 24 words/);
  assert.throws(() => importSecret('test test test test test test test test test test test test'), /not valid BIP-39/);
});

test('sealed wallets open with the passphrase only, and the blob holds no plaintext', async () => {
  const secret = JSON.stringify([{ label: 'Main', privateKey: '0xac09' }]);
  const blob = await seal(secret, 'correct horse', 1000);
  assert.equal(blob.v, 1);
  assert.ok(!JSON.stringify(blob).includes('0xac09'));
  assert.equal(await unseal(blob, 'correct horse'), secret);
  await assert.rejects(unseal(blob, 'wrong horse!'), /Wrong passphrase/);
  await assert.rejects(seal(secret, 'short'), /at least 8/);
  const again = await seal(secret, 'correct horse', 1000);
  assert.notEqual(again.ciphertext, blob.ciphertext, 'a fresh salt and IV each time');
});
