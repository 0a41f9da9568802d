import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COLLATERAL } from './balanceRepo.js';
import { sampleOrderRow, SAMPLE_BIG } from '../testkit/orderRowKit.js';
import { decodeOrderWrites, encodeOrderWrites, type OrderWrite } from './orderWrites.js';
import type { TradeRow } from './tradeRepo.js';

const trade: TradeRow = {
  id: '01J0000000000000000000TRAD',
  matchTime: 1_700_000_000_123,
  conditionId: '0x' + 'ab'.repeat(32),
  takerOrderId: '01J0000000000000000000000A',
  makerOrderId: '01J0000000000000000000000B',
  takerAssetId: '1'.repeat(77),
  makerAssetId: '2'.repeat(77),
  takerOutcomeIndex: 0,
  makerOutcomeIndex: 1,
  takerAddress: '0x' + '11'.repeat(20),
  makerAddress: '0x' + '22'.repeat(20),
  takerOwner: '0x' + '11'.repeat(20),
  makerOwner: '0x' + '22'.repeat(20),
  takerSide: 'BUY',
  makerSide: 'BUY',
  price: 600_000n,
  makerPrice: 400_000n,
  size: SAMPLE_BIG,
  kind: 'MINT',
  takerFeeRateBps: '0',
  makerFeeRateBps: '0',
  fee: 0n,
  makerRebate: 0n,
  transactionHash: '0x' + 'cd'.repeat(32),
};

describe('order writes on the wire to the writer thread', () => {
  it('come back from their JSON form exactly: every kind, bigints beyond 2^53, nulls and group boundaries', () => {
    const groups: OrderWrite[][] = [
      [{ kind: 'order', row: sampleOrderRow('01J0000000000000000000000A', { makerAmount: 2n ** 255n, cancelReason: null }) }],
      [
        { kind: 'trade', row: trade },
        { kind: 'fill', id: '01J0000000000000000000000B', sizeMatched: 2n ** 62n, status: 'partially_filled', reserved: 7n, at: 5 },
        { kind: 'ledger', entry: { time: 9, address: '0xaa', asset: COLLATERAL, delta: -(2n ** 60n), kind: 'trade', reason: 'MINT', conditionId: null, outcomeIndex: 1, side: 'BUY', price: 400_000n, tradeId: trade.id, orderId: 'x', transactionHash: '0x' } },
        { kind: 'cancel', id: '01J0000000000000000000000A', reason: 'cancelled by owner', at: 6 },
      ],
      [],
    ];
    assert.deepEqual(decodeOrderWrites(encodeOrderWrites(groups)), groups);
  });

  it('carry omitted optional ledger fields as null, which the ledger stores as it did undefined', () => {
    const [[w]] = decodeOrderWrites(encodeOrderWrites([[{ kind: 'ledger', entry: { time: 1, address: '0xaa', asset: COLLATERAL, delta: 5n, kind: 'credit' } }]])) as [[OrderWrite]];
    assert.equal(w.kind, 'ledger');
    if (w.kind !== 'ledger') return;
    assert.equal(w.entry.delta, 5n);
    assert.equal(w.entry.reason, null);
    assert.equal(w.entry.price, null);
  });
});
