import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oversellIssue, presetSize, sellableShares } from './sellable.js';

test('open sell orders commit their unfilled shares: only the rest can be sold', () => {
  const s = sellableShares('Yes', 10, [{ originalSize: '5', sizeMatched: '2' }]);
  assert.deepEqual(s, { outcome: 'Yes', held: '10', reserved: '3', available: '7' });
  assert.equal(sellableShares('Yes', undefined, []).available, '0');
});

test('presets take a share of what is available, rounded down to a cent of a share', () => {
  assert.equal(presetSize('10', 25), '2.5');
  assert.equal(presetSize('7.777777', 50), '3.88');
  assert.equal(presetSize('7.777777', 100), '7.77');
});

test('selling more than you hold says how much you hold and can sell, never "add funds"', () => {
  assert.equal(oversellIssue(sellableShares('Yes', 10, []), '10'), undefined);
  assert.equal(oversellIssue(sellableShares('Yes', 10, []), '15'), 'You hold 10.00 Yes shares: sell at most 10.00.');
  assert.match(oversellIssue(sellableShares('Yes', 10, [{ originalSize: '4', sizeMatched: '0' }]), '8')!, /4\.00 of them in open sell orders: sell at most 6\.00, or cancel a sell order/);
  assert.match(oversellIssue(sellableShares('No', 0, []), '5')!, /^You hold no No shares to sell: buy No first/);
});
