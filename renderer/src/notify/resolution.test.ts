import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newlyResolved, positionOutcome, winningOutcome } from './resolution.js';

const p = (over: Partial<Parameters<typeof newlyResolved>[1][number]> = {}) => ({ conditionId: '0xm', outcome: 'No', oppositeOutcome: 'Yes', size: 10, curPrice: 0, redeemable: true, title: 'Will it rain?', ...over });

test('a resolved position won if it pays out, lost if it pays nothing; an open one neither', () => {
  assert.equal(positionOutcome(p()), 'lost');
  assert.equal(positionOutcome(p({ curPrice: 1 })), 'won');
  assert.equal(positionOutcome(p({ redeemable: false, curPrice: 0.4 })), undefined);
  assert.equal(winningOutcome(p()), 'Yes');
  assert.equal(winningOutcome(p({ curPrice: 1 })), 'No');
});

test('a holder is told once per newly resolved market, winners with what to redeem', () => {
  assert.deepEqual(newlyResolved(new Set(), [p()]), [{ conditionId: '0xm', winner: 'Yes', text: 'Will it rain?: your 10.00 No shares lost.' }]);
  assert.deepEqual(newlyResolved(new Set(), [p({ outcome: 'Yes', oppositeOutcome: 'No', curPrice: 1 })]), [
    { conditionId: '0xm', winner: 'Yes', text: 'Will it rain?: your 10.00 Yes shares won: redeem 10.00 USDC in Positions.' },
  ]);
  assert.deepEqual(newlyResolved(new Set(['0xm']), [p()]), []);
  assert.deepEqual(newlyResolved(new Set(), [p({ redeemable: false })]), []);
});
