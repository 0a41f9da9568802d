import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createL1Headers } from '../../client/createL1Headers.js';
import { ApiError } from '../../protocol/errors.js';
import { authTestContext, type AuthTestContext } from '../../testkit/authKit.js';

const T0 = 1_718_000_000;
const MAX_API_KEYS_PER_WALLET = 100;
const made: AuthTestContext[] = [];
after(() => {
  for (const h of made) rmSync(h.dir, { recursive: true, force: true });
});

test('one wallet holds at most 100 live API keys: the next create is a 409 saying how to go on, and a revoke frees a slot', async () => {
  const h = authTestContext();
  made.push(h);
  const account = privateKeyToAccount(generatePrivateKey());
  // Created concurrently, as a flood would: the cap holds for keys not yet committed too.
  const first = await Promise.allSettled(Array.from({ length: MAX_API_KEYS_PER_WALLET + 20 }, async (_, i) => h.auth.createApiKey(await createL1Headers(account, h.ctx.config.chainId, 0, T0 + i))));
  const made100 = first.filter((r) => r.status === 'fulfilled');
  assert.equal(made100.length, MAX_API_KEYS_PER_WALLET);
  const refused = first.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.ok(refused.reason instanceof ApiError);
  assert.equal(refused.reason.code, 'api_key_limit');
  assert.equal(refused.reason.status, 409);
  assert.match(refused.reason.message, /already holds 100 live API keys.*revoke one with DELETE \/auth\/api-key/);

  const one = (made100[0] as PromiseFulfilledResult<{ apiKey: string }>).value.apiKey;
  await h.auth.revoke({ address: account.address.toLowerCase() as `0x${string}`, apiKey: one });
  const again = await h.auth.createApiKey(await createL1Headers(account, h.ctx.config.chainId, 0, T0 + 200));
  assert.match(again.apiKey, /^[0-9a-f-]{36}$/);
  // Another wallet is not affected.
  const other = privateKeyToAccount(generatePrivateKey());
  assert.ok(await h.auth.createApiKey(await createL1Headers(other, h.ctx.config.chainId, 0, T0)));
});
