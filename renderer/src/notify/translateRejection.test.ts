import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortenIds, translateRejection } from './translateRejection.js';

test('a balance rejection says what to do and shows no full token id or address', () => {
  const token = '7'.repeat(78);
  const addr = '0x' + 'ab'.repeat(20);
  const t = translateRejection('INVALID_ORDER_NOT_ENOUGH_BALANCE', `not enough balance / allowance: token ${token} of ${addr}`);
  assert.equal(t.title, 'Not enough balance');
  assert.match(t.action, /Lower the size/);
  assert.ok(!t.detail.includes(token));
  assert.ok(!t.detail.includes(addr));
  assert.match(t.detail, /777777…7777/);
  assert.match(t.detail, /0xabab…abab/);
});

test('tick, minimum size, expiry and pause rejections each name their fix', () => {
  assert.match(translateRejection('INVALID_ORDER_MIN_TICK_SIZE', '').action, /tick/);
  assert.match(translateRejection('INVALID_ORDER_MIN_SIZE', '').action, /minimum/);
  assert.match(translateRejection('INVALID_ORDER_EXPIRATION', '').action, /expiry/);
  assert.match(translateRejection('condition_paused', '').action, /paused/);
  assert.match(translateRejection('system_paused', '').action, /paused/);
});

test('a declined wallet signature loses viem’s details and version line', () => {
  const t = translateRejection('client_error', 'User rejected the request.\n\nDetails: denied\nVersion: viem@2.57.20');
  assert.equal(t.code, 'user_rejected');
  assert.ok(!t.detail.includes('viem@'));
  assert.equal(t.detail, 'User rejected the request.');
});

test('an unknown code keeps the shortened server message as the action', () => {
  const t = translateRejection('SOMETHING_NEW', 'odd failure');
  assert.equal(t.title, 'Order rejected');
  assert.equal(t.action, 'odd failure');
});

test('short numbers and ids are left alone', () => {
  assert.equal(shortenIds('size 50000 at 0.5'), 'size 50000 at 0.5');
});

test('a stale mirror refusal says to wait for the live badge or rest a non-crossing limit order', () => {
  const t = translateRejection('market_stale', 'This mirrored market has not heard from its public upstream lately');
  assert.equal(t.title, 'Mirror is stale');
  assert.match(t.action, /MIRRORED badge.*live.*limit order/);
});
