import { createL1Headers } from '../../client/createL1Headers.js';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { buildL2Signature } from '../../protocol/hmac.js';
import { authTestContext } from '../../testkit/authKit.js';
import { buildApp } from '../app.js';

const T0 = 1_718_000_000;
const dirs: string[] = [];
const apps: FastifyInstance[] = [];
after(async () => {
  for (const a of apps) await a.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function makeApp() {
  const h = authTestContext({}, undefined, T0 * 1000);
  dirs.push(h.dir);
  const app = await buildApp(h.ctx);
  apps.push(app);
  return { app, ctx: h.ctx, credits: h.credits };
}

function l1(account: PrivateKeyAccount, chainId: number, timestamp = T0, nonce = 0) {
  return createL1Headers(account, chainId, nonce, timestamp);
}

function l2(creds: { key: string; secret: string; passphrase: string }, address: string, method: string, path: string, body = '') {
  return {
    SERVICE_ADDRESS: address,
    SERVICE_SIGNATURE: buildL2Signature(creds.secret, T0, method, path, body),
    SERVICE_TIMESTAMP: String(T0),
    SERVICE_API_KEY: creds.key,
    SERVICE_PASSPHRASE: creds.passphrase,
  };
}

test('POST /auth/api-key answers 200 with key (also as apiKey), secret and passphrase, then the key lists, revokes and stops working', async () => {
  const { app, ctx, credits } = await makeApp();
  const account = privateKeyToAccount(generatePrivateKey());
  // The public TS client sends Content-Type: application/json without a body.
  const created = await app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await l1(account, ctx.config.chainId)), 'content-type': 'application/json' } });
  assert.equal(created.statusCode, 200, created.body);
  const creds = created.json() as { apiKey: string; key: string; secret: string; passphrase: string };
  assert.deepEqual(Object.keys(creds), ['apiKey', 'key', 'secret', 'passphrase']);
  assert.equal(creds.apiKey, creds.key);
  assert.deepEqual(credits.map((c) => c[0]), [account.address.toLowerCase()]);

  const listed = await app.inject({ method: 'GET', url: '/auth/api-keys?ignored=1', headers: l2(creds, account.address, 'GET', '/auth/api-keys') });
  assert.equal(listed.statusCode, 200, listed.body);
  assert.deepEqual(listed.json(), { apiKeys: [creds.key] });

  // DELETE with a body (some clients send one): the signature covers the exact bytes.
  const body = '{}';
  const revoked = await app.inject({ method: 'DELETE', url: '/auth/api-key', headers: { ...l2(creds, account.address, 'DELETE', '/auth/api-key', body), 'content-type': 'application/json' }, payload: body });
  assert.equal(revoked.statusCode, 200, revoked.body);
  assert.deepEqual(revoked.json(), { revoked: creds.key });

  const after = await app.inject({ method: 'GET', url: '/auth/api-keys', headers: l2(creds, account.address, 'GET', '/auth/api-keys') });
  assert.equal(after.statusCode, 401);
  assert.equal(after.json().error, 'api_key_revoked');
  assert.match(after.json().message, /POST \/auth\/api-key/);
});

test('authentication failures are 401 with a specific code and a message', async () => {
  const { app, ctx } = await makeApp();
  const account = privateKeyToAccount(generatePrivateKey());
  const noHeaders = await app.inject({ method: 'POST', url: '/auth/api-key' });
  assert.equal(noHeaders.statusCode, 401);
  assert.equal(noHeaders.json().error, 'missing_auth_headers');

  const other = privateKeyToAccount(generatePrivateKey());
  const forged = await app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await l1(other, ctx.config.chainId)), SERVICE_ADDRESS: account.address } });
  assert.equal(forged.statusCode, 401);
  assert.equal(forged.json().error, 'invalid_signature');

  const headers = await l1(account, ctx.config.chainId);
  assert.equal((await app.inject({ method: 'POST', url: '/auth/api-key', headers })).statusCode, 200);
  const replay = await app.inject({ method: 'POST', url: '/auth/api-key', headers });
  assert.equal(replay.statusCode, 401);
  assert.equal(replay.json().error, 'nonce_reused');

  const stale = await app.inject({ method: 'POST', url: '/auth/api-key', headers: await l1(account, ctx.config.chainId, T0 - 3600, 1) });
  assert.equal(stale.json().error, 'timestamp_out_of_window');

  const unsigned = await app.inject({ method: 'GET', url: '/auth/api-keys' });
  assert.equal(unsigned.statusCode, 401);
  assert.equal(unsigned.json().error, 'missing_auth_headers');
});

test('the L2 signature covers the path without the query string and the raw body bytes', async () => {
  const { app, ctx } = await makeApp();
  const account = privateKeyToAccount(generatePrivateKey());
  const creds = (await app.inject({ method: 'POST', url: '/auth/api-key', headers: await l1(account, ctx.config.chainId) })).json();
  const withQuery = await app.inject({ method: 'GET', url: '/auth/api-keys?next_cursor=MA%3D%3D', headers: l2(creds, account.address, 'GET', '/auth/api-keys') });
  assert.equal(withQuery.statusCode, 200);
  const signedWithQuery = await app.inject({
    method: 'GET',
    url: '/auth/api-keys?x=1',
    headers: l2(creds, account.address, 'GET', '/auth/api-keys?x=1'),
  });
  assert.equal(signedWithQuery.statusCode, 401);
  assert.equal(signedWithQuery.json().error, 'invalid_signature');
  // Same JSON, other bytes: the signature is over the bytes, not the parsed value.
  const del = await app.inject({
    method: 'DELETE',
    url: '/auth/api-key',
    headers: { ...l2(creds, account.address, 'DELETE', '/auth/api-key', '{"a": 1}'), 'content-type': 'application/json' },
    payload: '{"a":1}',
  });
  assert.equal(del.statusCode, 401);
  assert.equal(del.json().error, 'invalid_signature');
});
