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

test('prices show as decimals or as cents, at the tick', async () => {
  const { priceText } = await import('./format.js');
  assert.equal(priceText('0.38', 2, 'decimal'), '0.38');
  assert.equal(priceText('0.38', 2, 'cents'), '38¢');
  assert.equal(priceText('0.617', 3, 'cents'), '61.7¢');
  assert.equal(priceText('0.3', 1, 'cents'), '30¢');
  assert.equal(priceText(undefined, 2, 'cents'), '—');
});

test('the chain is named in plain words, its id only when unknown', async () => {
  const { chainName } = await import('./format.js');
  assert.equal(chainName(31337, 'http://127.0.0.1:8545'), 'local test chain');
  assert.equal(chainName(31337, null), 'no chain (paper trading only)');
  assert.equal(chainName(137, 'x'), 'Polygon');
  assert.equal(chainName(5, 'x'), 'chain 5');
});
