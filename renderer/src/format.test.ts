import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseUnitsToDisplay, fixedDecimals, percentOf, tickDecimals, toMicros } from './format.js';

test('tick decimals follow the tick size text', () => {
  assert.equal(tickDecimals('0.01'), 2);
  assert.equal(tickDecimals('0.001'), 3);
  assert.equal(tickDecimals(0.1), 1);
  assert.equal(tickDecimals('1'), 0);
});

test('fixed decimals round half-up on micro-units without floats', () => {
  assert.equal(fixedDecimals('0.5', 2), '0.50');
  assert.equal(fixedDecimals('0.125', 2), '0.13');
  assert.equal(fixedDecimals('2151131.59', 2), '2,151,131.59');
  assert.equal(fixedDecimals('-3.5', 1), '-3.5');
  assert.equal(fixedDecimals(undefined, 2), '—');
  assert.equal(fixedDecimals('abc', 2), 'abc');
});

test('decimal strings and JSON numbers become micro-units', () => {
  assert.equal(toMicros('12.5'), 12_500_000n);
  assert.equal(toMicros(0.42), 420_000n);
  assert.equal(toMicros('-1'), -1_000_000n);
  assert.equal(toMicros('1e5'), undefined);
});

test('6-dp integer balances show as collateral units', () => {
  assert.equal(baseUnitsToDisplay('10000000000'), '10,000.00');
  assert.equal(baseUnitsToDisplay('1500000'), '1.50');
});

test('bar widths are bounded percentages', () => {
  assert.equal(percentOf(1n, 4n), 25);
  assert.equal(percentOf(5n, 0n), 0);
});
