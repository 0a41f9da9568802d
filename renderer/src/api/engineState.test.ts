import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onlineManager } from '@tanstack/react-query';
import { healthAnswered, healthFailed, healthPollMs, useEngineState } from './engineState.js';

test('the health check backs off 2, 4, 8, 8 s while the engine is down and returns to 2 s when it answers', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map((f) => healthPollMs(f)), [2000, 2000, 4000, 8000, 8000, 8000]);
});

test('a failed health check takes the queries offline; the first answer brings them back and counts a comeback', () => {
  const before = useEngineState.getState().comebacks;
  healthFailed();
  healthFailed();
  assert.equal(onlineManager.isOnline(), false);
  assert.equal(useEngineState.getState().failures, 2);
  healthAnswered();
  assert.equal(onlineManager.isOnline(), true);
  assert.deepEqual(useEngineState.getState(), { down: false, failures: 0, comebacks: before + 1 });
  healthAnswered();
  assert.equal(useEngineState.getState().comebacks, before + 1, 'an engine that never went down does not come back');
});
