import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashTypedData, recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ORDER_TYPES, orderDomain, orderTypedMessage } from '../protocol/eip712.js';
import { buildMarketOrder, buildOrder } from './buildOrder.js';
import { signOrder } from './signOrder.js';

const account = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const CTX = {
  chainId: 137,
  exchange: '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E',
  negRiskExchange: '0xC5d563A36AE78145C45a50134d48A1215220f80a',
  negRisk: false,
} as const;

test('BUY 10 @ 0.52 builds and signs to the trading-api §6.3 digest and signature', async () => {
  const order = buildOrder({ tokenId: TOKEN, price: 0.52, size: 10, side: 'BUY', tickSize: '0.01', signer: account.address, salt: 12345 });
  assert.equal(order.makerAmount, '5200000');
  assert.equal(order.takerAmount, '10000000');
  assert.equal(order.maker, account.address);
  assert.equal(order.taker, '0x0000000000000000000000000000000000000000');
  assert.equal(order.expiration, '0');
  const digest = hashTypedData({ domain: orderDomain({ chainId: 137, verifyingContract: CTX.exchange }), types: ORDER_TYPES, primaryType: 'Order', message: orderTypedMessage(order) });
  assert.equal(digest, '0x24aed465e78a205d68396b89765b6e3f9a80305e47e65d2bcab6c2aba627fe7c');
  const signed = await signOrder(account, order, CTX);
  assert.equal(
    signed.signature,
    '0x14891d8f33e0cd79da2e0d623d6f0a7b2ea9babf045d42defa47ea2191dd483e2837e90f585cf0698fad39680063124f593553d6041de4f9879567d68f658e201c',
  );
});

test('neg-risk orders are signed against the neg-risk exchange', async () => {
  const order = buildOrder({ tokenId: TOKEN, price: '0.3', size: '5', side: 'SELL', tickSize: '0.1', signer: account.address, conditionId: '0x' + 'ab'.repeat(32) });
  const signed = await signOrder(account, order, { ...CTX, negRisk: true });
  assert.equal(signed.conditionId, '0x' + 'ab'.repeat(32));
  const recovered = await recoverTypedDataAddress({
    domain: orderDomain({ chainId: 137, verifyingContract: CTX.negRiskExchange }),
    types: ORDER_TYPES,
    primaryType: 'Order',
    message: orderTypedMessage(signed),
    signature: signed.signature,
  });
  assert.equal(recovered, account.address);
});

test('market orders never expire and random salts are JSON-safe integers', () => {
  const o = buildMarketOrder({ tokenId: TOKEN, amount: 25, price: 0.53, side: 'BUY', tickSize: '0.01', signer: account.address });
  assert.equal(o.expiration, '0');
  assert.equal(o.makerAmount, '25000000');
  assert.equal(o.takerAmount, '47169800');
  assert.ok(Number.isSafeInteger(o.salt) && (o.salt as number) >= 0);
});
