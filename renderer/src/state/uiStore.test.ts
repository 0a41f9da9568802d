import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TABS, useUi, withTab } from './uiStore.js';

const reset = (tabs: string[], conditionId: string | null) => useUi.setState({ tabs, conditionId, favourites: [] });

test('selecting a market opens it as a tab once, and the oldest tabs fall off past the maximum', () => {
  assert.deepEqual(withTab(['a', 'b'], 'b'), ['a', 'b']);
  assert.deepEqual(withTab(['a', 'b'], 'c'), ['a', 'b', 'c']);
  const full = Array.from({ length: MAX_TABS }, (_, i) => `m${i}`);
  assert.deepEqual(withTab(full, 'new'), [...full.slice(1), 'new']);
  reset([], null);
  useUi.getState().selectMarket('a');
  useUi.getState().selectMarket('b');
  useUi.getState().selectMarket('a');
  assert.deepEqual(useUi.getState().tabs, ['a', 'b']);
  assert.equal(useUi.getState().conditionId, 'a');
});

test('closing a tab activates its right neighbour, else its left one, and leaves other tabs active as they were', () => {
  const cases: { tabs: string[]; active: string; close: string; tabsAfter: string[]; activeAfter: string | null }[] = [
    { tabs: ['a', 'b', 'c'], active: 'b', close: 'b', tabsAfter: ['a', 'c'], activeAfter: 'c' },
    { tabs: ['a', 'b', 'c'], active: 'c', close: 'c', tabsAfter: ['a', 'b'], activeAfter: 'b' },
    { tabs: ['a', 'b', 'c'], active: 'a', close: 'c', tabsAfter: ['a', 'b'], activeAfter: 'a' },
    { tabs: ['a'], active: 'a', close: 'a', tabsAfter: [], activeAfter: null },
  ];
  for (const c of cases) {
    reset(c.tabs, c.active);
    useUi.getState().closeTab(c.close);
    assert.deepEqual(useUi.getState().tabs, c.tabsAfter, JSON.stringify(c));
    assert.equal(useUi.getState().conditionId, c.activeAfter, JSON.stringify(c));
  }
});

test('cycling tabs wraps around both ways', () => {
  const cases: { active: string | null; delta: number; next: string }[] = [
    { active: 'a', delta: 1, next: 'b' },
    { active: 'c', delta: 1, next: 'a' },
    { active: 'a', delta: -1, next: 'c' },
    { active: 'b', delta: -1, next: 'a' },
  ];
  for (const c of cases) {
    reset(['a', 'b', 'c'], c.active);
    useUi.getState().cycleTab(c.delta);
    assert.equal(useUi.getState().conditionId, c.next, JSON.stringify(c));
  }
});

test('starring toggles a market in and out of the favourites, keeping the order starred', () => {
  reset([], null);
  const { toggleFavourite } = useUi.getState();
  toggleFavourite('x');
  toggleFavourite('y');
  toggleFavourite('z');
  toggleFavourite('y');
  assert.deepEqual(useUi.getState().favourites, ['x', 'z']);
});
