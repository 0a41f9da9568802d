import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timelineOf, wizardSteps } from './wizardSteps.js';

const tx = (type: string, state: string, createdAt = '2026-01-01T00:00:00Z', transactionID = `${type}-${state}`) => ({ type, state, createdAt, transactionID });

test('a timeline marks every state up to the current one as reached', () => {
  assert.deepEqual(timelineOf('STATE_MINED').map((e) => [e.state, e.reached, e.current]), [
    ['STATE_NEW', true, false],
    ['STATE_EXECUTED', true, false],
    ['STATE_MINED', true, true],
    ['STATE_CONFIRMED', false, false],
  ]);
  assert.ok(timelineOf(undefined).every((e) => !e.reached));
});

test('a failed transaction ends its timeline in the failure state', () => {
  assert.deepEqual(timelineOf('STATE_FAILED').map((e) => e.state), ['STATE_NEW', 'STATE_FAILED']);
});

test('before anything: deploy is ready and approve waits for it', () => {
  assert.deepEqual(wizardSteps(false, []).map((s) => s.status), ['ready', 'waiting']);
  assert.deepEqual(wizardSteps(undefined, []).map((s) => s.status), ['waiting', 'waiting']);
});

test('a deploy in flight runs; once the Safe is deployed the approval is ready, then runs and completes', () => {
  assert.deepEqual(wizardSteps(false, [tx('SAFE-CREATE', 'STATE_EXECUTED')]).map((s) => s.status), ['running', 'waiting']);
  assert.deepEqual(wizardSteps(true, [tx('SAFE-CREATE', 'STATE_CONFIRMED')]).map((s) => s.status), ['done', 'ready']);
  const steps = wizardSteps(true, [tx('SAFE-CREATE', 'STATE_CONFIRMED'), tx('SAFE', 'STATE_NEW')]);
  assert.deepEqual(steps.map((s) => s.status), ['done', 'running']);
  assert.equal(steps[1]!.timeline.find((e) => e.current)?.state, 'STATE_NEW');
  assert.deepEqual(wizardSteps(true, [tx('SAFE-CREATE', 'STATE_CONFIRMED'), tx('SAFE', 'STATE_CONFIRMED')]).map((s) => s.status), ['done', 'done']);
});

test('the newest transaction of a step counts: a retry after a failure runs again', () => {
  const steps = wizardSteps(true, [tx('SAFE', 'STATE_FAILED', '2026-01-01T00:00:00Z'), tx('SAFE', 'STATE_EXECUTED', '2026-01-01T00:01:00Z')]);
  assert.equal(steps[1]!.status, 'running');
  assert.equal(wizardSteps(true, [tx('SAFE', 'STATE_FAILED')])[1]!.status, 'failed');
  // A Safe deployed before (no transaction in this list) counts as done.
  assert.equal(wizardSteps(true, [])[0]!.status, 'done');
});
