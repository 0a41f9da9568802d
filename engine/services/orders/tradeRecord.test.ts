import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TradeRow } from '../../store/tradeRepo.js';
import { toTradeRecord } from './tradeRecord.js';

const row: TradeRow = {
  id: '01J00000000000000000000001',
  matchTime: 1_800_000_000_000,
  conditionId: '0x' + 'ab'.repeat(32),
  takerOrderId: 'taker-order',
  makerOrderId: 'maker-order',
  takerAssetId: '1',
  makerAssetId: '1',
  takerOutcomeIndex: 0,
  makerOutcomeIndex: 0,
  takerAddress: '0xtaker',
  makerAddress: '0xmaker',
  takerOwner: '0xtaker',
  makerOwner: '0xmaker',
  takerSide: 'BUY',
  makerSide: 'SELL',
  price: 500_000n,
  makerPrice: 500_000n,
  size: 10_000_000n,
  kind: 'NORMAL',
  takerFeeRateBps: '200',
  makerFeeRateBps: '0',
  fee: 100_000n,
  makerRebate: 0n,
  transactionHash: '0x' + '11'.repeat(32),
};

test("a trade read by its maker shows the maker's fee rate and no fee; read by its taker, the taker's", () => {
  const asMaker = toTradeRecord(row, ['Yes', 'No'], '0xmaker');
  assert.equal(asMaker.trader_side, 'MAKER');
  assert.deepEqual([asMaker.fee_rate_bps, asMaker.fee], ['0', '0']);
  const asTaker = toTradeRecord(row, ['Yes', 'No'], '0xtaker');
  assert.equal(asTaker.trader_side, 'TAKER');
  assert.deepEqual([asTaker.fee_rate_bps, asTaker.fee], ['200', '0.1']);
  assert.equal(asMaker.maker_orders[0]!.fee_rate_bps, '0');
});

test('a self-trade reads as the taker (its fee was paid as taker)', () => {
  const self = toTradeRecord({ ...row, makerOwner: '0xtaker' }, ['Yes', 'No'], '0xtaker');
  assert.deepEqual([self.trader_side, self.fee_rate_bps, self.fee], ['TAKER', '200', '0.1']);
});
