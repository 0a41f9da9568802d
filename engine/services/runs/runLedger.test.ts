import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseUnits } from '../../protocol/amounts.js';
import type { TradeRow } from '../../store/tradeRepo.js';
import { fillsOf, RunLedger, type Fill, type Mark } from './runLedger.js';

const u = (text: string): bigint => parseUnits(text)!;
const fill = (account: string, side: 'BUY' | 'SELL', price: string, size: string, fee = '0', tokenId = 'YES'): Fill => ({ account, tokenId, side, price: u(price), size: u(size), fee: u(fee) });
const marks = (m: Record<string, string>): Mark => (t) => (m[t] === undefined ? undefined : u(m[t]!));

describe('the run ledger (report maths)', () => {
  it('matches a hand-computed table: average cost, realised on the part closed, unrealised at the mark, fees, turnover, max drawdown', () => {
    const l = new RunLedger();
    // t0: buy 100 @ 0.40 (fee 0.24)         position 100 @ 0.40, cost 40
    l.apply(fill('0xA', 'BUY', '0.40', '100', '0.24'));
    l.sample(marks({ YES: '0.40' })); // equity = 0 − 0.24 = −0.24 ; peak 0 → drawdown 0.24
    // t1: buy 100 @ 0.50                    position 200 @ 0.45, cost 90
    l.apply(fill('0xA', 'BUY', '0.50', '100'));
    l.sample(marks({ YES: '0.60' })); // unrealised 200×0.60 − 90 = 30 ; equity 29.76 ; peak 29.76
    // t2: sell 150 @ 0.30 (fee 0.315)       realised 150×(0.30 − 0.45) = −22.5 ; position 50 @ 0.45, cost 22.5
    l.apply(fill('0xA', 'SELL', '0.30', '150', '0.315'));
    l.sample(marks({ YES: '0.30' })); // unrealised 50×0.30 − 22.5 = −7.5 ; equity −22.5 − 7.5 − 0.555 = −30.555 ; drawdown 29.76 + 30.555 = 60.315
    // t3: sell 80 @ 0.70: closes 50 (realised 50×0.25 = 12.5), opens a short of 30 @ 0.70
    l.apply(fill('0xA', 'SELL', '0.70', '80'));
    const [a] = l.report(marks({ YES: '0.65' }));
    // realised −22.5 + 12.5 = −10 ; unrealised short 30: −30×0.65 − (−21) = 1.5 ; fees 0.555
    assert.deepEqual(a, {
      account: '0xa',
      pnl: '-9.055',
      realisedPnl: '-10',
      unrealisedPnl: '1.5',
      fees: '0.555',
      trades: 4,
      turnover: '191', // 40 + 50 + 45 + 56
      maxDrawdown: '60.315',
      positions: [{ tokenId: 'YES', size: '-30', averagePrice: '0.7', mark: '0.65' }],
    });
  });

  it('holds a position at cost where nothing marks it, and keeps accounts and tokens apart', () => {
    const l = new RunLedger();
    l.apply(fill('0xB', 'BUY', '0.20', '10', '0', 'NO'));
    l.apply(fill('0xC', 'SELL', '0.20', '10', '0.01', 'YES'));
    const r = l.report(marks({ YES: '0.25' }));
    assert.deepEqual(
      r.map((x) => [x.account, x.realisedPnl, x.unrealisedPnl, x.pnl]),
      [
        ['0xb', '0', '0', '0'],
        ['0xc', '0', '-0.5', '-0.51'],
      ],
    );
    assert.deepEqual(r[0]!.positions, [{ tokenId: 'NO', size: '10', averagePrice: '0.2', mark: null }]);
  });

  it('counts a maker’s rebate against its fees (decisions §10): the taker pays 0.84, the maker earns 0.21', () => {
    const l = new RunLedger();
    const trade = { takerAddress: '0xT', takerAssetId: 'NO', takerSide: 'BUY', price: u('0.30'), makerAddress: '0xM', makerAssetId: 'YES', makerSide: 'BUY', makerPrice: u('0.70'), size: u('100'), fee: u('0.84'), makerRebate: u('0.21') } as TradeRow;
    for (const f of fillsOf(trade)) l.apply(f);
    const r = l.report(marks({ YES: '0.70', NO: '0.30' }));
    assert.deepEqual(
      r.map((x) => [x.account, x.fees, x.pnl]),
      [
        ['0xm', '-0.21', '0.21'],
        ['0xt', '0.84', '-0.84'],
      ],
    );
  });
});
