import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candles } from './candles.js';
import { MidHistory } from './midHistory.js';

const u = (x: string) => BigInt(Math.round(Number(x) * 1e6));

test('fills bucket into open, high, low, close and volume, with p the last price as before', () => {
  const prints = [
    { t: 120, price: u('0.40'), size: u('10') },
    { t: 130, price: u('0.45'), size: u('2.5') },
    { t: 150, price: u('0.38'), size: u('1') },
    { t: 170, price: u('0.41'), size: u('4') },
    { t: 300, price: u('0.5'), size: u('7') },
  ];
  assert.deepEqual(candles(prints, 60), [
    { t: 120, p: 0.41, o: 0.4, h: 0.45, l: 0.38, c: 0.41, v: 17.5 },
    { t: 300, p: 0.5, o: 0.5, h: 0.5, l: 0.5, c: 0.5, v: 7 },
  ]);
  assert.deepEqual(candles([], 60), []);
});

test('each bucket carries the mid last quoted before its close, rounded as GET /midpoint rounds, and none where the book was one-sided', () => {
  const mids = new MidHistory();
  mids.record('c', 100, Number(u('0.37') + u('0.40'))); // mid 0.385 on outcome 0, 0.615 on outcome 1
  mids.record('c', 110, Number(u('0.37') + u('0.39'))); // same minute: the later quote wins → 0.38
  mids.record('c', 200, undefined); // one-sided from minute 180
  mids.record('c', 400, Number(u('0.5') + u('0.52')));
  const prints = [
    { t: 100, price: u('0.4'), size: u('1') },
    { t: 190, price: u('0.4'), size: u('1') },
    { t: 410, price: u('0.5'), size: u('1') },
  ];
  const at = (o: 0 | 1) => candles(prints, 60, (end) => mids.midBefore('c', o, end)).map((c) => c.m);
  assert.deepEqual(at(0), [0.38, undefined, 0.51]);
  assert.deepEqual(at(1), [0.62, undefined, 0.49]);
  assert.equal(mids.midBefore('c', 0, 60), undefined, 'nothing quoted before the first record');
  assert.equal(mids.midBefore('other', 0, 1000), undefined);
  // Half a micro rounds up, as the midpoint does.
  mids.record('d', 0, 3);
  assert.equal(mids.midBefore('d', 0, 60), 2n);
});
