import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RANGES, RANGE_ORDER, buildCandles, seriesChange } from './chartSeries.js';

const NOW = 1_700_000_040; // a minute boundary (1_700_000_040 = 28_333_334 × 60)

test('every range button maps to an interval the prices-history route accepts', () => {
  assert.deepEqual(RANGE_ORDER, ['1H', '6H', '1D', '1W', '1M', 'ALL']);
  for (const r of RANGE_ORDER) assert.ok(['1h', '6h', '1d', '1w', '1m', 'max'].includes(RANGES[r].interval));
  assert.equal(RANGES.ALL.seconds, undefined);
});

test('history buckets become candles with their volume and mid; the tape rebuilds the bucket it overlaps and adds newer ones', () => {
  const s = buildCandles(
    [
      { t: NOW - 120, p: 0.41, o: 0.4, h: 0.43, l: 0.39, c: 0.41, v: 30, m: 0.405 },
      { t: NOW - 60, p: 0.45, o: 0.45, h: 0.45, l: 0.45, c: 0.45, v: 5, m: 0.44 },
    ],
    [
      { match_time: String(NOW - 30), price: '0.45', size: '5' },
      { match_time: String(NOW - 10), price: '0.47', size: '2' },
      { match_time: String(NOW + 5), price: '0.5', size: '1.5' },
    ],
    '1H',
    NOW + 5,
  );
  assert.deepEqual(s, [
    { time: NOW - 120, open: 0.4, high: 0.43, low: 0.39, close: 0.41, volume: 30, mid: 0.405 },
    // Rebuilt from the tape (no double-counted volume), the history's closing mid kept.
    { time: NOW - 60, open: 0.45, high: 0.47, low: 0.45, close: 0.47, volume: 7, mid: 0.44 },
    { time: NOW, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 1.5 },
  ]);
  assert.deepEqual(seriesChange(s), { last: 0.5, change: 0.5 - 0.41 });
  assert.deepEqual(seriesChange(s, 'mid'), { last: 0.44, change: 0.44 - 0.405 });
});

test('an engine that sends only {t, p} still charts: each bucket is a flat candle', () => {
  const s = buildCandles([{ t: NOW - 60, p: 0.3 }], [], '1H', NOW);
  assert.deepEqual(s, [{ time: NOW - 60, open: 0.3, high: 0.3, low: 0.3, close: 0.3, volume: 0 }]);
});

test('trades outside the range window are left out; nothing gives no candles', () => {
  assert.deepEqual(buildCandles([], [{ match_time: String(NOW - 7200), price: '0.5', size: '1' }], '1H', NOW), []);
  assert.equal(seriesChange([]), undefined);
});

test('a tape fetched before the last trades of a bucket does not shrink it: the history holding more of that bucket wins', () => {
  // History (fetched after three fills) has the whole minute; the tape (fetched after two) only part of it.
  const s = buildCandles(
    [{ t: NOW - 60, p: 0.42, o: 0.4, h: 0.45, l: 0.4, c: 0.42, v: 30, m: 0.45 }],
    [
      { match_time: String(NOW - 50), price: '0.4', size: '10' },
      { match_time: String(NOW - 40), price: '0.45', size: '5' },
    ],
    '1H',
    NOW,
  );
  assert.deepEqual(s, [{ time: NOW - 60, open: 0.4, high: 0.45, low: 0.4, close: 0.42, volume: 30, mid: 0.45 }]);
});

test('trades of one second keep their order: the tape lists them newest first, so the candle opens on the oldest and closes on the newest', () => {
  const s = buildCandles(
    [],
    [
      { match_time: String(NOW + 1), price: '0.42', size: '15' },
      { match_time: String(NOW + 1), price: '0.45', size: '5' },
      { match_time: String(NOW + 1), price: '0.4', size: '10' },
    ],
    '1H',
    NOW + 1,
  );
  assert.deepEqual(s, [{ time: NOW, open: 0.4, high: 0.45, low: 0.4, close: 0.42, volume: 30 }]);
});
