import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { l2Headers, signedBuyBody, type OrderSigner } from './orderLoad.js';
import { REFERENCE_CREDS, REFERENCE_DOMAIN, startReferenceServer, type ReferenceServer, type ReferenceStage } from './referenceServer.js';

const key = generatePrivateKey();
const alice: OrderSigner = { priv: Buffer.from(key.slice(2), 'hex'), address: privateKeyToAccount(key).address };
const mallory: OrderSigner = { ...alice, priv: Buffer.from(generatePrivateKey().slice(2), 'hex') };
const CONDITION = '0x' + '5a'.repeat(32);
let salt = 1;

async function post(s: ReferenceServer, body: string, headers = l2Headers(alice.address, REFERENCE_CREDS, 'POST', '/order', body)) {
  const res = await fetch(`http://127.0.0.1:${s.port}/order`, { method: 'POST', headers, body });
  return { status: res.status, json: (await res.json()) as { success?: boolean; order_id?: string; error?: string } };
}

const order = (signer: OrderSigner) => signedBuyBody(signer, CONDITION, '1000', 500_000n, 5_000_000n, salt++, 'GTC', REFERENCE_DOMAIN);

for (const stage of ['durable', 'prototype'] as const satisfies readonly ReferenceStage[]) {
  describe(`the ${stage} reference pipeline`, () => {
    let dir: string;
    let server: ReferenceServer;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'reference-test-'));
      server = await startReferenceServer(stage, dir);
    });
    after(async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('accepts a signed order once, with its EIP-712 hash as id, and refuses the same order again', async () => {
      const body = order(alice);
      const first = await post(server, body);
      assert.equal(first.status, 201);
      assert.equal(first.json.success, true);
      assert.match(first.json.order_id ?? '', /^0x[0-9a-f]{64}$/);
      const again = await post(server, body);
      assert.deepEqual(again, { status: 400, json: { error: 'order already exists' } });
    });

    it('refuses an L2 signature made with another secret, and an unknown API key', async () => {
      const body = order(alice);
      const wrongSecret = l2Headers(alice.address, { ...REFERENCE_CREDS, secret: Buffer.alloc(32, 9).toString('base64url') }, 'POST', '/order', body);
      assert.equal((await post(server, body, wrongSecret)).status, 401);
      const wrongKey = l2Headers(alice.address, { ...REFERENCE_CREDS, key: '00000000-0000-4000-8000-000000000000' }, 'POST', '/order', body);
      assert.equal((await post(server, body, wrongKey)).status, 401);
    });

    it('refuses an order signed by a key other than its signer, also once the signer is known', async () => {
      assert.equal((await post(server, order(alice))).status, 201);
      const forged = await post(server, order(mallory));
      assert.deepEqual(forged, { status: 400, json: { error: 'invalid signature' } });
    });

    it('refuses a body that is not an order', async () => {
      assert.equal((await post(server, '{"order":')).status, 400);
      assert.equal((await post(server, '{"owner":"x"}')).status, 400);
    });
  });
}

describe('the http reference pipeline', () => {
  it('answers POST /order with a fixed 201 without reading the order, and other routes with 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reference-test-'));
    const server = await startReferenceServer('http', dir);
    try {
      const r = await post(server, 'not even JSON', { 'content-type': 'application/json' });
      assert.equal(r.status, 201);
      assert.equal(r.json.success, true);
      assert.equal((await fetch(`http://127.0.0.1:${server.port}/book`)).status, 404);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
