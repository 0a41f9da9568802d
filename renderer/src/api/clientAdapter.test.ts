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
