import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.js';
import type { OrderIdentity } from '../orders/orderService.js';
import { HEARTBEAT_TIMEOUT_MS, HeartbeatService, type HeartbeatDeps } from './heartbeatService.js';

const ALICE = { address: '0x00000000000000000000000000000000000000a1', apiKey: 'key-a' } as const;
const BOB = { address: '0x00000000000000000000000000000000000000b2', apiKey: 'key-b' } as const;

/** The service only needs the clock and the order service's cancel-all; this records the calls. */
function harness(cancelAll: (who: OrderIdentity) => Promise<{ canceled: string[]; not_canceled: Record<string, string> }> = async () => ({ canceled: ['01ORDER'], not_canceled: {} })) {
  const clock = new ManualClock(1_900_000_000_000);
  const calls: OrderIdentity[] = [];
  const ctx = {
    clock,
    orders: {
      cancelAll: async (who: OrderIdentity) => {
        calls.push(who);
        return cancelAll(who);
      },
    },
  } as unknown as HeartbeatDeps;
  return { clock, calls, ctx };
}

async function until(cond: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('HeartbeatService', () => {
  it('uses the public 10 s window by default', () => {
    assert.equal(HEARTBEAT_TIMEOUT_MS, 10_000);
  });

  it('the armed timer fires the switch by itself once the clock passes the deadline, for the silent key only', async () => {
    const { clock, calls, ctx } = harness();
    const svc = new HeartbeatService(ctx, 40);
    try {
      await svc.beat(ALICE, null);
      const bob = await svc.beat(BOB, null);
      clock.advance(30);
      await svc.beat(BOB, bob.heartbeat_id);
      clock.advance(11); // alice silent 41 ms (> 40), bob 11 ms
      await until(() => calls.length > 0);
      assert.deepEqual(calls, [{ address: ALICE.address, apiKey: ALICE.apiKey }]);
      assert.equal(svc.size, 1);
    } finally {
      await svc.stop();
    }
  });

  it('stop() clears the timer: nothing fires after shutdown', async () => {
    const { clock, calls, ctx } = harness();
    const svc = new HeartbeatService(ctx, 20);
    await svc.beat(ALICE, null);
    await svc.stop();
    clock.advance(1_000);
    await sleep(80);
    assert.deepEqual(calls, []);
  });

  it('stop() waits for a cancel-all already under way', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { clock, ctx } = harness(async () => {
      await gate;
      return { canceled: [], not_canceled: {} };
    });
    const svc = new HeartbeatService(ctx, 10);
    await svc.beat(ALICE, null);
    clock.advance(11);
    const sweeping = svc.sweep();
    let stopped = false;
    const stopping = svc.stop().then(() => (stopped = true));
    await sleep(20);
    assert.equal(stopped, false);
    release();
    await stopping;
    assert.equal((await sweeping).length, 1);
  });

  it('a failed cancel-all keeps the switch armed and retries a second later', async () => {
    let failures = 1;
    const { clock, calls, ctx } = harness(async () => {
      if (failures-- > 0) throw new Error('disk full');
      return { canceled: ['01A'], not_canceled: {} };
    });
    const svc = new HeartbeatService(ctx, 10_000);
    try {
      await svc.beat(ALICE, null);
      clock.advance(10_001);
      assert.deepEqual(await svc.sweep(), []);
      assert.equal(svc.size, 1, 'still armed: the orders still rest');
      clock.advance(1_000);
      assert.deepEqual(await svc.sweep(), []);
      clock.advance(1);
      const fired = await svc.sweep();
      assert.equal(fired.length, 1);
      assert.deepEqual(fired[0]!.canceled, ['01A']);
      assert.equal(calls.length, 2);
    } finally {
      await svc.stop();
    }
  });

  it('a new session id is issued after the switch fired, and the dead id is refused naming the expiry', async () => {
    const { clock, ctx } = harness();
    const svc = new HeartbeatService(ctx, 10_000);
    try {
      const first = await svc.beat(ALICE, null);
      clock.advance(10_001);
      await assert.rejects(svc.beat(ALICE, first.heartbeat_id), (e: Error & { code?: string }) => e.code === 'invalid_heartbeat_id' && /expired at .* 1 resting order/.test(e.message));
      const second = await svc.beat(ALICE, null);
      assert.notEqual(second.heartbeat_id, first.heartbeat_id);
    } finally {
      await svc.stop();
    }
  });
});
