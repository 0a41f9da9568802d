import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError, limitOrderAmounts } from './clientAdapter.js';
import { describeError, isMissingRoute } from './describeError.js';
import { tapeView } from '../panels/TapePanel.js';

// Known outputs of the public clients' limit-order math (trading-api.md §8), ×10^6.
test('limit BUY 0.52 × 10 at tick 0.01 gives maker 5.2 collateral and taker 10 shares', () => {
  assert.deepEqual(limitOrderAmounts({ side: 'BUY', price: '0.52', size: '10', tickSize: '0.01' }), { makerAmount: '5200000', takerAmount: '10000000' });
});

test('limit SELL 0.57 × 12.345 rounds the size down to 12.34 shares for 7.0338 collateral', () => {
  assert.deepEqual(limitOrderAmounts({ side: 'SELL', price: '0.57', size: '12.345', tickSize: '0.01' }), { makerAmount: '12340000', takerAmount: '7033800' });
});

test('limit BUY 0.56 × 21.3333 gives maker 11.9448 and taker 21.33', () => {
  assert.deepEqual(limitOrderAmounts({ side: 'BUY', price: '0.56', size: '21.3333', tickSize: '0.01' }), { makerAmount: '11944800', takerAmount: '21330000' });
});

test('server errors are shown with status, code and message', () => {
  const e = new HttpError({ status: 401, body: { error: 'api_key_revoked', message: 'SERVICE_API_KEY has been revoked.' }, method: 'GET', url: '/x' });
  assert.deepEqual(describeError(e), { status: 401, code: 'api_key_revoked', message: 'SERVICE_API_KEY has been revoked.' });
  assert.equal(isMissingRoute(new HttpError({ status: 404, body: { error: 'not_found', message: 'No route' }, method: 'GET', url: '/x' })), true);
  assert.equal(isMissingRoute(new HttpError({ status: 404, body: { error: 'order_not_found', message: 'x' }, method: 'GET', url: '/x' })), false);
});

test('local failures become client errors with their message', () => {
  assert.deepEqual(describeError(new Error('Select a wallet')), { code: 'client_error', message: 'Select a wallet' });
});

test('the tape shows a fill whose taker traded the other outcome at the complementary price', () => {
  const base = { id: 't', market: '0x', size: '10', status: 'CONFIRMED', match_time: '1', outcome: 'No' };
  assert.deepEqual(tapeView({ ...base, asset_id: 'NO', side: 'BUY', price: '0.6' }, 'YES'), { price: '0.4', side: 'SELL' });
  assert.deepEqual(tapeView({ ...base, asset_id: 'YES', side: 'BUY', price: '0.4' }, 'YES'), { price: '0.4', side: 'BUY' });
});

test('an order is signed with its market’s taker base fee (a fee-charging market refuses less)', async () => {
  const { privateKeyToAccount } = await import('viem/accounts');
  const { createTraderApi } = await import('./clientAdapter.js');
  const posted: { order: { feeRateBps: string } }[] = [];
  const realFetch = globalThis.fetch;
  const config = { chainId: 31337, rpcUrl: null, contracts: { exchange: '0x00000000000000000000000000000000000000e1', negRiskExchange: '0x00000000000000000000000000000000000000e2' } };
  globalThis.fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    if (path === '/config') return new Response(JSON.stringify(config), { status: 200 });
    if (path === '/time') return new Response(String(Math.floor(Date.now() / 1000)), { status: 200 });
    if (path === '/order' && init?.body) posted.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify({ success: true, orderID: '0x1', status: 'live' }), { status: 200 });
  }) as typeof fetch;
  try {
    const account = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
    const creds = { key: '6a6a1d9e-1c1e-4c2b-9b4a-2d7f0f1b7f10', secret: 'tVeZMd8pFtb8CWJhcjGQ4D1ul-ZgjQaFhF4wBTRTXA0=', passphrase: 'a'.repeat(64) };
    const trader = createTraderApi({ account, config: config as never, creds }, { trading: 'http://x.test', data: 'http://x.test/data-api', relayer: 'http://x.test/relayer' } as never);
    const market = { condition_id: `0x${'1'.repeat(64)}`, minimum_tick_size: 0.01, neg_risk: false, taker_base_fee: 500 };
    await trader.placeOrder({ market: market as never, tokenId: '123', side: 'BUY', price: '0.4', size: '10', orderType: 'GTC' });
    assert.equal(posted[0]!.order.feeRateBps, '500');
  } finally {
    globalThis.fetch = realFetch;
  }
});
