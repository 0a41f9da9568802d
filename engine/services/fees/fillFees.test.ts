import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeeSchedule, type FeeSchedule } from '../../protocol/feeSchedule.js';
import { units } from '../../testkit/orderKit.js';
import { fillFees } from './fillFees.js';

const sched = (rate: string, rebateRate: string): FeeSchedule => {
  const s = parseFeeSchedule({ rate, rebateRate });
  if ('problem' in s) throw new Error(s.problem);
  return s;
};

describe('the fee and rebate of one fill', () => {
  const s = sched('0.04', '0.25');
  const fill = { takerPrice: units('0.3'), size: units(100), takerCollateral: units(30) };

  it('charges the taker the schedule’s fee and pays the maker its rebate share', () => {
    assert.deepEqual(fillFees(s, { ...fill, takerSide: 'BUY' }), { fee: units('0.84'), rebate: units('0.21') });
  });

  it('never takes more from a SELL taker than the fill pays it', () => {
    // rate 1 at 0.5 on 0.00002 shares: exact fee 0.000005 rounds up to 0.00001, the fill pays 0.00001 too
    const steep = sched('1', '1');
    const tiny = { takerPrice: units('0.5'), size: 20n, takerCollateral: 10n };
    assert.deepEqual(fillFees(steep, { ...tiny, takerSide: 'SELL' }), { fee: 10n, rebate: 10n });
    assert.deepEqual(fillFees(steep, { ...tiny, takerCollateral: 7n, takerSide: 'SELL' }), { fee: 7n, rebate: 7n }, 'the rebate never exceeds the fee it comes out of');
  });

  it('charges no fee to the public market taking a local maker, whose rebate the fee account still pays; the public market earns none', () => {
    assert.deepEqual(fillFees(s, { ...fill, takerSide: 'SELL', publicTaker: true }), { fee: 0n, rebate: units('0.21') });
    assert.deepEqual(fillFees(s, { ...fill, takerSide: 'BUY', publicMaker: true }), { fee: units('0.84'), rebate: 0n });
  });
});
