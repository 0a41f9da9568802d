import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { base64Decode, base64UrlEncode, buildL2Signature, l2Message, normalizeBase64Signature } from './hmac.js';

const ZERO_SECRET = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
const SECRET_63 = 'tVeZMd8pFtb8CWJhcjGQ4D1ul-ZgjQaFhF4wBTRTXA0=';
const BODY_63 =
  '{"deferExec":false,"order":{"salt":12345,"maker":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","signer":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","taker":"0x0000000000000000000000000000000000000000","tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","makerAmount":"5200000","takerAmount":"10000000","side":"BUY","expiration":"0","nonce":"0","feeRateBps":"0","signatureType":0,"signature":"0x14891d8f33e0cd79da2e0d623d6f0a7b2ea9babf045d42defa47ea2191dd483e2837e90f585cf0698fad39680063124f593553d6041de4f9879567d68f658e201c"},"owner":"6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10","orderType":"GTC","postOnly":false}';

test('the clob-client HMAC vector (body with a space) signs to ZwAdJK…', () => {
  assert.equal(buildL2Signature(ZERO_SECRET, 1000000, 'test-sign', '/orders', '{"hash": "0x123"}'), 'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=');
});

test('the rs-clob-client HMAC vector (compact body) signs to 4gJVbox…', () => {
  assert.equal(buildL2Signature(ZERO_SECRET, 1000000, 'test-sign', '/orders', '{"hash":"0x123"}'), '4gJVbox-R6XlDK4nlaicig0_ANVL1qdcahiL8CXfXLM=');
});

test('a GET without a body signs timestamp + method + path only', () => {
  assert.equal(buildL2Signature(SECRET_63, '1718000000', 'GET', '/data/orders'), 'hjH-ds-8McqdaJ8le0isCbS51wj2l5Kx5BUFW-v_cvk=');
  assert.equal(buildL2Signature(SECRET_63, '1718000000', 'GET', '/data/orders', ''), 'hjH-ds-8McqdaJ8le0isCbS51wj2l5Kx5BUFW-v_cvk=');
});

test('the full POST /order request of trading-api §6.3 signs to MjcLcu…', () => {
  assert.equal(buildL2Signature(SECRET_63, 1718000000, 'POST', '/order', BODY_63), 'MjcLcuB6hcBGaNbT7wUWmgvl3RYntBYjCD9QoHA_I5w=');
});

test('secrets in the standard and the URL-safe alphabet decode to the same key', () => {
  const a = buildL2Signature('++/A' + 'A'.repeat(39) + '=', 1, 'GET', '/x');
  const b = buildL2Signature('--_A' + 'A'.repeat(39) + '=', 1, 'GET', '/x');
  assert.equal(a, b);
});

test('the decoder drops characters outside the alphabet and stops at padding', () => {
  assert.deepEqual(base64Decode('AQ\nID*BA==junk'), new Uint8Array([1, 2, 3, 4]));
  assert.deepEqual(base64Decode(''), new Uint8Array(0));
});

test('the encoder agrees with Node base64url plus padding for every length', () => {
  for (let n = 0; n < 40; n++) {
    const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n * 11) & 0xff);
    const nodeForm = Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    assert.equal(base64UrlEncode(bytes), nodeForm);
    assert.equal(base64UrlEncode(bytes, false), nodeForm.replace(/=+$/, ''));
    assert.deepEqual(base64Decode(nodeForm), bytes);
  }
});

test('the isomorphic HMAC equals node:crypto for random keys and messages', () => {
  for (let i = 0; i < 50; i++) {
    const key = new Uint8Array(32).map(() => Math.floor(Math.random() * 256));
    const secret = base64UrlEncode(key);
    const body = JSON.stringify({ i, s: 'é✓'.repeat(i) });
    const expected = createHmac('sha256', Buffer.from(key)).update(l2Message(1700000000 + i, 'POST', '/order', body)).digest('base64url');
    assert.equal(normalizeBase64Signature(buildL2Signature(secret, 1700000000 + i, 'POST', '/order', body)), expected);
  }
});

test('signature normalisation maps the standard alphabet and drops padding', () => {
  assert.equal(normalizeBase64Signature('ab+/cd=='), 'ab-_cd');
});
