import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemPaused } from './SystemPauseBanner.js';

const m = (accepting_orders: boolean, paused = false, closed = false) => ({ accepting_orders, paused, closed });

test('the global breaker is every open market refusing orders with none paused on its own', () => {
  assert.equal(systemPaused([m(false), m(false), m(true, false, true)]), true);
  assert.equal(systemPaused([m(false), m(true)]), false, 'one market still trades');
  assert.equal(systemPaused([m(false, true), m(true)]), false, 'one market paused on its own');
  assert.equal(systemPaused([m(false, true), m(false, true)]), false, 'each market paused on its own');
  assert.equal(systemPaused([]), false);
  assert.equal(systemPaused(undefined), false);
});
