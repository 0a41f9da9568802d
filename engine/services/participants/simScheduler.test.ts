import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock, ScaledClock, systemClock } from '../clock.js';
import { SimScheduler, STALL_JOBS } from './simScheduler.js';

describe('the simulation scheduler', () => {
  it('fails fast mode with a clear error when simulated time stops advancing', async () => {
    const clock = new ManualClock(1_000);
    const s = new SimScheduler(clock, clock);
    let runs = 0;
    const again = () => {
      runs++;
      s.at(clock.nowMs(), again);
    };
    s.at(2_000, again);
    await assert.rejects(s.runUntil(10_000), /simulated time stopped advancing/);
    assert.equal(runs, STALL_JOBS + 1);
  });

  it('runs jobs in (time, insertion) order and moves the manual clock to each job in fast mode', async () => {
    const clock = new ManualClock(1_000);
    const s = new SimScheduler(clock, clock);
    const seen: Array<[string, number]> = [];
    s.at(3_000, () => void seen.push(['c', clock.nowMs()]));
    s.at(2_000, () => void seen.push(['a', clock.nowMs()]));
    s.at(2_000, () => {
      seen.push(['b', clock.nowMs()]);
      s.at(2_500, () => void seen.push(['b2', clock.nowMs()]));
    });
    s.at(9_000, () => void seen.push(['late', clock.nowMs()]));
    await s.runUntil(5_000);
    assert.deepEqual(seen, [['a', 2_000], ['b', 2_000], ['b2', 2_500], ['c', 3_000]]);
    assert.equal(clock.nowMs(), 5_000);
    assert.equal(s.pending, 1);
  });

  it('with --speed N, a job due in exchange time runs after 1/N of the wait in wall time', async () => {
    const clock = new ScaledClock(Date.UTC(2030, 0, 1), 1000);
    const s = new SimScheduler(clock);
    const wall0 = Date.now();
    let ranAt: number | undefined;
    s.at(clock.nowMs() + 30_000, () => void (ranAt = Date.now()));
    s.start();
    await sleep(400);
    s.stop();
    assert.ok(ranAt !== undefined, 'thirty exchange seconds pass in 30 wall milliseconds');
    assert.ok(ranAt - wall0 >= 25, `not before its time (${ranAt - wall0} ms)`);
  });

  it('counts the jobs it ran by kind (what an advance reports)', async () => {
    const clock = new ManualClock(0);
    const s = new SimScheduler(clock, clock);
    s.at(1, () => undefined);
    s.at(2, () => undefined, 'scenario');
    s.at(3, () => undefined, 'marker');
    await s.runUntil(10);
    assert.deepEqual(s.ran, { participant: 1, scenario: 1, tape: 0, marker: 1 });
  });

  it('keeps running after a job throws, in real time', async () => {
    const s = new SimScheduler(systemClock);
    const seen: string[] = [];
    const now = systemClock.nowMs();
    s.at(now + 5, () => {
      throw new Error('boom');
    });
    s.at(now + 10, () => void seen.push('after'));
    s.start();
    await sleep(60);
    s.stop();
    assert.deepEqual(seen, ['after']);
  });

  it('after stop, idle() waits for the job already running (timer or advance), and a stuck job holds it only for the timeout', async () => {
    const s = new SimScheduler(systemClock);
    let finish!: () => void;
    let ended = false;
    s.at(systemClock.nowMs(), () => new Promise<void>((resolve) => (finish = resolve)).then(() => void (ended = true)));
    s.start();
    while (!finish) await sleep(1);
    s.stop();
    let idle = false;
    const waiting = s.idle(10_000).then(() => void (idle = true));
    await sleep(30);
    assert.equal(idle, false, 'the running job has not ended yet');
    finish();
    await waiting;
    assert.equal(ended, true);

    const clock = new ManualClock(0);
    const stepped = new SimScheduler(clock, clock);
    stepped.at(1, () => new Promise<void>(() => undefined));
    void stepped.runNext();
    const t0 = performance.now();
    await stepped.idle(50);
    assert.ok(performance.now() - t0 >= 45, 'the stuck job was waited for');
    await new SimScheduler(systemClock).idle(10_000);
  });
});
