import { BuilderSigner } from '@polymarket/builder-signing-sdk';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createL1Headers } from '../../client/createL1Headers.js';
import { isApiError } from '../../protocol/errors.js';
import { authTestContext } from '../../testkit/authKit.js';
import { BuilderAuth, hasBuilderHeaders } from './builderAuth.js';

const T0 = 1_718_000_000;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An engine auth context with one API key, and the stock builder signer holding that key as builder credentials. */
async function setup() {
  const h = authTestContext({ profile: 'polymarket' }, undefined, T0 * 1000);
  dirs.push(h.dir);
  const account = privateKeyToAccount(generatePrivateKey());
  const l1 = await createL1Headers(account, h.ctx.config.chainId, 0, T0);
  const creds = await h.auth.createApiKey(Object.fromEntries(Object.entries(l1).map(([k, v]) => [k.toLowerCase(), v])));
  const signer = new BuilderSigner({ key: creds.key, secret: creds.secret, passphrase: creds.passphrase });
  return { h, account, creds, signer, builder: new BuilderAuth(h.ctx) };
}

/** Node delivers header names in lower case. */
function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function rejectsWith(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => isApiError(e) && e.code === code && e.status === 401, `expected ${code}`);
}

test('builder headers made by the stock builder-signing-sdk with an API key of this exchange verify and name the key owner', async () => {
  const { signer, builder, account, creds } = await setup();
  const body = '{"type":"SAFE"}';
  const headers = lower(signer.createBuilderHeaderPayload('POST', '/submit', body, T0));
  assert.equal(hasBuilderHeaders(headers), true);
  const who = builder.authenticate({ method: 'POST', path: '/submit', rawBody: body, headers });
  assert.deepEqual(who, { apiKey: creds.key, address: account.address.toLowerCase() });
});

test('a builder HMAC over another body, path or secret is refused invalid_signature', async () => {
  const { signer, builder } = await setup();
  const headers = lower(signer.createBuilderHeaderPayload('POST', '/submit', '{"a":1}', T0));
  rejectsWith(() => builder.authenticate({ method: 'POST', path: '/submit', rawBody: '{"a":2}', headers }), 'invalid_signature');
  rejectsWith(() => builder.authenticate({ method: 'POST', path: '/wallet/safe', rawBody: '{"a":1}', headers }), 'invalid_signature');
  rejectsWith(() => builder.authenticate({ method: 'POST', path: '/submit', rawBody: '{"a":1}', headers: { ...headers, poly_builder_signature: 'AAAA' } }), 'invalid_signature');
});

test('an unknown builder key, a wrong passphrase, a stale timestamp and missing headers are each refused with their own code', async () => {
  const { signer, builder, h, creds } = await setup();
  const good = lower(signer.createBuilderHeaderPayload('GET', '/transactions', undefined, T0));
  const req = (headers: Record<string, string>) => ({ method: 'GET', path: '/transactions', rawBody: '', headers });
  rejectsWith(() => builder.authenticate(req({ ...good, poly_builder_api_key: '00000000-0000-4000-8000-000000000000' })), 'unknown_api_key');
  rejectsWith(() => builder.authenticate(req({ ...good, poly_builder_passphrase: 'f'.repeat(64) })), 'passphrase_mismatch');
  const window = h.ctx.config.authWindowSeconds;
  rejectsWith(() => builder.authenticate(req(lower(signer.createBuilderHeaderPayload('GET', '/transactions', undefined, T0 - window - 1)))), 'timestamp_out_of_window');
  const { poly_builder_signature: _dropped, ...partial } = good;
  rejectsWith(() => builder.authenticate(req(partial)), 'missing_auth_headers');
  assert.equal(hasBuilderHeaders({ service_api_key: creds.key }), false);
});
