import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getContractAddress } from 'viem';
import {
  DEPLOYMENT_ORDER,
  exchangeAddresses,
  LOCAL_EXCHANGE_ADDRESS,
  LOCAL_EXCHANGE_V2_ADDRESS,
  LOCAL_NEG_RISK_EXCHANGE_ADDRESS,
  LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS,
  localSigningAddress,
  POLYGON_EXCHANGE_ADDRESS,
  POLYGON_EXCHANGE_V2_ADDRESS,
  POLYGON_NEG_RISK_EXCHANGE_ADDRESS,
  POLYGON_NEG_RISK_EXCHANGE_V2_ADDRESS,
  predictContractAddresses,
} from './contractAddresses.js';

const OPERATOR = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('contract address prediction', () => {
  it('places each contract at CREATE(operator, its index in the fixed deployment order)', () => {
    const predicted = predictContractAddresses(OPERATOR);
    assert.deepEqual(Object.keys(predicted), [...DEPLOYMENT_ORDER]);
    DEPLOYMENT_ORDER.forEach((name, nonce) => {
      assert.equal(predicted[name], getContractAddress({ from: OPERATOR, nonce: BigInt(nonce) }));
    });
    // Where anvil put them for this operator (receipts of a real deployment).
    assert.equal(predicted.collateral, '0x8464135c8F25Da09e49BC8782676a84730C318bC');
    assert.equal(predicted.proxyFactory, '0x05Aa229Aec102f78CE0E852A812a388F076Aa555');
    assert.equal(new Set(Object.values(predicted)).size, DEPLOYMENT_ORDER.length);
  });

  it('keeps the collateral first and the CTF second so market ids never move', () => {
    assert.equal(DEPLOYMENT_ORDER[0], 'collateral');
    assert.equal(DEPLOYMENT_ORDER[1], 'conditionalTokens');
  });

  it('derives the local order-signing addresses from their labels', () => {
    assert.equal(localSigningAddress('sandbox-exchange:exchange'), LOCAL_EXCHANGE_ADDRESS);
    assert.equal(localSigningAddress('sandbox-exchange:neg-risk-exchange'), LOCAL_NEG_RISK_EXCHANGE_ADDRESS);
    assert.equal(localSigningAddress('sandbox-exchange:exchange-v2'), LOCAL_EXCHANGE_V2_ADDRESS);
    assert.equal(localSigningAddress('sandbox-exchange:neg-risk-exchange-v2'), LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS);
  });

  it('signs against the public Polygon exchanges only in the polymarket profile', () => {
    assert.deepEqual(exchangeAddresses('default'), {
      exchange: LOCAL_EXCHANGE_ADDRESS,
      negRiskExchange: LOCAL_NEG_RISK_EXCHANGE_ADDRESS,
      exchangeV2: LOCAL_EXCHANGE_V2_ADDRESS,
      negRiskExchangeV2: LOCAL_NEG_RISK_EXCHANGE_V2_ADDRESS,
    });
    assert.deepEqual(exchangeAddresses('polymarket'), {
      exchange: POLYGON_EXCHANGE_ADDRESS,
      negRiskExchange: POLYGON_NEG_RISK_EXCHANGE_ADDRESS,
      exchangeV2: POLYGON_EXCHANGE_V2_ADDRESS,
      negRiskExchangeV2: POLYGON_NEG_RISK_EXCHANGE_V2_ADDRESS,
    });
  });
});
