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
import type { Market } from '../../services/markets/marketService.js';
import { accounts, signedBody, units } from '../../testkit/orderKit.js';
import { Wire } from '../wireClient.js';

const [alice] = accounts as [PrivateKeyAccount];

/** Every wrong JSON type a coercing validator would have turned into the right one. */
const WRONG_TYPES: [string, (v: unknown) => unknown][] = [
  ['a number', (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 7)],
  ['a one-element array', (v) => [v]],
  ['an object', (v) => ({ value: v })],
  ['null', () => null],
  ['a boolean', () => true],
];
const NUMBER_WRONG_TYPES: [string, (v: unknown) => unknown][] = [
  ['a string', (v) => String(v)],
  ['a one-element array', (v) => [v]],
  ['null', () => null],
  ['a boolean', () => true],
];

describe('request bodies are never coerced: a wrong JSON type is a 400 naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strict-bodies-'));
  const clock = new ManualClock(Date.now());
  let engine: Engine;
  let market: Market;
  let port: number;
  let creds: { key: string; secret: string; passphrase: string };
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, simulation: false, port: 0 }, { clock });
    port = Number(new URL((await engine.listen()).trading).port);
    market = await engine.ctx.markets.create({ question: 'Strict?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    const res = await engine.app.inject({ method: 'POST', url: '/auth/api-key', headers: await createL1Headers(alice, engine.ctx.config.chainId, 0, nowSec()) });
    creds = res.json();
    await engine.ctx.orders.creditCollateral(alice.address, units(1000), 'strict test');
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const l2 = (method: string, path: string, payload: string) => ({
    'content-type': 'application/json',
    ...createL2Headers(creds, alice.address, { method, path, body: payload, timestamp: nowSec() }),
  });

  /** POST /order through fastify's inject and over a fresh TCP connection to the listener: both must refuse. */
  async function postOrderBothWays(body: unknown): Promise<{ status: number; message: string }[]> {
    const payload = JSON.stringify(body);
    const viaFastify = await engine.app.inject({ method: 'POST', url: '/order', headers: l2('POST', '/order', payload), payload });
    const w = await Wire.open(port);
    try {
      let head = `POST /order HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`;
      for (const [k, v] of Object.entries(l2('POST', '/order', payload))) head += `${k}: ${v}\r\n`;
      w.write(`${head}content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      const [r] = await w.responses(1);
      const wired = JSON.parse(Buffer.from(r!.body, 'latin1').toString('utf8')) as { message: string };
      return [
        { status: viaFastify.statusCode, message: String(viaFastify.json().message) },
        { status: r!.status, message: String(wired.message) },
      ];
    } finally {
      w.close();
    }
  }

  const baseOrder = () => signedBody(alice, { market: { ...market, winner: null }, side: 'BUY', price: 500_000n, size: units(10) });

  it('every string field of POST /order refuses every other JSON type, on both HTTP paths', async () => {
    const base = await baseOrder();
    const stringFields = Object.entries(base.order).filter(([k, v]) => typeof v === 'string' && k !== 'salt');
    assert.ok(stringFields.length >= 10, `order string fields: ${stringFields.map(([k]) => k).join(', ')}`);
    for (const [field, value] of stringFields) {
      for (const [what, wrong] of WRONG_TYPES) {
        const body = structuredClone(base);
        (body.order as unknown as Record<string, unknown>)[field] = wrong(value);
        for (const r of await postOrderBothWays(body)) {
          assert.equal(r.status, 400, `order.${field} as ${what}`);
          assert.match(r.message, new RegExp(`order\\.${field}`), `order.${field} as ${what}: ${r.message}`);
        }
      }
    }
    for (const field of ['owner', 'orderType'] as const) {
      for (const [what, wrong] of WRONG_TYPES) {
        const body = structuredClone(base) as unknown as Record<string, unknown>;
        body[field] = wrong(body[field]);
        for (const r of await postOrderBothWays(body)) {
          assert.equal(r.status, 400, `${field} as ${what}`);
          assert.match(r.message, new RegExp(field), `${field} as ${what}: ${r.message}`);
        }
      }
    }
  });

  it('signatureType and affiliatePercentage must be JSON numbers, metadata an object or null', async () => {
    const base = await baseOrder();
    for (const [what, wrong] of NUMBER_WRONG_TYPES) {
      const body = structuredClone(base);
      (body.order as unknown as Record<string, unknown>).signatureType = wrong(0);
      for (const r of await postOrderBothWays(body)) assert.equal(r.status, 400, `signatureType as ${what}`);
    }
    const withAffiliate = structuredClone(base);
    (withAffiliate.order as unknown as Record<string, unknown>).affiliatePercentage = '50';
    for (const r of await postOrderBothWays(withAffiliate)) {
      assert.equal(r.status, 400);
      assert.match(r.message, /affiliatePercentage/);
    }
    const withMetadata = structuredClone(base);
    (withMetadata.order as unknown as Record<string, unknown>).metadata = 0;
    for (const r of await postOrderBothWays(withMetadata)) {
      assert.equal(r.status, 400);
      assert.match(r.message, /metadata/);
    }
  });

  it('a float makerAmount is refused instead of silently rounded', async () => {
    const body = await baseOrder();
    (body.order as unknown as Record<string, unknown>).makerAmount = 5000000.5;
    for (const r of await postOrderBothWays(body)) {
      assert.equal(r.status, 400);
      assert.match(r.message, /order\.makerAmount/);
    }
  });

  it('operator and relayer amounts are decimal strings: a JSON number is refused', async () => {
    const auth = { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
    const faucet = await engine.app.inject({ method: 'POST', url: '/admin/faucet', headers: auth, payload: JSON.stringify({ address: alice.address, amount: 250 }) });
    assert.equal(faucet.statusCode, 400, faucet.body);
    assert.match(faucet.json().message, /amount/);
    const created = await engine.app.inject({ method: 'POST', url: '/admin/markets', headers: auth, payload: JSON.stringify({ question: 'Q?', tickSize: '0.01', minOrderSize: 5 }) });
    assert.equal(created.statusCode, 400, created.body);
    assert.match(created.json().message, /minOrderSize/);
    const payload = JSON.stringify({ token: '0x0000000000000000000000000000000000000001', spender: '0x0000000000000000000000000000000000000002', amount: 1000000 });
    const approve = await engine.app.inject({
      method: 'POST',
      url: '/relayer/operations/approve',
      headers: { 'content-type': 'application/json', ...createL2Headers(creds, alice.address, { method: 'POST', path: '/operations/approve', body: payload, timestamp: nowSec() }) },
      payload,
    });
    assert.equal(approve.statusCode, 400, approve.body);
    assert.match(approve.json().message, /amount/);
  });

  it('amounts above what the store holds are a 400 naming the field and the maximum, never a 500', async () => {
    const auth = { authorization: `Bearer ${engine.ctx.secrets.operatorToken}`, 'content-type': 'application/json' };
    for (const amount of ['99999999999999999999', '115792089237316195423570985008687907853269984665640564039457584007913129639935']) {
      const r = await engine.app.inject({ method: 'POST', url: '/admin/faucet', headers: auth, payload: JSON.stringify({ address: alice.address, amount }) });
      assert.equal(r.statusCode, 400, r.body);
      assert.match(r.json().message, /maximum balance of 1000000000000/);
      assert.equal(r.json().details.field, 'amount');
      const m = await engine.app.inject({ method: 'POST', url: '/admin/markets', headers: auth, payload: JSON.stringify({ question: 'Huge?', tickSize: '0.01', minOrderSize: amount }) });
      assert.equal(m.statusCode, 400, m.body);
      assert.match(m.json().message, /minOrderSize must be at most 9007199254\.740991 shares/);
    }
    const ok = await engine.app.inject({ method: 'POST', url: '/admin/faucet', headers: auth, payload: JSON.stringify({ address: alice.address, amount: '250.5' }) });
    assert.equal(ok.statusCode, 200, 'an ordinary credit still works');
  });

  it('POST /books refuses an unknown side, naming it', async () => {
    const token = market.tokenIds[0];
    const r = await engine.app.inject({ method: 'POST', url: '/books', headers: { 'content-type': 'application/json' }, payload: JSON.stringify([{ token_id: token, side: 'HOLD' }]) });
    assert.equal(r.statusCode, 400, r.body);
    assert.match(r.json().message, /side/);
    const fine = await engine.app.inject({ method: 'POST', url: '/books', headers: { 'content-type': 'application/json' }, payload: JSON.stringify([{ token_id: token, side: 'BUY' }]) });
    assert.equal(fine.statusCode, 200, fine.body);
  });

  it('DELETE /orders with a blank or non-array body is a 400, not an empty success', async () => {
    for (const payload of [' ', '\n', '{"id":"x"}', '"x"']) {
      const r = await engine.app.inject({ method: 'DELETE', url: '/orders', headers: l2('DELETE', '/orders', payload), payload });
      assert.equal(r.statusCode, 400, `${JSON.stringify(payload)} → ${r.body}`);
    }
  });
});
