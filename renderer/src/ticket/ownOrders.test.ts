import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownSizeByLevel } from './ownOrders.js';

test('own orders are summed per side and level of the selected token, net of what filled', () => {
  const m = ownSizeByLevel(
    [
      { assetId: 't1', side: 'BUY', price: '0.40', originalSize: '10', sizeMatched: '4' },
      { assetId: 't1', side: 'BUY', price: '0.4', originalSize: '5', sizeMatched: '0' },
      { assetId: 't1', side: 'SELL', price: '0.6', originalSize: '3', sizeMatched: '0' },
      { assetId: 't2', side: 'BUY', price: '0.4', originalSize: '7', sizeMatched: '0' },
    ],
    't1',
  );
  assert.equal(m.get('BUY:0.4'), '11');
  assert.equal(m.get('SELL:0.6'), '3');
  assert.equal(m.size, 2);
});
