import { createL1Headers } from '../../client/createL1Headers.js';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { isApiError } from '../../protocol/errors.js';
import { buildL2Signature } from '../../protocol/hmac.js';
import type { EngineConfig } from '../../config.js';
import type { ApiCredentials } from './authService.js';
import { authTestContext, type AuthTestContext } from '../../testkit/authKit.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Harness = AuthTestContext;

const T0 = 1_718_000_000;

function harness(partial: Partial<EngineConfig> = {}, reuse?: Harness): Harness {
  const h = authTestContext(partial, reuse, T0 * 1000);
  if (!reuse) dirs.push(h.dir);
  return h;
}

/** The client's L1 headers with lower-case names, as Node delivers them to the service. */
async function l1Headers(account: PrivateKeyAccount, chainId: number, timestamp: number, nonce: number | bigint): Promise<Record<string, string>> {
  const headers = await createL1Headers(account, chainId, nonce, timestamp);
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function l2Headers(creds: ApiCredentials, address: string, timestamp: number, method: string, path: string, body = '') {
  return {
    service_address: address,
    service_signature: buildL2Signature(creds.secret, timestamp, method, path, body),
    service_timestamp: String(timestamp),
    service_api_key: creds.key,
    service_passphrase: creds.passphrase,
  };
}

async function rejectsWith(p: Promise<unknown> | (() => unknown), code: string): Promise<void> {
  await assert.rejects(
    async () => (typeof p === 'function' ? p() : p),
    (e: unknown) => isApiError(e) && e.code === code && e.status === (code === 'invalid_field' ? 400 : 401),
    `expected ${code}`,
  );
}

test('L1 success issues a UUID v4 key, a padded url-safe secret and a 64-hex passphrase, and credits the welcome balance once', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const creds = await h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0, 0));
  assert.match(creds.key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(creds.secret, /^[A-Za-z0-9_-]{43}=$/);
  assert.equal(Buffer.from(creds.secret, 'base64url').length, 32);
  assert.match(creds.passphrase, /^[0-9a-f]{64}$/);
  assert.deepEqual(h.credits, [[account.address.toLowerCase(), h.ctx.config.initialCollateral, 'welcome']]);

  h.clock.advance(1000);
  const second = await h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0 + 1, 0));
  assert.notEqual(second.key, creds.key);
  assert.equal(h.credits.length, 1, 'the welcome credit is granted on the first key only');
});

test('the trading-api §3 L1 vectors are accepted under their chain ids', async () => {
  const vectors = [
    {
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 80002,
      timestamp: 10000000,
      nonce: '23',
      signature:
        '0xf62319a987514da40e57e2f4d7529f7bac38f0355bd88bb5adbb3768d80de6c1682518e0af677d5260366425f4361e7b70c25ae232aff0ab2331e2b164a1aedc1b',
    },
    {
      address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
      chainId: 137,
      timestamp: 1718000000,
      nonce: '0',
      signature:
        '0x75880af82440d50862bf414730c36aa1155227a95752f2306a0947bc2058fbe710a130a5ec54f24ef301b11db343b163fa5059bca06808abf478021c8c8f98a81c',
    },
  ];
  for (const v of vectors) {
    const h = harness({ chainId: v.chainId });
    h.clock.set(v.timestamp * 1000);
    const creds = await h.auth.createApiKey({
      SERVICE_ADDRESS: v.address,
      SERVICE_SIGNATURE: v.signature,
      SERVICE_TIMESTAMP: String(v.timestamp),
      SERVICE_NONCE: v.nonce,
    });
    assert.ok(creds.key);
  }
});

test('an L1 signature by another wallet, or for another chain, is invalid_signature', async () => {
  const h = harness();
  const owner = privateKeyToAccount(generatePrivateKey());
  const other = privateKeyToAccount(generatePrivateKey());
  const forged = { ...(await l1Headers(other, h.ctx.config.chainId, T0, 0)), service_address: owner.address };
  await rejectsWith(h.auth.createApiKey(forged), 'invalid_signature');
  await rejectsWith(h.auth.createApiKey(await l1Headers(owner, 137, T0, 0)), 'invalid_signature');
  await rejectsWith(h.auth.createApiKey({ ...(await l1Headers(owner, h.ctx.config.chainId, T0, 0)), service_signature: '0x1234' }), 'invalid_signature');
  assert.equal(h.credits.length, 0);
});

test('a stale or future L1 timestamp is timestamp_out_of_window', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const window = h.ctx.config.authWindowSeconds;
  await rejectsWith(h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0 - window - 1, 0)), 'timestamp_out_of_window');
  await rejectsWith(h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0 + window + 1, 0)), 'timestamp_out_of_window');
  await h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0 - window, 0));
});

test('a nonce below the highest accepted is nonce_reused; an equal or higher one with a fresh signature is accepted', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const chainId = h.ctx.config.chainId;
  await h.auth.createApiKey(await l1Headers(account, chainId, T0, 5));
  await rejectsWith(h.auth.createApiKey(await l1Headers(account, chainId, T0 + 1, 4)), 'nonce_reused');
  await h.auth.createApiKey(await l1Headers(account, chainId, T0 + 2, 5));
  await h.auth.createApiKey(await l1Headers(account, chainId, T0 + 3, 9));
  await rejectsWith(h.auth.createApiKey(await l1Headers(account, chainId, T0 + 4, 8)), 'nonce_reused');
});

test('the same L1 signature is accepted once, also when sent twice at the same time or with v as 0/1', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const headers = await l1Headers(account, h.ctx.config.chainId, T0, 0);
  const results = await Promise.allSettled([h.auth.createApiKey(headers), h.auth.createApiKey(headers)]);
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.ok(isApiError(failed.reason) && failed.reason.code === 'nonce_reused');
  await rejectsWith(h.auth.createApiKey(headers), 'nonce_reused');
  const signature = headers.service_signature!;
  const v = parseInt(signature.slice(130), 16) - 27;
  await rejectsWith(h.auth.createApiKey({ ...headers, service_signature: signature.slice(0, 130).toUpperCase().replace('0X', '0x') + '0' + v }), 'nonce_reused');
  assert.equal(h.credits.length, 1);
});

test('missing and malformed L1 headers name the header', async () => {
  const h = harness();
  await assert.rejects(h.auth.createApiKey({ service_address: '0x' + '1'.repeat(40) }), (e: unknown) => {
    assert.ok(isApiError(e) && e.code === 'missing_auth_headers');
    assert.match(e.message, /SERVICE_SIGNATURE, SERVICE_TIMESTAMP, SERVICE_NONCE/);
    return true;
  });
  const account = privateKeyToAccount(generatePrivateKey());
  const good = await l1Headers(account, h.ctx.config.chainId, T0, 0);
  await rejectsWith(h.auth.createApiKey({ ...good, service_address: 'nope' }), 'invalid_auth_header');
  await rejectsWith(h.auth.createApiKey({ ...good, service_timestamp: 'soon' }), 'invalid_auth_header');
  await rejectsWith(h.auth.createApiKey({ ...good, service_nonce: '-1' }), 'invalid_auth_header');
  await assert.rejects(h.auth.createApiKey({ ...good, service_referral: 'bob' }), (e: unknown) => isApiError(e) && e.code === 'invalid_field');
});

test('L2 authenticates with any header casing and returns the lower-case owner; each failure has its own code', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const creds = await h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0, 0));
  const body = '{"orderID":"01ABC"}';
  const good = l2Headers(creds, account.address, T0, 'DELETE', '/order', body);
  const mixed = Object.fromEntries(Object.entries(good).map(([k, v]) => [k.toUpperCase(), v]));
  const id = h.auth.authenticateL2({ method: 'DELETE', path: '/order', rawBody: body, headers: mixed });
  assert.deepEqual(id, { address: account.address.toLowerCase(), apiKey: creds.key });
  // The signature is not single-use (pagination reuses it), and standard base64 verifies too.
  const std = good.service_signature.replace(/-/g, '+').replace(/_/g, '/');
  h.auth.authenticateL2({ method: 'DELETE', path: '/order', rawBody: body, headers: { ...good, service_signature: std } });
  h.auth.authenticateL2({ method: 'DELETE', path: '/order', rawBody: body, headers: { ...good, service_address: account.address.toLowerCase() } });

  const req = (headers: Record<string, string>, rawBody = body, path = '/order') => () => h.auth.authenticateL2({ method: 'DELETE', path, rawBody, headers });
  await rejectsWith(req({ ...good, service_passphrase: '' }), 'missing_auth_headers');
  await rejectsWith(req({ ...good, service_passphrase: 'f'.repeat(64) }), 'passphrase_mismatch');
  await rejectsWith(req({ ...good, service_address: '0x' + '2'.repeat(40) }), 'address_mismatch');
  await rejectsWith(req({ ...good, service_api_key: '00000000-0000-4000-8000-000000000000' }), 'unknown_api_key');
  await rejectsWith(req(good, '{"orderID":"01ABD"}'), 'invalid_signature');
  await rejectsWith(req(good, body, '/orders'), 'invalid_signature');
  h.clock.advance((h.ctx.config.authWindowSeconds + 1) * 1000);
  await rejectsWith(req(good), 'timestamp_out_of_window');
});

test('POLY_* header aliases are accepted only in the polymarket compatibility profile', async () => {
  for (const profile of ['default', 'polymarket'] as const) {
    const h = harness({ profile });
    const account = privateKeyToAccount(generatePrivateKey());
    const l1 = await l1Headers(account, h.ctx.config.chainId, T0, 0);
    const poly = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace('service_', 'POLY_'), v]));
    if (profile === 'default') {
      await rejectsWith(h.auth.createApiKey(poly(l1)), 'missing_auth_headers');
      continue;
    }
    const creds = await h.auth.createApiKey(poly(l1));
    const id = h.auth.authenticateL2({ method: 'GET', path: '/auth/api-keys', rawBody: '', headers: poly(l2Headers(creds, account.address, T0, 'GET', '/auth/api-keys')) });
    assert.equal(id.apiKey, creds.key);
  }
});

test('revocation is immediate and listing omits revoked keys', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const chainId = h.ctx.config.chainId;
  const headersA = await l1Headers(account, chainId, T0, 0);
  const a = await h.auth.createApiKey(headersA);
  h.clock.advance(1000);
  const b = await h.auth.createApiKey(await l1Headers(account, chainId, T0 + 1, 0));
  const idA = h.auth.authenticateL2({ method: 'DELETE', path: '/auth/api-key', rawBody: '', headers: l2Headers(a, account.address, T0, 'DELETE', '/auth/api-key') });
  assert.deepEqual(h.auth.listKeys(idA), { apiKeys: [a.key, b.key] });

  const revoking = h.auth.revoke(idA);
  // Already refused before the write commits.
  await rejectsWith(() => h.auth.authenticateL2({ method: 'GET', path: '/x', rawBody: '', headers: l2Headers(a, account.address, T0, 'GET', '/x') }), 'api_key_revoked');
  assert.deepEqual(await revoking, { revoked: a.key });
  assert.deepEqual(h.auth.listKeys(idA), { apiKeys: [b.key] });

  // A restarted service (empty cache, same database) re-derives live keys and still refuses the revoked one.
  const restarted = harness({}, h);
  const idB = restarted.auth.authenticateL2({ method: 'GET', path: '/auth/api-keys', rawBody: '', headers: l2Headers(b, account.address, T0, 'GET', '/auth/api-keys') });
  assert.equal(idB.apiKey, b.key);
  await rejectsWith(() => restarted.auth.authenticateL2({ method: 'GET', path: '/x', rawBody: '', headers: l2Headers(a, account.address, T0, 'GET', '/x') }), 'api_key_revoked');
  // Single-use signatures survive the restart too.
  await rejectsWith(restarted.auth.createApiKey(headersA), 'nonce_reused');
});

test('neither the secret nor the passphrase is ever written to the database', async () => {
  const h = harness();
  const account = privateKeyToAccount(generatePrivateKey());
  const issued: ApiCredentials[] = [];
  for (let i = 0; i < 3; i++) issued.push(await h.auth.createApiKey(await l1Headers(account, h.ctx.config.chainId, T0 + i, i)));
  const files = ['exchange.sqlite', 'exchange.sqlite-wal'].map((f) => join(h.dir, f)).filter((f) => existsSync(f));
  const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
  for (const c of issued) {
    assert.ok(bytes.includes(Buffer.from(c.key)), 'the key id itself is stored');
    for (const needle of [c.secret, c.secret.replace(/=+$/, ''), c.passphrase, Buffer.from(c.secret, 'base64url').toString('hex')]) {
      assert.equal(bytes.includes(Buffer.from(needle)), false, `found ${needle} in the database files`);
    }
    assert.equal(bytes.includes(Buffer.from(c.secret, 'base64url')), false, 'found the raw secret bytes');
  }
});
