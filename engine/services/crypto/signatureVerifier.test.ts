import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashTypedData, keccak256, toBytes } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ORDER_TYPES, orderDomain, orderTypedMessage, type Address, type OrderStruct } from '../../protocol/eip712.js';
import { SignatureVerifier, verifyOrderSignature } from './signatureVerifier.js';
import { VECTOR_6_3_DOMAIN, VECTOR_6_3_ORDER, VECTOR_6_3_SIGNATURE } from '../../testkit/tradingVectorsKit.js';

const VECTOR = { ...VECTOR_6_3_ORDER, signature: VECTOR_6_3_SIGNATURE };
const DOMAIN = VECTOR_6_3_DOMAIN;

/** `n` messages, each hashed and signed by its own fresh key. */
function signedCases(n: number, label: string) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const account = privateKeyToAccount(generatePrivateKey());
      const hash = keccak256(toBytes(`${label} ${i}`));
      return { account, hash, sig: await account.sign({ hash }) };
    }),
  );
}

for (const mode of ['worker', 'inline'] as const) {
  test(`the §6.3 order verifies to its signer (${mode})`, async () => {
    const v = new SignatureVerifier({ mode });
    try {
      const r = await verifyOrderSignature(VECTOR, DOMAIN, v);
      assert.equal(r.digest, '0x24aed465e78a205d68396b89765b6e3f9a80305e47e65d2bcab6c2aba627fe7c');
      assert.equal(r.recovered, '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23');
      assert.equal(v.mode, mode);
    } finally {
      await v.close();
    }
  });

  test(`a batch of concurrent recoveries resolves each to its own signer (${mode})`, async () => {
    const v = new SignatureVerifier({ mode, maxBatch: 7 });
    try {
      const cases = await signedCases(30, 'batch');
      const bad = v.recover(toBytes(keccak256(toBytes('x'))), '0x' + '00'.repeat(64) + '1b');
      const got = await Promise.all(cases.map((c) => v.recover(toBytes(c.hash), c.sig)));
      assert.deepEqual(got, cases.map((c) => c.account.address.toLowerCase()));
      assert.equal(await bad, null);
      if (mode === 'worker') assert.ok(v.stats.batches >= 5 && v.stats.inWorker === 31, JSON.stringify(v.stats));
    } finally {
      await v.close();
    }
  });
}

test('a signature for the other exchange recovers to another address', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const order: OrderStruct = { ...VECTOR, maker: account.address, signer: account.address, salt: '77' };
  const domain = { chainId: 31337, verifyingContract: '0x00000000000000000000000000000000000000aa' as Address };
  const signature = await account.signTypedData({ domain: orderDomain(domain), types: ORDER_TYPES, primaryType: 'Order', message: orderTypedMessage(order) });
  const v = new SignatureVerifier({ mode: 'worker' });
  try {
    const right = await verifyOrderSignature({ ...order, signature }, domain, v);
    assert.equal(right.recovered, account.address.toLowerCase());
    assert.equal(right.digest, hashTypedData({ domain: orderDomain(domain), types: ORDER_TYPES, primaryType: 'Order', message: orderTypedMessage(order) }));
    const wrong = await verifyOrderSignature({ ...order, signature }, { ...domain, verifyingContract: '0x00000000000000000000000000000000000000bb' }, v);
    assert.notEqual(wrong.recovered, account.address.toLowerCase());
  } finally {
    await v.close();
  }
});

test('after close, recoveries still answer (in this thread)', async () => {
  const v = new SignatureVerifier({ mode: 'worker' });
  await v.close();
  const r = await verifyOrderSignature(VECTOR, DOMAIN, v);
  assert.equal(r.recovered, '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23');
});

test('requests made while the worker holds a batch wait for it and go together as the next batch', async () => {
  const v = new SignatureVerifier({ mode: 'worker' });
  try {
    const cases = await signedCases(230, 'gather');
    const pending: Array<Promise<Address | null>> = [];
    const ask = (from: number, to: number) => {
      for (const c of cases.slice(from, to)) pending.push(v.recover(toBytes(c.hash), c.sig));
    };
    ask(0, 200); // the first batch: 200 recoveries keep the worker busy for several milliseconds
    for (const [from, to] of [[200, 210], [210, 220], [220, 230]] as const) {
      await new Promise((resolve) => setImmediate(resolve));
      ask(from, to);
    }
    const got = await Promise.all(pending);
    assert.deepEqual(got, cases.map((c) => c.account.address.toLowerCase()));
    // Four groups of requests, but the later ones gathered behind the busy worker (2 batches when the
    // machine is quiet; a descheduled main thread may let one answer slip between two groups).
    assert.ok(v.stats.batches <= 3 && v.stats.inWorker === 230, JSON.stringify(v.stats));
  } finally {
    await v.close();
  }
});

test('with depth 2 a busy worker is handed the next batch at once, and every recovery still resolves to its signer', async () => {
  const v = new SignatureVerifier({ mode: 'worker', depth: 2 });
  try {
    const cases = await signedCases(120, 'depth');
    const first = cases.slice(0, 100).map((c) => v.recover(toBytes(c.hash), c.sig));
    await new Promise((resolve) => setImmediate(resolve));
    const second = cases.slice(100).map((c) => v.recover(toBytes(c.hash), c.sig));
    await new Promise((resolve) => setImmediate(resolve));
    // The worker is still on the first 100 (several milliseconds) and already holds the second batch.
    assert.equal(v.stats.batches, 2, JSON.stringify(v.stats));
    assert.deepEqual(await Promise.all([...first, ...second]), cases.map((c) => c.account.address.toLowerCase()));
  } finally {
    await v.close();
  }
});

/** `perSigner` messages signed by each of `signers` fresh keys, interleaved. */
async function signerCases(signers: number, perSigner: number, label: string) {
  const accounts = Array.from({ length: signers }, () => privateKeyToAccount(generatePrivateKey()));
  return Promise.all(
    Array.from({ length: signers * perSigner }, async (_, i) => {
      const account = accounts[i % signers]!;
      const hash = keccak256(toBytes(`${label} ${i}`));
      return { account, hash, sig: await account.sign({ hash }) };
    }),
  );
}

test("once a signer's key is known, its signatures are batch-verified and resolve to it, as a recovery would", async () => {
  const v = new SignatureVerifier({ mode: 'worker' });
  try {
    const cases = await signerCases(3, 20, 'known');
    // First sight of each signer: recovered one by one, and the key remembered.
    const first = cases.slice(0, 3);
    assert.deepEqual(await Promise.all(first.map((c) => v.recover(toBytes(c.hash), c.sig, c.account.address))), first.map((c) => c.account.address.toLowerCase()));
    assert.equal(v.stats.batchVerified, 0);
    const rest = cases.slice(3);
    const got = await Promise.all(rest.map((c) => v.recover(toBytes(c.hash), c.sig, c.account.address)));
    assert.deepEqual(got, rest.map((c) => c.account.address.toLowerCase()));
    assert.equal(v.stats.batchVerified, rest.length, JSON.stringify(v.stats));
  } finally {
    await v.close();
  }
});

test('a signature that claims a known signer but was made by another key resolves to the key that made it', async () => {
  const v = new SignatureVerifier({ mode: 'worker' });
  try {
    const [victim, ...others] = await signerCases(1, 12, 'victim');
    const [forger] = await signerCases(1, 1, 'forger');
    await v.recover(toBytes(victim!.hash), victim!.sig, victim!.account.address);
    const claimed = victim!.account.address;
    const got = await Promise.all([
      ...others.map((c) => v.recover(toBytes(c.hash), c.sig, claimed)),
      v.recover(toBytes(forger!.hash), forger!.sig, claimed),
      v.recover(toBytes(forger!.hash), '0x' + 'ab'.repeat(32) + '00'.repeat(32) + '1b', claimed),
    ]);
    // The batch with the forgery fails as a whole; every signature in it is then recovered on its own.
    assert.deepEqual(got, [...others.map(() => claimed.toLowerCase()), forger!.account.address.toLowerCase(), null]);
  } finally {
    await v.close();
  }
});

test('a claimed signer is never trusted on first sight: the signature is recovered, whatever it claims', async () => {
  const v = new SignatureVerifier({ mode: 'worker' });
  try {
    const cases = await signerCases(2, 8, 'first sight');
    const claimed = cases[0]!.account.address;
    // Every signature claims signer 0, half were made by signer 1: none of signer 1's becomes signer 0's.
    const got = await Promise.all(cases.map((c) => v.recover(toBytes(c.hash), c.sig, claimed)));
    assert.deepEqual(got, cases.map((c) => c.account.address.toLowerCase()));
  } finally {
    await v.close();
  }
});

test('with batch verification switched off (SIGNATURE_BATCH_VERIFY=0) every signature is recovered, with the same answers', async () => {
  process.env.SIGNATURE_BATCH_VERIFY = '0';
  const v = new SignatureVerifier({ mode: 'worker' });
  delete process.env.SIGNATURE_BATCH_VERIFY;
  try {
    const cases = await signerCases(2, 10, 'off');
    await Promise.all(cases.slice(0, 2).map((c) => v.recover(toBytes(c.hash), c.sig, c.account.address)));
    const got = await Promise.all(cases.map((c) => v.recover(toBytes(c.hash), c.sig, c.account.address)));
    assert.deepEqual(got, cases.map((c) => c.account.address.toLowerCase()));
    assert.equal(v.stats.batchVerified, 0);
  } finally {
    await v.close();
  }
});

test('two worker threads batch-verify at the same time, and every answer is still its signer', async () => {
  const v = new SignatureVerifier({ mode: 'worker', workers: 2, maxBatch: 40 });
  try {
    const cases = await signerCases(4, 100, 'two threads');
    await Promise.all(cases.slice(0, 4).map((c) => v.recover(toBytes(c.hash), c.sig, c.account.address)));
    const got = await Promise.all(cases.map((c) => v.recover(toBytes(c.hash), c.sig, c.account.address)));
    assert.deepEqual(got, cases.map((c) => c.account.address.toLowerCase()));
    assert.equal(v.stats.batchVerified, cases.length, JSON.stringify(v.stats));
  } finally {
    await v.close();
  }
});
