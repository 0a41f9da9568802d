import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keccak_256 } from '@noble/hashes/sha3';
import { getAddress, hashTypedData, keccak256 as viemKeccak, toHex } from 'viem';
import { ORDER_TYPE_STRING, ORDER_TYPEHASH, ORDER_TYPES, orderDomain, orderTypedMessage, type Address, type OrderStruct } from '../../protocol/eip712.js';
import { keccak256 } from './keccak256.js';
import { OrderEncodingError, orderDigestHex } from './orderDigest.js';
import { VECTOR_6_3_DIGEST, VECTOR_6_3_DOMAIN, VECTOR_6_3_ORDER } from './tradingVectorsFixture.js';

const VECTOR_ORDER: OrderStruct = {
  salt: 1,
  maker: '0x1111111111111111111111111111111111111111',
  signer: '0x1111111111111111111111111111111111111111',
  taker: '0x0000000000000000000000000000000000000000',
  tokenId: '101',
  makerAmount: '1000000',
  takerAmount: '2000000',
  expiration: '0',
  nonce: '2',
  feeRateBps: '0',
  side: 'BUY',
  signatureType: 0,
};

test('the fast keccak equals noble keccak_256 for every length up to three blocks', () => {
  for (let n = 0; n <= 420; n++) {
    const data = new Uint8Array(n).map((_, i) => (i * 131 + n * 7) & 0xff);
    assert.deepEqual(keccak256(data), keccak_256(data), `length ${n}`);
  }
});

test('the Order type string hashes to the published ORDER_TYPEHASH', () => {
  assert.equal(viemKeccak(toHex(ORDER_TYPE_STRING)), ORDER_TYPEHASH);
});

test('the decisions §3 vector digests to 0xeb162c6c…', () => {
  const domain = { chainId: 137, verifyingContract: '0x0000000000000000000000000000000000000001' as Address };
  assert.equal(orderDigestHex(VECTOR_ORDER, domain), '0xeb162c6cc7aa28ad096a7c40fb9556d41fa1730d71103ba7103589ae1f18d942');
});

test('the trading-api §6.3 order digests to 0x24aed465…, with salt as number or string', () => {
  assert.equal(orderDigestHex(VECTOR_6_3_ORDER, VECTOR_6_3_DOMAIN), VECTOR_6_3_DIGEST);
  assert.equal(orderDigestHex({ ...VECTOR_6_3_ORDER, salt: '12345' }, VECTOR_6_3_DOMAIN), VECTOR_6_3_DIGEST);
});

function randomUint(bits: number): bigint {
  let v = 0n;
  const bytes = Math.ceil(bits / 8);
  for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(Math.floor(Math.random() * 256));
  return v & ((1n << BigInt(bits)) - 1n);
}
function randomAddress(): Address {
  const lower = ('0x' + Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')) as Address;
  // Checksummed and lower-case addresses must digest alike (viem only accepts valid checksums).
  return Math.random() < 0.5 ? getAddress(lower) : lower;
}

test('for random orders and domains the fast digest equals viem hashTypedData', () => {
  for (let i = 0; i < 300; i++) {
    const bitsPick = [8, 40, 53, 64, 128, 256];
    const u = () => randomUint(bitsPick[Math.floor(Math.random() * bitsPick.length)]!).toString();
    const order: OrderStruct = {
      salt: Math.random() < 0.5 ? Math.floor(Math.random() * Number.MAX_SAFE_INTEGER) : u(),
      maker: randomAddress(),
      signer: randomAddress(),
      taker: randomAddress(),
      tokenId: u(),
      makerAmount: u(),
      takerAmount: u(),
      expiration: u(),
      nonce: u(),
      feeRateBps: u(),
      side: Math.random() < 0.5 ? 'BUY' : 'SELL',
      signatureType: Math.floor(Math.random() * 3) as 0 | 1 | 2,
    };
    const domain = { chainId: 1 + Math.floor(Math.random() * 100000), verifyingContract: randomAddress() };
    const viemDigest = hashTypedData({ domain: orderDomain(domain), types: ORDER_TYPES, primaryType: 'Order', message: orderTypedMessage(order) });
    assert.equal(orderDigestHex(order, domain), viemDigest);
  }
});

test('a field that is not a uint256 or an address fails with the field named', () => {
  const domain = { chainId: 137, verifyingContract: '0x0000000000000000000000000000000000000001' as Address };
  const bad: Array<[Partial<Record<keyof OrderStruct, unknown>>, string]> = [
    [{ makerAmount: '-1' }, 'makerAmount'],
    [{ makerAmount: '1.5' }, 'makerAmount'],
    [{ takerAmount: '' }, 'takerAmount'],
    [{ tokenId: (1n << 256n).toString() }, 'tokenId'],
    [{ salt: -3 }, 'salt'],
    [{ salt: 1.5 }, 'salt'],
    [{ maker: '0x1234' }, 'maker'],
    [{ taker: '0xzz00000000000000000000000000000000000000' }, 'taker'],
    [{ side: 'buy' }, 'side'],
    [{ signatureType: 300 }, 'signatureType'],
  ];
  for (const [patch, field] of bad) {
    assert.throws(
      () => orderDigestHex({ ...VECTOR_ORDER, ...patch } as OrderStruct, domain),
      (e: unknown) => e instanceof OrderEncodingError && e.field === field,
      field,
    );
  }
});
