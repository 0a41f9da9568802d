import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Position, TradeRecord } from '../api/types.js';
import { activityCsv, csvCell, positionsCsv, toCsv, tradesCsv } from './csv.js';
import type { Activity } from '../../../engine/client/index.js';
import { explainFill } from './fillExplainer.js';
import { myFill } from './myFill.js';

const ME = '0x' + 'aa'.repeat(20);
const OTHER = '0x' + 'bb'.repeat(20);

function trade(over: Partial<TradeRecord> = {}): TradeRecord {
  return {
    id: 'T1', taker_order_id: 'O-taker', market: '0xm', asset_id: '1', side: 'BUY', size: '10', fee_rate_bps: '0', price: '0.6', status: 'CONFIRMED',
    match_time: '1700000000', last_update: '1700000000', outcome: 'No', outcome_index: 1, bucket_index: 0, owner: 'k', maker_address: ME,
    transaction_hash: '0x' + '11'.repeat(32), trader_side: 'TAKER', type: 'MINT',
    maker_orders: [{ order_id: 'O-maker', owner: 'k2', maker_address: OTHER, matched_amount: '10', price: '0.4', fee_rate_bps: '0', asset_id: '0', outcome: 'Yes', outcome_index: 0, side: 'BUY' }],
    ...over,
  } as TradeRecord;
}

test('a CSV cell with a comma, quote or line break is quoted with inner quotes doubled', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(false), 'false');
});

test('a cell a spreadsheet would run as a formula is defused, a negative number is not', () => {
  assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvCell('@cmd'), "'@cmd");
  assert.equal(csvCell(-1.25), '-1.25');
  assert.equal(csvCell('-0.5'), '-0.5');
});

test('rows end with CRLF and the header comes first', () => {
  assert.equal(toCsv(['a', 'b'], [[1, 'x'], [2, null]]), 'a,b\r\n1,x\r\n2,\r\n');
});

test('positions export every figure the account view shows, one row per position', () => {
  const p = { title: 'Will it, or not?', outcome: 'Yes', asset: '123', size: 10, avgPrice: 0.4, curPrice: 0.5, currentValue: 5, cashPnl: 1, realizedPnl: 0, redeemable: false } as Position;
  const lines = positionsCsv([p]).trimEnd().split('\r\n');
  assert.equal(lines[0], 'market,outcome,asset,size,avg_price,mark,value,unrealized_pnl,realized_pnl,redeemable');
  assert.equal(lines[1], '"Will it, or not?",Yes,123,10,0.4,0.5,5,1,0,false');
});

test('trades export the role and the matched maker orders', () => {
  const lines = tradesCsv([trade()], ME, () => 'Will it, or not?').trimEnd().split('\r\n');
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^T1,2023-11-14T22:13:20\.000Z,"Will it, or not\?",0xm,No,BUY,0\.6,10,TAKER,0,O-maker:10@0\.4,0x1111/);
});

test('a maker fill is shown and exported with the maker’s own side, not the taker’s (issue 23, item 2)', () => {
  // B's No BUY @ 0.63 lifted my resting Yes BUY @ 0.37: my row says Yes BUY 0.37.
  const t = trade({
    trader_side: 'MAKER',
    price: '0.63',
    maker_orders: [
      { order_id: 'theirs', owner: 'k3', maker_address: OTHER, matched_amount: '2', price: '0.37', fee_rate_bps: '0', asset_id: '0', outcome: 'Yes', outcome_index: 0, side: 'BUY' },
      { order_id: 'mine', owner: 'k', maker_address: ME, matched_amount: '8', price: '0.37', fee_rate_bps: '0', asset_id: '0', outcome: 'Yes', outcome_index: 0, side: 'BUY' },
    ],
  });
  assert.deepEqual(myFill(t, ME), { role: 'MAKER', side: 'BUY', outcome: 'Yes', price: '0.37', size: '8' });
  assert.match(tradesCsv([t], ME, () => 'Q').trimEnd().split('\r\n')[1]!, /^T1,[^,]+,Q,0xm,Yes,BUY,0\.37,8,MAKER,/);
});

test('two of my resting orders hit by one taker add up at their size-weighted price', () => {
  const leg = (id: string, size: string, price: string) => ({ order_id: id, owner: 'k', maker_address: ME, matched_amount: size, price, fee_rate_bps: '0', asset_id: '0', outcome: 'Yes', outcome_index: 0, side: 'SELL' });
  const t = trade({ trader_side: 'MAKER', maker_orders: [leg('a', '10', '0.5'), leg('b', '30', '0.6')] as TradeRecord['maker_orders'] });
  assert.deepEqual(myFill(t, ME), { role: 'MAKER', side: 'SELL', outcome: 'Yes', price: '0.575', size: '40' });
});

test('a taker fill names the resting orders it took and the fee', () => {
  const e = explainFill(trade(), ME);
  assert.equal(e.role, 'taker');
  assert.equal(e.legs.length, 1);
  assert.equal(e.legs[0]!.mine, false);
  assert.equal(e.fee, '0');
  assert.match(e.summary, /took 1 resting order: 10 @ 0\.4 Yes \(a mint/);
});

test('a maker fill names only the caller’s own resting orders and the fee and rebate the exchange recorded', () => {
  const t = trade({
    trader_side: 'MAKER',
    type: 'NORMAL',
    fee_rate_bps: '100',
    fee: '0',
    rebate: '0.015',
    maker_orders: [
      { order_id: 'mine', owner: 'k', maker_address: ME.toUpperCase().replace('0X', '0x'), matched_amount: '4', price: '0.6', fee_rate_bps: '0', asset_id: '1', outcome: 'No', outcome_index: 1, side: 'SELL' },
      { order_id: 'theirs', owner: 'k3', maker_address: OTHER, matched_amount: '6', price: '0.6', fee_rate_bps: '0', asset_id: '1', outcome: 'No', outcome_index: 1, side: 'SELL' },
    ],
  });
  const e = explainFill(t, ME);
  assert.equal(e.role, 'maker');
  assert.deepEqual(e.legs.map((l) => l.mine), [true, false]);
  assert.match(e.summary, /hit your resting order: 4 @ 0\.6 No\. Fee 0 USDC, rebate 0\.015 USDC\./);
  assert.equal(e.fee, '0');
  assert.equal(e.rebate, '0.015');
  // a taker's fee is the one charged, not recomputed from the signed rate
  assert.equal(explainFill(trade({ fee_rate_bps: '1000', fee: '0.06' }), ME).fee, '0.06');
});

test('activity exports one row per movement with the market named', () => {
  const a = { timestamp: 1700000000, type: 'REDEEM', title: 'Will it, or not?', outcome: 'Yes', side: '', size: 10, price: 0, usdcSize: 10, transactionHash: '0xab' } as unknown as Activity;
  const lines = activityCsv([a]).trimEnd().split('\r\n');
  assert.equal(lines[0], 'time_utc,type,market,outcome,side,shares,price,usdc,transaction_hash');
  assert.equal(lines[1], '2023-11-14T22:13:20.000Z,REDEEM,"Will it, or not?",Yes,,10,0,10,0xab');
});
