import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PrivateKeyAccount } from 'viem/accounts';
import { createEngine, type Engine } from '../../engine.js';
import { createL1Headers } from '../../client/createL1Headers.js';
import { createL2Headers } from '../../client/createL2Headers.js';
import { ManualClock } from '../../services/clock.js';
import { FEE_COLLECTOR } from '../../services/fees/takerFee.js';
import type { Market } from '../../services/markets/marketService.js';
import { accounts, signedBody, units } from '../../testkit/orderKit.js';

const [alice, bob] = accounts as [PrivateKeyAccount, PrivateKeyAccount];

/**
 * A market with the public-style schedule {rate 0.04, exponent 1, takerOnly, rebateRate 0.25} (decisions
 * §10), traded over HTTP: each taker pays exactly the hand-computed fee, each maker gets its rebate from
 * the fee account, and collateral is conserved to the micro-unit.
 */
describe('a fee schedule market traded over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fee-schedule-routes-'));
  const clock = new ManualClock(Date.now());
  let engine: Engine;
  let market: Market;
  const creds = new Map<string, { key: string; secret: string; passphrase: string }>();
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  function l2(acct: PrivateKeyAccount, method: 'GET' | 'POST', url: string, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...createL2Headers(creds.get(acct.address)!, acct.address, { method, path: url, body: payload, timestamp: nowSec() }) };
    return engine.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }
  const post = async (acct: PrivateKeyAccount, outcome: 0 | 1, side: 'BUY' | 'SELL', price: string, size: number) => {
    const res = await l2(acct, 'POST', '/order', await signedBody(acct, { market: { ...market, winner: null }, outcome, side, price: units(price), size: units(size), feeRateBps: '400' }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { status: string };
  };
  const balance = (address: string) => engine.ctx.orders.balanceOf(address.toLowerCase(), 'COLLATERAL').balance;

  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false }, { clock });
    const created = await engine.app.inject({
      method: 'POST',
      url: '/admin/markets',
      headers: { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, 'content-type': 'application/json' },
      // The public Gamma form: JSON numbers.
      payload: JSON.stringify({ question: 'Do schedules charge?', tickSize: '0.01', minOrderSize: '5', feeSchedule: { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 } }),
    });
    assert.equal(created.statusCode, 201, created.body);
    market = engine.ctx.markets.byCondition(created.json().condition_id)!;
    for (const a of [alice, bob]) {
      const res = await engine.app.inject({ method: 'POST', url: '/auth/api-key', headers: { ...(await createL1Headers(a, engine.ctx.config.chainId, 0, nowSec())) } });
      creds.set(a.address, res.json());
      await engine.ctx.orders.creditCollateral(a.address, units(1000), 'fee route test');
    }
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a BUY taker and a SELL taker pay the table’s fee, the makers get the rebate, and nothing is created or lost', async () => {
    // What each holds before trading (a new key may come with a paper-account welcome).
    const a0 = balance(alice.address);
    const b0 = balance(bob.address);
    assert.equal((await post(alice, 0, 'BUY', '0.70', 100)).status, 'live');
    // bob BUYs 100 No at 0.30 (a mint): fee 100 × 0.04 × 0.21 = 0.84, alice's rebate 0.25 × 0.84 = 0.21
    assert.equal((await post(bob, 1, 'BUY', '0.30', 100)).status, 'matched');
    assert.equal(balance(bob.address), b0 - units(30) - units('0.84'));
    assert.equal(balance(alice.address), a0 - units(70) + units('0.21'));

    assert.equal((await post(bob, 0, 'BUY', '0.60', 40)).status, 'live');
    // alice SELLs 40 Yes at 0.60: fee 40 × 0.04 × 0.24 = 0.384 out of 24, bob's rebate 0.096
    assert.equal((await post(alice, 0, 'SELL', '0.60', 40)).status, 'matched');
    assert.equal(balance(alice.address), a0 - units(70) + units('0.21') + units(24) - units('0.384'));
    assert.equal(balance(bob.address), b0 - units(30) - units('0.84') - units(24) + units('0.096'));
    assert.equal(balance(FEE_COLLECTOR), units('0.84') - units('0.21') + units('0.384') - units('0.096'));
    // 100 complete sets hold 100 of what the two held
    assert.equal(balance(alice.address) + balance(bob.address) + balance(FEE_COLLECTOR), a0 + b0 - units(100));

    const trades = (await l2(alice, 'GET', '/data/trades')).json() as { data: Array<{ trader_side: string; fee: string; rebate?: string; fee_rate_bps: string }> };
    assert.deepEqual(
      trades.data.map((t) => [t.trader_side, t.fee, t.rebate, t.fee_rate_bps]),
      [
        ['TAKER', '0.384', undefined, '400'],
        ['MAKER', '0', '0.21', '400'],
      ],
    );
  });
});
