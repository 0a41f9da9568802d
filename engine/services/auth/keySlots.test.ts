import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createL1Headers } from '../../client/createL1Headers.js';
import { ApiError } from '../../protocol/errors.js';
import { authTestContext, type AuthTestContext } from '../../testkit/authKit.js';

const T0 = 1_718_000_000;
const made: AuthTestContext[] = [];
after(() => {
  for (const h of made) rmSync(h.dir, { recursive: true, force: true });
});

function harness(profile: 'polymarket' | 'default'): AuthTestContext {
  const h = authTestContext({ profile });
  made.push(h);
  return h;
}

async function l1(account: PrivateKeyAccount, h: AuthTestContext, nonce: number, secondsLater = 0) {
  return createL1Headers(account, h.ctx.config.chainId, nonce, T0 + secondsLater);
}

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
  assert.fail('expected a refusal');
}

test('in the polymarket profile a repeated create with the same nonce returns the existing key, and derive returns it too', async () => {
  const h = harness('polymarket');
  const account = privateKeyToAccount(generatePrivateKey());
  const first = await h.auth.createApiKey(await l1(account, h, 0));
  assert.equal(first.apiKey, first.key);
  const again = await h.auth.createApiKey(await l1(account, h, 0, 1));
  assert.deepEqual(again, first);
  const derived = h.auth.deriveApiKey(await l1(account, h, 0, 2));
  assert.deepEqual(derived, first);
  assert.equal(h.credits.length, 1, 'the welcome credit is granted once');
});

test('in the polymarket profile the nonce is a slot: a lower nonce after a higher one creates its own key', async () => {
  const h = harness('polymarket');
  const account = privateKeyToAccount(generatePrivateKey());
  const seven = await h.auth.createApiKey(await l1(account, h, 7));
  const zero = await h.auth.createApiKey(await l1(account, h, 0, 1));
  assert.notEqual(zero.key, seven.key);
  assert.equal(h.auth.deriveApiKey(await l1(account, h, 7, 2)).key, seven.key);
  assert.equal(h.auth.deriveApiKey(await l1(account, h, 0, 3)).key, zero.key);
});

test('in the default profile an L1 signature is accepted once, for create and derive alike', async () => {
  const h = harness('default');
  const account = privateKeyToAccount(generatePrivateKey());
  const headers = await l1(account, h, 0);
  await h.auth.createApiKey(headers);
  assert.equal(await refusal(h.auth.createApiKey(headers)), 'nonce_reused');
  const deriveHeaders = await l1(account, h, 0, 1);
  h.auth.deriveApiKey(deriveHeaders);
  assert.equal(await refusal(() => h.auth.deriveApiKey(deriveHeaders)), 'nonce_reused');
  assert.equal(await refusal(h.auth.createApiKey(deriveHeaders)), 'nonce_reused');
});

test('in the polymarket profile the same L1 signature creates, then returns that key to create and derive again within its window (two clients built in one second)', async () => {
  const h = harness('polymarket');
  const account = privateKeyToAccount(generatePrivateKey());
  const headers = await l1(account, h, 0);
  const created = await h.auth.createApiKey(headers);
  assert.deepEqual(await h.auth.createApiKey(headers), created);
  assert.deepEqual(h.auth.deriveApiKey(headers), created);
  assert.deepEqual(h.auth.deriveApiKey(headers), created);
  const seven = await l1(account, h, 7);
  await h.auth.createApiKey(seven);
  assert.equal(h.auth.deriveApiKey(seven).key, (await h.auth.createApiKey(seven)).key);
  h.clock.advance((h.ctx.config.authWindowSeconds + 1) * 1000);
  assert.equal(await refusal(() => h.auth.deriveApiKey(headers)), 'timestamp_out_of_window');
});

test('in the polymarket profile an L1 signature never issues a second key: concurrent creates share one issuance, and after revocation the same signature is refused', async () => {
  const h = harness('polymarket');
  const account = privateKeyToAccount(generatePrivateKey());
  const headers = await l1(account, h, 0);
  const [a, b] = await Promise.all([h.auth.createApiKey(headers), h.auth.createApiKey(headers)]);
  assert.deepEqual(a, b);
  await h.auth.revoke({ address: account.address.toLowerCase() as `0x${string}`, apiKey: a.key });
  assert.equal(await refusal(h.auth.createApiKey(headers)), 'nonce_reused');
  assert.equal(await refusal(() => h.auth.deriveApiKey(headers)), 'unknown_api_key');
  // A signature that only derived is not a key-issuing one either once its key is gone.
  const other = privateKeyToAccount(generatePrivateKey());
  const first = await h.auth.createApiKey(await l1(other, h, 0));
  const deriveOnly = await l1(other, h, 0, 1);
  h.auth.deriveApiKey(deriveOnly);
  await h.auth.revoke({ address: other.address.toLowerCase() as `0x${string}`, apiKey: first.key });
  assert.equal(await refusal(h.auth.createApiKey(deriveOnly)), 'nonce_reused');
});

test('derive without a live key of that nonce is refused unknown_api_key, and a revoked key is not derived', async () => {
  const h = harness('polymarket');
  const account = privateKeyToAccount(generatePrivateKey());
  assert.equal(await refusal(() => h.auth.deriveApiKey({})), 'missing_auth_headers');
  const created = await h.auth.createApiKey(await l1(account, h, 3));
  assert.equal(await refusal(async () => h.auth.deriveApiKey(await l1(account, h, 4, 1))), 'unknown_api_key');
  await h.auth.revoke({ address: account.address.toLowerCase() as `0x${string}`, apiKey: created.key });
  assert.equal(await refusal(async () => h.auth.deriveApiKey(await l1(account, h, 3, 2))), 'unknown_api_key');
  const fresh = await h.auth.createApiKey(await l1(account, h, 3, 3));
  assert.notEqual(fresh.key, created.key);
});

test('the default profile keeps the nonce floor: a lower nonce is refused, a repeated nonce makes a new key', async () => {
  const h = harness('default');
  const account = privateKeyToAccount(generatePrivateKey());
  const seven = await h.auth.createApiKey(await l1(account, h, 7));
  assert.equal(await refusal(async () => h.auth.createApiKey(await l1(account, h, 0, 1))), 'nonce_reused');
  const again = await h.auth.createApiKey(await l1(account, h, 7, 2));
  assert.notEqual(again.key, seven.key);
});
