import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { createL1Headers } from './createL1Headers.js';
import { createL2Headers } from './createL2Headers.js';

test('L1 headers reproduce the trading-api §3 vectors', async () => {
  const a = await createL1Headers(privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'), 80002, 23, 10000000);
  assert.deepEqual(a, {
    SERVICE_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    SERVICE_SIGNATURE:
      '0xf62319a987514da40e57e2f4d7529f7bac38f0355bd88bb5adbb3768d80de6c1682518e0af677d5260366425f4361e7b70c25ae232aff0ab2331e2b164a1aedc1b',
    SERVICE_TIMESTAMP: '10000000',
    SERVICE_NONCE: '23',
  });
  const b = await createL1Headers(privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'), 137, 0, 1718000000);
  assert.equal(b.SERVICE_ADDRESS, '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
  assert.equal(
    b.SERVICE_SIGNATURE,
    '0x75880af82440d50862bf414730c36aa1155227a95752f2306a0947bc2058fbe710a130a5ec54f24ef301b11db343b163fa5059bca06808abf478021c8c8f98a81c',
  );
});

const CREDS = {
  key: '6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10',
  secret: 'tVeZMd8pFtb8CWJhcjGQ4D1ul-ZgjQaFhF4wBTRTXA0=',
  passphrase: 'bcd9f3ac11608ead9773fc7caa30db258950454123bc23d2bc98e409354432fc',
};

test('L2 headers sign the path without its query string', () => {
  const h = createL2Headers(CREDS, '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', { method: 'get', path: '/data/orders?market=0xabc&next_cursor=MA%3D%3D', timestamp: 1718000000 });
  assert.deepEqual(h, {
    SERVICE_ADDRESS: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
    SERVICE_SIGNATURE: 'hjH-ds-8McqdaJ8le0isCbS51wj2l5Kx5BUFW-v_cvk=',
    SERVICE_TIMESTAMP: '1718000000',
    SERVICE_API_KEY: CREDS.key,
    SERVICE_PASSPHRASE: CREDS.passphrase,
  });
});

test('L2 headers of the §6.3 order request carry MjcLcu…', () => {
  const body =
    '{"deferExec":false,"order":{"salt":12345,"maker":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","signer":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","taker":"0x0000000000000000000000000000000000000000","tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","makerAmount":"5200000","takerAmount":"10000000","side":"BUY","expiration":"0","nonce":"0","feeRateBps":"0","signatureType":0,"signature":"0x14891d8f33e0cd79da2e0d623d6f0a7b2ea9babf045d42defa47ea2191dd483e2837e90f585cf0698fad39680063124f593553d6041de4f9879567d68f658e201c"},"owner":"6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10","orderType":"GTC","postOnly":false}';
  const h = createL2Headers(CREDS, '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', { method: 'POST', path: '/order', body, timestamp: 1718000000 });
  assert.equal(h.SERVICE_SIGNATURE, 'MjcLcuB6hcBGaNbT7wUWmgvl3RYntBYjCD9QoHA_I5w=');
});
