import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isOpen, replayPositions, type ShareMovement } from './positionLedger.js';

const ASSET = '101';
const shares = (n: number) => BigInt(Math.round(n * 1e6));
const move = (side: 'BUY' | 'SELL', size: number, price: number, timeMs = 1000, kind: ShareMovement['kind'] = 'trade'): ShareMovement => ({
  asset: ASSET,
  conditionId: '0xc',
  outcomeIndex: 0,
  side,
  size: shares(size),
  price: shares(price),
  timeMs,
  kind,
});

describe('average-cost position ledger', () => {
  it('reproduces the worked example: bought 150 at 0.42, sold 50 at 0.55 realizes 6.5', () => {
    const p = replayPositions([move('BUY', 150, 0.42), move('SELL', 50, 0.55)]).get(ASSET)!;
    assert.equal(p.amount, shares(100));
    assert.equal(p.avgPrice, shares(0.42));
    assert.equal(p.totalBought, shares(150));
    assert.equal(p.realizedPico, 6_500_000n * 1_000_000n);
    assert.equal(p.costPico, shares(100) * shares(0.42));
  });

  it('averages the entry price over buys and counts totalBought in shares', () => {
    const p = replayPositions([move('BUY', 10, 0.4), move('BUY', 30, 0.6)]).get(ASSET)!;
    assert.equal(p.avgPrice, shares(0.55));
    assert.equal(p.totalBought, shares(40));
  });

  it('keeps the average price unchanged by a partial sell and realizes against it', () => {
    const p = replayPositions([move('BUY', 10, 0.4), move('BUY', 30, 0.6), move('SELL', 20, 0.5)]).get(ASSET)!;
    assert.equal(p.avgPrice, shares(0.55));
    assert.equal(p.amount, shares(20));
    assert.equal(p.realizedPico, -shares(1) * 1_000_000n); // 20 × (0.50 − 0.55)
  });

  it('earns nothing on shares sold beyond what the ledger saw come in', () => {
    const p = replayPositions([move('BUY', 5, 0.5), move('SELL', 8, 0.7)]).get(ASSET)!;
    assert.equal(p.amount, 0n);
    assert.equal(p.realizedPico, shares(5) * shares(0.2));
  });

  it('redeems a winner at 1 and a loser at 0, closing the position at the redemption time', () => {
    const win = replayPositions([move('BUY', 100, 0.42), move('SELL', 100, 1, 5000, 'redeem')]).get(ASSET)!;
    assert.equal(win.realizedPico, shares(58) * 1_000_000n);
    assert.equal(win.closedAtMs, 5000);
    assert.equal(isOpen(win), false);
    const lose = replayPositions([move('BUY', 100, 0.42), move('SELL', 100, 0, 6000, 'redeem')]).get(ASSET)!;
    assert.equal(lose.realizedPico, -shares(42) * 1_000_000n);
  });

  it('treats a remainder of at most 0.01 shares as closed, and a new buy as reopening', () => {
    const ledger = replayPositions([move('BUY', 10, 0.5, 1000), move('SELL', 9.995, 0.6, 2000)]);
    const p = ledger.get(ASSET)!;
    assert.equal(isOpen(p), false);
    assert.equal(p.closedAtMs, 2000);
    ledger.apply(move('BUY', 3, 0.5, 3000));
    assert.equal(isOpen(p), true);
    assert.equal(p.closedAtMs, undefined);
  });

  it('does not drift over many small fills: cost is exact', () => {
    const moves: ShareMovement[] = [];
    for (let i = 0; i < 1000; i++) moves.push(move('BUY', 0.333333, 0.33));
    const p = replayPositions(moves).get(ASSET)!;
    assert.equal(p.costPico, 1000n * shares(0.333333) * shares(0.33));
    assert.equal(p.avgPrice, shares(0.33));
  });
});
