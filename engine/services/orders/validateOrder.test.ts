import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exchangeAddresses, POLYGON_NEG_RISK_EXCHANGE_ADDRESS } from '../../protocol/contractAddresses.js';
import { privateKeyToAccount } from 'viem/accounts';
import type { PostOrderBody, SignedOrderV2 } from '../../protocol/eip712.js';
import { orderV2Digest } from '../crypto/orderDigestV2.js';
import { ORDER_V2_TYPES } from '../../testkit/orderKit.js';
import type { TradableMarket } from './liveOrder.js';
import { bytesToHex } from '../crypto/orderDigest.js';
import { isRejection, signingDigestOf, validateOrder, type ValidationDeps } from './validateOrder.js';

// trading-api.md §6.3: the full request known-answer vector (public body shape, compatibility profile).
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const VECTOR_BODY: PostOrderBody = JSON.parse(
  '{"deferExec":false,"order":{"salt":12345,"maker":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","signer":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23","taker":"0x0000000000000000000000000000000000000000","tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","makerAmount":"5200000","takerAmount":"10000000","side":"BUY","expiration":"0","nonce":"0","feeRateBps":"0","signatureType":0,"signature":"0x14891d8f33e0cd79da2e0d623d6f0a7b2ea9babf045d42defa47ea2191dd483e2837e90f585cf0698fad39680063124f593553d6041de4f9879567d68f658e201c"},"owner":"6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10","orderType":"GTC","postOnly":false}',
);
const IDENTITY = { address: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23', apiKey: '6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10' };

const market: TradableMarket = {
  conditionId: '0x' + 'cd'.repeat(32),
  tokenIds: [TOKEN, '1'],
  outcomes: ['Yes', 'No'],
  tickSize: 10_000n,
  minOrderSize: 5_000_000n,
  negRisk: false,
  winner: null,
};

const deps = (over: Partial<ValidationDeps> = {}): ValidationDeps => ({
  nowMs: 1_718_000_000_000,
  chainId: 137,
  contracts: exchangeAddresses('polymarket'),
  byToken: (t) => (t === TOKEN ? { market, outcomeIndex: 0 } : t === '1' ? { market, outcomeIndex: 1 } : undefined),
  walletOf: () => undefined,
  conditionIdOptional: true,
  ...over,
});

describe('validateOrder', () => {
  it('signingDigestOf gives the digest validateOrder checks, and a precomputed signature check is used as given', () => {
    const digest = signingDigestOf(VECTOR_BODY, deps());
    assert.ok(digest);
    assert.equal(bytesToHex(digest), '0x24aed465e78a205d68396b89765b6e3f9a80305e47e65d2bcab6c2aba627fe7c');
    const ok = validateOrder(IDENTITY, VECTOR_BODY, deps({ signatureCheck: { digest, recovered: IDENTITY.address as `0x${string}` } }));
    assert.ok(!isRejection(ok));
    const other = '0x' + '11'.repeat(20);
    const bad = validateOrder(IDENTITY, VECTOR_BODY, deps({ signatureCheck: { digest, recovered: other as `0x${string}` } }));
    assert.ok(isRejection(bad));
    assert.match(bad.message, new RegExp(`recovers ${other}, not the signer`));
  });

  it('signingDigestOf is undefined for an unknown token, leaving the rejection to validateOrder', () => {
    const body = { ...VECTOR_BODY, order: { ...VECTOR_BODY.order, tokenId: '999' } };
    assert.equal(signingDigestOf(body, deps()), undefined);
  });

  it('accepts the public known-answer order and derives its digest, price and size', () => {
    const v = validateOrder(IDENTITY, VECTOR_BODY, deps());
    assert.ok(!isRejection(v), isRejection(v) ? v.message : '');
    assert.equal(v.digest, '0x24aed465e78a205d68396b89765b6e3f9a80305e47e65d2bcab6c2aba627fe7c');
    assert.equal(v.price, 520_000n);
    assert.equal(v.size, 10_000_000n);
    assert.equal(v.salt, '12345');
    assert.equal(v.maker, IDENTITY.address);
  });

  it('refuses an order on a closed market (a mirror closed upstream or stopped) and says it takes no new orders', () => {
    const v = validateOrder(IDENTITY, VECTOR_BODY, deps({ byToken: () => ({ market: { ...market, closed: true }, outcomeIndex: 0 }) }));
    assert.ok(isRejection(v));
    assert.equal(v.code, 'INVALID_ORDER_ERROR');
    assert.match(v.message, /is closed and takes no new orders/);
  });

  it('names the neg-risk domain when a neg-risk market gets a plain-exchange signature', () => {
    const v = validateOrder(IDENTITY, VECTOR_BODY, deps({ byToken: () => ({ market: { ...market, negRisk: true }, outcomeIndex: 0 }) }));
    assert.ok(isRejection(v));
    assert.equal(v.code, 'INVALID_ORDER_ERROR');
    assert.match(v.message, new RegExp(`neg-risk exchange ${POLYGON_NEG_RISK_EXCHANGE_ADDRESS} on chain 137`));
    assert.match(v.message, /not the signer 0x2c7536e3605d9c16a7a3d7b1898e529396a65c23/);
  });

  it('requires conditionId in the default profile and names the one to send', () => {
    const v = validateOrder(IDENTITY, VECTOR_BODY, deps({ conditionIdOptional: false }));
    assert.ok(isRejection(v));
    assert.match(v.message, new RegExp(`conditionId is required: send ${market.conditionId}`));
  });

  it('rounds a market SELL’s off-tick implied price up to the tick and a market BUY’s down', () => {
    // Amounts are checked before the signature, so the tick outcome shows in which rule fails next.
    const sell = structuredClone(VECTOR_BODY);
    Object.assign(sell.order, { side: 'SELL', makerAmount: '25500000', takerAmount: '14280001' });
    sell.orderType = 'FAK';
    const s = validateOrder(IDENTITY, sell, deps());
    assert.ok(isRejection(s));
    assert.notEqual(s.code, 'INVALID_ORDER_MIN_TICK_SIZE', 'a FAK may have an off-tick implied price');
    sell.orderType = 'GTC';
    const g = validateOrder(IDENTITY, sell, deps());
    assert.ok(isRejection(g));
    assert.equal(g.code, 'INVALID_ORDER_MIN_TICK_SIZE', 'a resting order may not');
    const nearOne = structuredClone(VECTOR_BODY);
    Object.assign(nearOne.order, { makerAmount: '9999999', takerAmount: '10000000' });
    nearOne.orderType = 'FOK';
    const n = validateOrder(IDENTITY, nearOne, deps());
    assert.ok(isRejection(n));
    assert.notEqual(n.code, 'INVALID_ORDER_MIN_TICK_SIZE', '0.9999999 rounds down to 0.99, inside the window');
  });

  describe('V2 orders', () => {
    const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const safe = '0x' + 'a5'.repeat(20);
    const proxy = '0x' + 'b7'.repeat(20);
    const v2deps = (over: Partial<ValidationDeps> = {}) =>
      deps({ walletOf: (type, signer) => (signer === owner.address.toLowerCase() ? (type === 2 ? safe : proxy) : undefined), ...over });
    const ZERO32 = `0x${'0'.repeat(64)}` as const;

    async function v2Body(signatureType: 0 | 1 | 2, maker: string): Promise<PostOrderBody> {
      const struct = { salt: 777, maker, signer: owner.address, tokenId: TOKEN, makerAmount: '5200000', takerAmount: '10000000', side: 'BUY', signatureType, timestamp: '1718000000000', metadata: ZERO32, builder: ZERO32 } as const;
      const signature = await owner.signTypedData({
        domain: { name: 'Polymarket CTF Exchange', version: '2', chainId: 137, verifyingContract: exchangeAddresses('polymarket').exchangeV2 },
        types: ORDER_V2_TYPES,
        primaryType: 'Order',
        message: { ...struct, maker: maker as `0x${string}`, salt: 777n, tokenId: BigInt(TOKEN), makerAmount: 5_200_000n, takerAmount: 10_000_000n, side: 0, timestamp: 1_718_000_000_000n },
      });
      return { order: { ...struct, maker: maker as `0x${string}`, expiration: '0', signature }, owner: IDENTITY.apiKey, orderType: 'GTC' };
    }
    const ownerIdentity = { address: owner.address.toLowerCase(), apiKey: IDENTITY.apiKey };

    it('accepts EOA, POLY_PROXY and POLY_GNOSIS_SAFE V2 orders with the maker V1 would need; the digest is the V2 digest and the fee rate the market’s', async () => {
      for (const [type, maker] of [[0, owner.address], [1, proxy], [2, safe]] as const) {
        const body = await v2Body(type, maker);
        const v = validateOrder(ownerIdentity, body, v2deps({ byToken: () => ({ market: { ...market, feeRateBps: 30 } as TradableMarket, outcomeIndex: 0 }) }));
        assert.ok(!isRejection(v), isRejection(v) ? v.message : '');
        assert.equal(v.orderVersion, 2);
        assert.equal(v.digest, orderV2Digest({ ...(body.order as SignedOrderV2), tokenId: TOKEN }, 137, exchangeAddresses('polymarket').exchangeV2));
        assert.equal(v.feeRateBps, '30');
        assert.equal(v.nonce, '0');
        assert.equal(v.maker, maker.toLowerCase());
      }
    });

    it('refuses a Safe V2 order whose maker is not the signer’s Safe, and a non-zero unsigned taker', async () => {
      const wrongMaker = validateOrder(ownerIdentity, await v2Body(2, proxy), v2deps());
      assert.ok(isRejection(wrongMaker));
      assert.match(wrongMaker.message, new RegExp(`maker must be the signer's Safe ${safe}`));
      const withTaker = await v2Body(0, owner.address);
      (withTaker.order as { taker?: string }).taker = '0x' + '01'.repeat(20);
      const t = validateOrder(ownerIdentity, withTaker, v2deps());
      assert.ok(isRejection(t));
      assert.match(t.message, /taker must be the zero address .* or absent \(V2 orders sign no taker\)/);
    });

    it('signingDigestOf gives the V2 digest for a V2 order, so batched recovery checks the same thing', async () => {
      const body = await v2Body(0, owner.address);
      assert.equal(bytesToHex(signingDigestOf(body, v2deps())!), orderV2Digest({ ...(body.order as SignedOrderV2), tokenId: TOKEN }, 137, exchangeAddresses('polymarket').exchangeV2));
    });
  });
});
