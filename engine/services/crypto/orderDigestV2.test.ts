import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashTypedData } from 'viem';
import { ORDER_V2_TYPES } from '../../testkit/orderKit.js';
import { orderV2Digest, type OrderV2DigestInput } from './orderDigestV2.js';

const EXCHANGE_V2 = '0xE111180000d2663C0091e4f400237545B87B996B';

function viemDigest(o: OrderV2DigestInput, chainId: number, verifyingContract: `0x${string}`): string {
  return hashTypedData({
    domain: { name: 'Polymarket CTF Exchange', version: '2', chainId, verifyingContract },
    types: ORDER_V2_TYPES,
    primaryType: 'Order',
    message: {
      salt: BigInt(o.salt),
      maker: o.maker as `0x${string}`,
      signer: o.signer as `0x${string}`,
      tokenId: BigInt(o.tokenId),
      makerAmount: BigInt(o.makerAmount),
      takerAmount: BigInt(o.takerAmount),
      side: o.side === 'BUY' || o.side === 0 ? 0 : 1,
      signatureType: o.signatureType,
      timestamp: BigInt(o.timestamp),
      metadata: o.metadata as `0x${string}`,
      builder: o.builder as `0x${string}`,
    },
  });
}

const VECTOR: OrderV2DigestInput = {
  salt: '1',
  maker: '0x1111111111111111111111111111111111111111',
  signer: '0x1111111111111111111111111111111111111111',
  tokenId: '101',
  makerAmount: '1000000',
  takerAmount: '2000000',
  side: 'BUY',
  signatureType: 0,
  timestamp: '1700000000000',
  metadata: '0x' + '00'.repeat(32),
  builder: '0x' + '00'.repeat(32),
};

test('the V2 order digest of the known-answer vector (chain 137, the public V2 exchange) is fixed and equals viem hashTypedData', () => {
  const digest = orderV2Digest(VECTOR, 137, EXCHANGE_V2);
  assert.equal(digest, viemDigest(VECTOR, 137, EXCHANGE_V2));
  assert.equal(digest, '0xd1925a866f32260e3102ae91dee819cbcbc14edc3bd8c67384878b542dd0270b');
});

test('the V2 digest equals viem for random orders, and differs by chain, exchange and every signed field', () => {
  const rnd = (bytes: number) => '0x' + Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
  for (let i = 0; i < 50; i++) {
    const o: OrderV2DigestInput = {
      salt: BigInt(rnd(8)).toString(),
      maker: rnd(20),
      signer: rnd(20),
      tokenId: BigInt(rnd(32)).toString(),
      makerAmount: BigInt(rnd(6)).toString(),
      takerAmount: BigInt(rnd(6)).toString(),
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      signatureType: i % 4,
      timestamp: String(1_700_000_000_000 + i),
      metadata: rnd(32),
      builder: rnd(32),
    };
    assert.equal(orderV2Digest(o, 137, EXCHANGE_V2), viemDigest(o, 137, EXCHANGE_V2));
  }
  const base = orderV2Digest(VECTOR, 137, EXCHANGE_V2);
  assert.notEqual(orderV2Digest(VECTOR, 80002, EXCHANGE_V2), base);
  assert.notEqual(orderV2Digest(VECTOR, 137, '0xe2222d279d744050d28e00520010520000310F59'), base);
  assert.notEqual(orderV2Digest({ ...VECTOR, timestamp: '1700000000001' }, 137, EXCHANGE_V2), base);
  assert.notEqual(orderV2Digest({ ...VECTOR, builder: '0x' + '00'.repeat(31) + '01' }, 137, EXCHANGE_V2), base);
});

test('a field that cannot be encoded throws a RangeError naming it', () => {
  assert.throws(() => orderV2Digest({ ...VECTOR, metadata: '0x12' }, 137, EXCHANGE_V2), /metadata/);
  assert.throws(() => orderV2Digest({ ...VECTOR, salt: '-1' }, 137, EXCHANGE_V2), /salt/);
});
