import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OrderHistoryEntry } from '../api/types.js';
import { historyRows } from './orderHistory.js';

const entry = (over: Partial<OrderHistoryEntry>): OrderHistoryEntry =>
  ({
    id: 'O1', status: 'cancelled', market: '0xm', outcome: '0xm:0', assetId: '1', makerAddress: '0xa', owner: '0xa', price: '0.4', side: 'BUY', originalSize: '10', sizeMatched: '0',
    expiration: '0', type: 'GTC', associateTrades: [], createdAt: '2026-11-27T10:00:00.000Z', updatedAt: '2026-11-27T10:00:00.000Z', cancelReason: 'cancelled by owner', ...over,
  }) as OrderHistoryEntry;

const outcome = (_m: string, o: string) => (o.endsWith(':0') ? 'Yes' : 'No');

test('cancelled, expired, filled and rejected orders are one history, newest first, each with its reason', () => {
  const rows = historyRows(
    [
      entry({ id: 'cancelled' }),
      entry({ id: 'expired', cancelReason: 'expired', type: 'GTD', createdAt: '2026-11-27T11:00:00.000Z' }),
      entry({ id: 'filled', status: 'filled', sizeMatched: '10', cancelReason: null, createdAt: '2026-11-27T09:00:00.000Z' }),
      entry({ id: 'part', status: 'partially_filled', sizeMatched: '4', cancelReason: null, createdAt: '2026-11-27T08:00:00.000Z' }),
    ],
    [{ at: Date.parse('2026-11-27T12:00:00.000Z'), market: '0xm', outcome: 'No', side: 'BUY', price: '0.5', size: '50000', type: 'GTC', code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE', reason: 'Not enough balance' }],
    outcome,
  );
  assert.deepEqual(
    rows.map((r) => [r.status, r.reason, r.outcome]),
    [
      ['rejected', 'Not enough balance (INVALID_ORDER_NOT_ENOUGH_BALANCE)', 'No'],
      ['expired', 'expired', 'Yes'],
      ['cancelled', 'cancelled by owner', 'Yes'],
      ['filled', '', 'Yes'],
      ['partially filled', '', 'Yes'],
    ],
  );
});
