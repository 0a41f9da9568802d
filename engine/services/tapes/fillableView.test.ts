import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_FEE } from '../../protocol/feeSchedule.js';
import type { PublicMarketIdentity } from '../mirror/mirrorTypes.js';
import { fillableAt, type ReplayOrder, type TimedEntry } from './fillableView.js';
import { createMarketDecoder } from '../mirror/marketDecoder.js';

const identity: PublicMarketIdentity = {
  conditionId: '0x' + 'f1'.repeat(32),
  questionId: '0x' + '00'.repeat(32),
  question: 'Latency?',
  description: '',
  slug: 'latency',
  outcomes: ['Yes', 'No'],
  tokenIds: ['1', '2'],
  tickSize: 10_000,
  minOrderSize: 1_000_000,
  negRisk: false,
  negRiskMarketId: '',
  endDate: null,
  feeSchedule: NO_FEE,
  image: '',
  closed: false,
  acceptingOrders: true,
  winner: null,
};
const T = 1_000_000;
const entries: TimedEntry[] = [
  { at: T, entry: { t: T, e: { event_type: 'book', asset_id: '1', bids: [{ price: '0.45', size: '50' }], asks: [{ price: '0.50', size: '40' }], timestamp: String(T) } } },
  { at: T + 100, entry: { t: T + 100, e: { event_type: 'last_trade_price', asset_id: '1', price: '0.45', size: '60', side: 'SELL', timestamp: String(T + 100) } } },
  { at: T + 300, entry: { t: T + 300, e: { event_type: 'price_change', price_changes: [{ asset_id: '1', price: '0.50', size: '0', side: 'SELL' }], timestamp: String(T + 300) } } },
];
const order = (o: Partial<ReplayOrder>): ReplayOrder => ({ id: 'o', account: '0xa', outcomeIndex: 0, side: 'BUY', price: 450_000, size: 20_000_000, orderType: 'GTC', arrivedAt: T + 50, cancelledAt: null, ...o });

describe('the fillable view (the same tape at another latency)', () => {
  it('a bid that joins the queue before a print fills from the print beyond the public size ahead; one that arrives after it does not', () => {
    const bid = order({ id: 'bid' });
    assert.deepEqual(fillableAt(createMarketDecoder(identity), entries, [bid], 0).get('bid'), { filled: 10_000_000, notional: 450_000n * 10_000_000n });
    assert.equal(fillableAt(createMarketDecoder(identity), entries, [bid], 150).get('bid')!.filled, 0);
  });

  it('a taker walks the public asks only while they are there, and a No buy takes the Yes bid at 1 − p', () => {
    const take = order({ id: 'take', price: 500_000, size: 10_000_000, orderType: 'FOK', arrivedAt: T + 200 });
    assert.equal(fillableAt(createMarketDecoder(identity), entries, [take], 0).get('take')!.filled, 10_000_000);
    assert.equal(fillableAt(createMarketDecoder(identity), entries, [take], 150).get('take')!.filled, 0, 'the asks were pulled at +300');
    const no = order({ id: 'no', outcomeIndex: 1, side: 'SELL', price: 550_000, size: 5_000_000, orderType: 'FAK', arrivedAt: T + 10 });
    assert.deepEqual(fillableAt(createMarketDecoder(identity), entries, [no], 0).get('no'), { filled: 0, notional: 0n }, 'selling No at 0.55 is buying Yes at 0.45: it crosses no ask');
    const noBuy = order({ id: 'nb', outcomeIndex: 1, side: 'BUY', price: 550_000, size: 5_000_000, orderType: 'FAK', arrivedAt: T + 10 });
    assert.deepEqual(fillableAt(createMarketDecoder(identity), entries, [noBuy], 0).get('nb'), { filled: 5_000_000, notional: 550_000n * 5_000_000n });
  });

  it('a cancelled order stops resting at its cancel time', () => {
    const bid = order({ id: 'bid', cancelledAt: T + 60 });
    assert.equal(fillableAt(createMarketDecoder(identity), entries, [bid], 0).get('bid')!.filled, 0);
  });
});
