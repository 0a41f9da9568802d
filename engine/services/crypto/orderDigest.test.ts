import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getAddress, hashStruct, hashTypedData, keccak256 as viemKeccak, toHex } from 'viem';
import { ORDER_TYPE_STRING, ORDER_TYPEHASH, ORDER_TYPES, orderDomain, orderTypedMessage, type Address, type OrderStruct } from '../../protocol/eip712.js';
import { bytesToHex, hexToBytes, OrderEncodingError, orderDigest, orderDigestHex, orderStructHash } from './orderDigest.js';
import { VECTOR_6_3_DIGEST, VECTOR_6_3_DOMAIN, VECTOR_6_3_ORDER } from '../../testkit/tradingVectorsKit.js';

const ZERO = '0x0000000000000000000000000000000000000000';

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

function randomBytes(n: number): Uint8Array {
  return new Uint8Array(n).map(() => Math.floor(Math.random() * 256));
}

test('bytesToHex equals viem toHex for 0..200 bytes and hexToBytes reads it back', () => {
  for (let n = 0; n <= 200; n++) {
    const bytes = randomBytes(n);
    const hex = bytesToHex(bytes);
    assert.equal(hex, toHex(bytes), `length ${n}`);
    const back = new Uint8Array(n + 3);
    assert.equal(hexToBytes(hex.toUpperCase().replace('0X', '0x'), back, 3, n), true);
    assert.deepEqual(back.subarray(3), bytes);
  }
  const out = new Uint8Array(20);
  for (const bad of ['0x12', '12' + 'ab'.repeat(19), '0x' + 'g'.repeat(40), '0x' + 'ab'.repeat(19) + 'a ', '0x' + '\u0661'.repeat(40)]) {
    assert.equal(hexToBytes(bad, out, 0, 20), false, bad);
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

const EDGE_UINTS: Array<string | number | bigint> = [
  '0',
  '1',
  0,
  Number.MAX_SAFE_INTEGER,
  String(2 ** 53 - 1),
  String(2 ** 53),
  (2n ** 53n + 1n).toString(),
  '999999999999999',
  '1000000000000000',
  '999999999',
  '1000000000',
  (2n ** 64n - 1n).toString(),
  (2n ** 128n).toString(),
  (2n ** 255n).toString(),
  (2n ** 256n - 1n).toString(),
  (2n ** 256n - 1n - 10n ** 70n).toString(),
  (10n ** 77n).toString(),
  '0'.repeat(77) + '1',
  '0'.repeat(78),
  '0'.repeat(62) + (2n ** 53n).toString(),
  '7'.repeat(77),
  2n ** 256n - 1n,
  0n,
  12345n,
  // every length of the long-decimal path, all-nines (largest chunks) and powers of ten (zero chunks)
  ...Array.from({ length: 62 }, (_, k) => '9'.repeat(16 + k)),
  ...Array.from({ length: 62 }, (_, k) => '1' + '0'.repeat(15 + k)),
];

function mixedCase(addr: Address): string {
  return '0x' + [...addr.slice(2)].map((ch) => (Math.random() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

test('edge values, mixed-case addresses, both sides and every signature type digest as viem does', () => {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const addresses = [ZERO, '0xffffffffffffffffffffffffffffffffffffffff', '0x0000000000000000000000000000000000000001'] as Address[];
  for (let i = 0; i < 400; i++) {
    const field = (): string | number | bigint => pick(EDGE_UINTS);
    const wide = (): string | bigint => {
      const v = pick(EDGE_UINTS);
      return typeof v === 'number' ? String(v) : v;
    };
    const addr = () => (Math.random() < 0.3 ? pick(addresses) : randomAddress()).toLowerCase() as Address;
    const order = {
      salt: field(),
      maker: addr(),
      signer: addr(),
      taker: addr(),
      tokenId: wide(),
      makerAmount: wide(),
      takerAmount: wide(),
      expiration: field(),
      nonce: field(),
      feeRateBps: field(),
      side: pick(['BUY', 'SELL', 0, 1] as const),
      signatureType: pick([0, 1, 2]),
    };
    const domain = { chainId: pick([1, 137, 31337, 80002, Number.MAX_SAFE_INTEGER]), verifyingContract: addr() };
    const message = {
      ...order,
      salt: BigInt(order.salt),
      tokenId: BigInt(order.tokenId),
      makerAmount: BigInt(order.makerAmount),
      takerAmount: BigInt(order.takerAmount),
      expiration: BigInt(order.expiration),
      nonce: BigInt(order.nonce),
      feeRateBps: BigInt(order.feeRateBps),
      side: order.side === 'SELL' || order.side === 1 ? 1 : 0,
    };
    const expected = hashTypedData({ domain: orderDomain(domain), types: ORDER_TYPES, primaryType: 'Order', message });
    // Our encoder reads hex case-insensitively: any mix of cases is the same address.
    const cased = { ...order, maker: mixedCase(order.maker), signer: mixedCase(order.signer), taker: mixedCase(order.taker) };
    const casedDomain = { ...domain, verifyingContract: mixedCase(domain.verifyingContract) as Address };
    assert.equal(orderDigestHex(cased, casedDomain), expected, JSON.stringify(order, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)));
    assert.equal(toHex(orderDigest(order, domain)), expected);
  }
});

test('orderDigest returns fresh bytes and orderStructHash writes at the offset asked', () => {
  const domain = { chainId: 137, verifyingContract: '0x0000000000000000000000000000000000000001' as Address };
  const a = orderDigest(VECTOR_ORDER, domain);
  const b = orderDigest({ ...VECTOR_ORDER, nonce: '3' }, domain);
  assert.notEqual(a, b);
  assert.equal(toHex(a), '0xeb162c6cc7aa28ad096a7c40fb9556d41fa1730d71103ba7103589ae1f18d942');
  const out = new Uint8Array(40);
  orderStructHash(VECTOR_ORDER, out, 8);
  const message = orderTypedMessage(VECTOR_ORDER);
  assert.equal(toHex(out.subarray(8)), hashStruct({ data: message, primaryType: 'Order', types: ORDER_TYPES }));
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
    [{ tokenId: '9'.repeat(78) }, 'tokenId'],
    [{ tokenId: '1'.repeat(79) }, 'tokenId'],
    [{ nonce: '1'.repeat(40) + '.' + '1'.repeat(20) }, 'nonce'],
    [{ expiration: 2 ** 53 }, 'expiration'],
    [{ feeRateBps: -1n }, 'feeRateBps'],
    [{ feeRateBps: 1n << 256n }, 'feeRateBps'],
    [{ salt: null }, 'salt'],
    [{ signer: '0X1111111111111111111111111111111111111111'.replace('X', 'y') }, 'signer'],
    [{ maker: '0x' + '1'.repeat(41) }, 'maker'],
    [{ side: 2 }, 'side'],
  ];
  for (const [patch, field] of bad) {
    assert.throws(
      () => orderDigestHex({ ...VECTOR_ORDER, ...patch } as OrderStruct, domain),
      (e: unknown) => e instanceof OrderEncodingError && e.field === field,
      field,
    );
  }
});

test('a long decimal that is both malformed and too large is reported as malformed, as before', () => {
  const domain = { chainId: 137, verifyingContract: '0x0000000000000000000000000000000000000001' as Address };
  const message = (patch: Partial<Record<keyof OrderStruct, unknown>>) => {
    try {
      orderDigestHex({ ...VECTOR_ORDER, ...patch } as OrderStruct, domain);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };
  assert.equal(message({ tokenId: '9'.repeat(77) + 'x' }), `tokenId must be a decimal uint256 string of digits only (got "${'9'.repeat(77)}x").`);
  assert.equal(message({ tokenId: (1n << 256n).toString() }), 'tokenId is larger than 2^256-1.');
  assert.equal(message({ makerAmount: '' }), 'makerAmount must be a decimal uint256 string (got "").');
  assert.equal(message({ salt: '12a' }), 'salt must be a decimal uint256 string of digits only (got "12a").');
  assert.equal(message({ tokenId: (2n ** 256n - 1n).toString() }), 'no error');
});

test('a remembered token id digests the same as a fresh one, before and after the remembered set is dropped', () => {
  const domain = { chainId: 137, verifyingContract: '0x0000000000000000000000000000000000000001' as Address };
  const viemDigest = (o: OrderStruct) => hashTypedData({ domain: orderDomain(domain), types: ORDER_TYPES, primaryType: 'Order', message: orderTypedMessage(o) });
  const token = (k: number) => (2n ** 255n + BigInt(k) * 7919n).toString();
  const first = { ...VECTOR_ORDER, tokenId: token(0) };
  const expected = viemDigest(first);
  assert.equal(orderDigestHex(first, domain), expected);
  assert.equal(orderDigestHex({ ...first }, domain), expected);
  // A malformed token id is still rejected after a good one was remembered.
  assert.throws(() => orderDigestHex({ ...first, tokenId: token(0) + 'x' }, domain), OrderEncodingError);
  for (let k = 1; k <= 5000; k++) orderDigestHex({ ...VECTOR_ORDER, tokenId: token(k) }, domain);
  assert.equal(orderDigestHex(first, domain), expected);
  const late = { ...VECTOR_ORDER, tokenId: token(4999) };
  assert.equal(orderDigestHex(late, domain), viemDigest(late));
});
