import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { base64Decode, l2Message } from '../../protocol/hmac.js';
import { hmacSha256Base64Url, nativeHmacSha256 } from './hmacSha256.js';

test('the native addon computes the HMAC (npm install built it)', () => {
  assert.equal(nativeHmacSha256, true);
});

test('RFC 4231 test cases 1, 2 and 6 (a key longer than a block) give their published MACs', () => {
  const hex = (s: string) => Buffer.from(s, 'hex');
  const b64 = (s: string) => hex(s).toString('base64url');
  assert.equal(hmacSha256Base64Url(hex('0b'.repeat(20)), 'Hi There'), b64('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'));
  assert.equal(hmacSha256Base64Url(Buffer.from('Jefe'), 'what do ya want for nothing?'), b64('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'));
  assert.equal(
    hmacSha256Base64Url(hex('aa'.repeat(131)), 'Test Using Larger Than Block-Size Key - Hash Key First'),
    b64('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'),
  );
});

test('the public clients\' L2 vectors (clob-client, rs-clob-client) sign to ZwAdJK… and 4gJVbox…', () => {
  const secret = base64Decode('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=');
  assert.equal(hmacSha256Base64Url(secret, l2Message(1000000, 'test-sign', '/orders', '{"hash": "0x123"}')), 'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc');
  assert.equal(hmacSha256Base64Url(secret, l2Message(1000000, 'test-sign', '/orders', '{"hash":"0x123"}')), '4gJVbox-R6XlDK4nlaicig0_ANVL1qdcahiL8CXfXLM');
});

test('for random keys and messages (non-ASCII, empty, and longer than the stack copy) it equals createHmac', () => {
  const bodies = ['', 'plain', 'ünïcödé ✓ 🚀', 'x'.repeat(8191), 'y'.repeat(8192), 'z'.repeat(70_000), '€'.repeat(5000)];
  for (let i = 0; i < 200; i++) {
    const key = randomBytes(i % 70);
    const message = l2Message(1700000000 + i, 'POST', '/order', bodies[i % bodies.length]! + String(i));
    assert.equal(hmacSha256Base64Url(key, message), createHmac('sha256', key).update(message).digest('base64url'), `case ${i}`);
  }
});

test('messages whose UTF-8 length lies at the edge of the stack copy, ending in 1- to 4-byte characters, equal createHmac', () => {
  const key = randomBytes(32);
  for (const ch of ['a', 'é', '€', '🚀']) {
    const width = Buffer.byteLength(ch);
    for (let bytes = 8180; bytes <= 8200; bytes++) {
      const message = 'a'.repeat(bytes - width) + ch;
      assert.equal(hmacSha256Base64Url(key, message), createHmac('sha256', key).update(message).digest('base64url'), `${bytes} bytes ending in ${ch}`);
    }
  }
});
