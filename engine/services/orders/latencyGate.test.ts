import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock, SteppedClock } from '../clock.js';
import { LatencyGate } from './latencyGate.js';

test('on a stepped clock work waits for one alarm at the earliest deadline and runs in deadline order, arrival order at equal deadlines', async () => {
  const clock = new SteppedClock(1_000);
  const gate = new LatencyGate(clock);
  const ran: string[] = [];
  const job = (name: string) => async () => {
    ran.push(`${name}@${clock.nowMs()}`);
    return name;
  };
  const results = [gate.run(1_200, job('c')), gate.run(1_100, job('a')), gate.run(1_100, job('b'))];
  assert.equal(clock.nextAlarm()?.at, 1_100);
  clock.set(1_100);
  await clock.nextAlarm()!.fire();
  assert.deepEqual(ran, ['a@1100', 'b@1100']);
  assert.equal(clock.nextAlarm()?.at, 1_200);
  clock.set(1_200);
  await clock.nextAlarm()!.fire();
  assert.deepEqual(ran, ['a@1100', 'b@1100', 'c@1200']);
  assert.equal(clock.nextAlarm(), undefined);
  assert.deepEqual(await Promise.all(results), ['c', 'a', 'b']);
});

test('work already due runs at once, and a failing job rejects its own caller only', async () => {
  const clock = new SteppedClock(1_000);
  const gate = new LatencyGate(clock);
  assert.equal(await gate.run(1_000, async () => 'now'), 'now');
  const bad = gate.run(1_050, async () => {
    throw new Error('refused');
  });
  const good = gate.run(1_050, async () => 'fine');
  clock.set(1_050);
  await clock.nextAlarm()!.fire();
  await assert.rejects(bad, /refused/);
  assert.equal(await good, 'fine');
});

test('on other clocks the wait is a timer of the exchange-time distance', async () => {
  const gate = new LatencyGate(new ManualClock(0));
  const t0 = performance.now();
  assert.equal(await gate.run(40, async () => 'late'), 'late');
  assert.ok(performance.now() - t0 >= 35);
});
