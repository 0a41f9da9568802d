import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownSizeByLevel, queueByLevel } from './ownOrders.js';

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

test('the queue per level is that of the front-most own order of the selected token, keyed like the own sizes', () => {
  const cases: { entries: Parameters<typeof queueByLevel>[0]; want: Record<string, { ahead: string; levelSize: string }> }[] = [
    { entries: [], want: {} },
    {
      entries: [
        { asset_id: 't1', side: 'BUY', price: '0.40', ahead: '15', level_size: '22' },
        { asset_id: 't1', side: 'BUY', price: '0.4', ahead: '0', level_size: '22' },
        { asset_id: 't1', side: 'SELL', price: '0.6', ahead: '2.5', level_size: '9' },
        { asset_id: 't2', side: 'BUY', price: '0.4', ahead: '1', level_size: '3' },
      ],
      want: { 'BUY:0.4': { ahead: '0', levelSize: '22' }, 'SELL:0.6': { ahead: '2.5', levelSize: '9' } },
    },
    { entries: [{ asset_id: 't1', side: 'BUY', price: 'x', ahead: '1', level_size: '3' }], want: {} },
  ];
  for (const c of cases) assert.deepEqual(Object.fromEntries(queueByLevel(c.entries, 't1')), c.want);
});
