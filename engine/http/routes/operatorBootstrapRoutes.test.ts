import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BOOTSTRAP_TTL_MS } from '../../services/operatorAccess/operatorBootstrap.js';
import { ManualClock } from '../../services/clock.js';
import { createEngine, type Engine } from '../../engine.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('handing the operator token to the terminal without a command line', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bootstrap-'));
  const clock = new ManualClock(Date.UTC(2026, 10, 25));
  let engine: Engine;
  const redeem = (code: unknown) =>
    engine.app.inject({ method: 'POST', url: '/admin/bootstrap', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ code }) });

  before(async () => {
    engine = await createEngine({ dataDir, chain: 'none', port: 0, seedDemo: false, simulation: false }, { clock });
  });
  after(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a one-time code is traded once for the operator token, and is dead afterwards', async () => {
    const code = engine.ctx.operatorBootstrap.issue();
    const first = await redeem(code);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json(), { operatorToken: engine.ctx.secrets.operatorToken });
    const again = await redeem(code);
    assert.equal(again.statusCode, 401);
    assert.equal(again.json().error, 'invalid_bootstrap_code');
  });

  it('a code older than a minute is refused', async () => {
    const code = engine.ctx.operatorBootstrap.issue();
    clock.advance(BOOTSTRAP_TTL_MS);
    const r = await redeem(code);
    assert.equal(r.statusCode, 401);
    assert.match(r.json().message, /older than a minute/);
  });

  it('a made-up code is refused, and a code that is not a string is a 400', async () => {
    assert.equal((await redeem('not-a-code')).statusCode, 401);
    assert.equal((await redeem({ code: 'x' })).statusCode, 400);
  });
});

describe('the operator token rotates at every start unless pinned', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rotate-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('two starts of one data directory give two tokens; a pinned token is kept', async () => {
    const tokens: string[] = [];
    for (const pinned of [undefined, undefined, 'pinned-operator-token-0123456789']) {
      const e = await createEngine({ dataDir, chain: 'none', port: 0, seedDemo: false, simulation: false, ...(pinned ? { operatorToken: pinned } : {}) });
      const ready = await e.listen();
      tokens.push(ready.operatorToken);
      const res = await fetch(`${ready.trading}/admin/sim`, { headers: { authorization: `Bearer ${ready.operatorToken}` } });
      assert.equal(res.status, 200, 'the token of this start works');
      await e.close();
    }
    assert.notEqual(tokens[0], tokens[1]);
    assert.equal(tokens[2], 'pinned-operator-token-0123456789');
  });
});
