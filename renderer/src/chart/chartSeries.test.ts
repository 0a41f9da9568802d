import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RANGES, RANGE_ORDER, buildSeries, seriesChange } from './chartSeries.js';

const NOW = 1_700_000_000;

test('every range button maps to an interval the prices-history route accepts', () => {
  assert.deepEqual(RANGE_ORDER, ['1H', '6H', '1D', '1W', '1M', 'ALL']);
  for (const r of RANGE_ORDER) assert.ok(['1h', '6h', '1d', '1w', '1m', 'max'].includes(RANGES[r].interval));
  assert.equal(RANGES.ALL.seconds, undefined);
});

test('history buckets before the tape come first, then the tape\'s trades in time order', () => {
  const s = buildSeries(
    [
      { t: NOW - 120, p: 0.4 },
      { t: NOW - 60, p: 0.45 },
    ],
    [
      { match_time: String(NOW - 5), price: '0.52' },
      { match_time: String(NOW - 30), price: '0.5' },
    ],
    '1H',
    NOW,
  );
  // The NOW-60 bucket overlaps the tape (it starts 30 s before the oldest trade): the trades replace it.
  assert.deepEqual(s, [
    { time: NOW - 120, value: 0.4 },
    { time: NOW - 30, value: 0.5 },
    { time: NOW - 5, value: 0.52 },
  ]);
});

test('an hour bucket stamped at its start never draws its last price ahead of the trades that made it', () => {
  const hour = NOW - (NOW % 3600);
  const s = buildSeries([{ t: hour, p: 0.45 }], [
    { match_time: String(hour + 620), price: '0.45' },
    { match_time: String(hour + 616), price: '0.4' },
  ], 'ALL', hour + 700);
  assert.deepEqual(s, [
    { time: hour + 616, value: 0.4 },
    { time: hour + 620, value: 0.45 },
  ]);
});

test('with no trades on the tape the history alone is drawn', () => {
  assert.deepEqual(buildSeries([{ t: NOW - 60, p: 0.3 }], [], '1H', NOW), [{ time: NOW - 60, value: 0.3 }]);
});

test('two trades in the same second keep the newest one (the tape lists newest first)', () => {
  const s = buildSeries([], [
    { match_time: String(NOW), price: '0.61' },
    { match_time: String(NOW), price: '0.6' },
  ], '1H', NOW);
  assert.deepEqual(s, [{ time: NOW, value: 0.6 }]);
});

test('trades outside the range window and malformed rows are left out', () => {
  const s = buildSeries([], [
    { match_time: String(NOW - 7200), price: '0.3' },
    { match_time: 'soon', price: '0.3' },
    { match_time: String(NOW - 10), price: 'x' },
    { match_time: String(NOW - 10), price: '0.7' },
  ], '1H', NOW);
  assert.deepEqual(s, [{ time: NOW - 10, value: 0.7 }]);
  assert.equal(buildSeries([], [{ match_time: String(NOW - 7200), price: '0.3' }], 'ALL', NOW).length, 1);
});

test('the header change is last minus first, and nothing for an empty series', () => {
  assert.equal(seriesChange([]), undefined);
  const c = seriesChange([{ time: 1, value: 0.4 }, { time: 2, value: 0.55 }])!;
  assert.equal(c.last, 0.55);
  assert.ok(Math.abs(c.change - 0.15) < 1e-9);
});
