import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayPnl, portfolioFigures } from './portfolio.js';

test('portfolio value is cash plus positions at mark; total PnL adds unrealised and every realised exit', () => {
  const f = portfolioFigures('9996000000', [{ currentValue: 4.5, cashPnl: 0.5, realizedPnl: 0.25 }], [{ realizedPnl: 6 }, { realizedPnl: -1.1 }]);
  assert.deepEqual(f, { cash: '9996', positionsValue: '4.5', value: '10000.5', unrealised: '0.5', realised: '5.15', totalPnl: '5.65' });
});

test('float noise from the data API does not leak into the sums', () => {
  const f = portfolioFigures('0', [{ currentValue: 0.1, cashPnl: 0.2, realizedPnl: 0 }, { currentValue: 0.2, cashPnl: 0.1, realizedPnl: 0 }], []);
  assert.equal(f.positionsValue, '0.3');
  assert.equal(f.unrealised, '0.3');
});

test('day PnL is measured from the first total PnL seen today, and a new day starts afresh', () => {
  const t0 = Date.UTC(2026, 10, 27, 9, 0);
  const first = dayPnl('2', undefined, t0);
  assert.deepEqual(first, { pnl: '0', mark: { day: '2026-11-27', totalPnl: '2', at: t0 } });
  assert.equal(dayPnl('8', first.mark, t0 + 3600_000).pnl, '6');
  assert.equal(dayPnl('-1', first.mark, t0 + 3600_000).pnl, '-3');
  const tomorrow = dayPnl('8', first.mark, Date.UTC(2026, 10, 28, 0, 5));
  assert.equal(tomorrow.pnl, '0');
  assert.equal(tomorrow.mark.day, '2026-11-28');
});
