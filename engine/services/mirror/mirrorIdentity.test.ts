import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identityOfRow } from './mirrorIdentity.js';

const STORED = {
  conditionId: '0x' + 'ab'.repeat(32),
  questionId: '0x' + 'cd'.repeat(32),
  question: 'Q?',
  description: '',
  slug: 'q',
  outcomes: ['Yes', 'No'],
  tokenIds: ['1', '2'],
  tickSize: 10_000,
  minOrderSize: 5_000_000,
  negRisk: false,
  negRiskMarketId: '',
  endDate: null,
  feeSchedule: { rate: '0.04', exponent: 1, takerOnly: true, rebateRate: '0' },
  image: '',
  closed: false,
  acceptingOrders: true,
  winner: null,
};

test('identityOfRow reads back the stored public identity with its fee schedule as bigints', () => {
  const id = identityOfRow({ mirrorIdentity: JSON.stringify(STORED) });
  assert.ok(id);
  assert.equal(id.conditionId, STORED.conditionId);
  assert.deepEqual(id.tokenIds, ['1', '2']);
  assert.deepEqual(id.feeSchedule, { rate: 40_000n, exponent: 1, takerOnly: true, rebateRate: 0n });
  assert.equal(id.winner, null);
});

test('identityOfRow gives undefined for a local market, broken JSON or a missing token pair', () => {
  assert.equal(identityOfRow({ mirrorIdentity: null }), undefined);
  assert.equal(identityOfRow({ mirrorIdentity: '{' }), undefined);
  assert.equal(identityOfRow({ mirrorIdentity: JSON.stringify({ ...STORED, tokenIds: ['1'] }) }), undefined);
  assert.equal(identityOfRow({ mirrorIdentity: JSON.stringify({ ...STORED, feeSchedule: { rate: -1 } }) }), undefined);
});
