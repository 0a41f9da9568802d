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
import { compileBodyValidator } from '../bodyValidator.js';
import { Wire } from '../wireClient.js';
import { RELAYER_PREFIX } from './index.js';

/**
 * Every route with a JSON body schema, found in the OpenAPI document the engine generates from its route
 * table (so a route added later is covered without touching this file), has every typed field of its body
 * (nested objects and array items too) replaced by each JSON type its schema does not allow. Each such
 * body must be a 400 that names the field, through fastify's inject and over a real TCP connection to
 * the listening engine. Coercion, a 500 or an acceptance fails the test.
 */

const [alice] = accounts as [PrivateKeyAccount];
const ADDRESS = '0x00000000000000000000000000000000000000a1';
const ORDER_ID = '01J00000000000000000000000';

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
interface Schema {
  type?: JsonType | JsonType[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
}

/** The JSON types a schema accepts; undefined when it accepts any value (nothing to refuse). */
function allowedTypes(s: Schema): Set<JsonType> | undefined {
  const branches = s.anyOf ?? s.oneOf;
  let out: Set<JsonType> | undefined;
  if (branches) {
    out = new Set();
    for (const b of branches) {
      const t = allowedTypes(b);
      if (!t) return undefined;
      for (const x of t) out.add(x);
    }
  } else if (s.type !== undefined) {
    out = new Set(Array.isArray(s.type) ? s.type : [s.type]);
  } else {
    return undefined;
  }
  if (s.nullable) out.add('null');
  if (out.has('integer')) out.add('number');
  return out;
}

/** Each value of a JSON type the field does not allow, derived from its valid value. */
function wrongValues(allowed: Set<JsonType>, valid: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (!allowed.has('number')) out.push(['a number', typeof valid === 'string' && /^\d+$/.test(valid) ? Number(valid) : 7.5]);
  if (!allowed.has('string')) out.push(['a string', typeof valid === 'object' ? JSON.stringify(valid) : String(valid ?? '7')]);
  if (!allowed.has('array')) out.push(['a one-element array', [valid]]);
  if (!allowed.has('object')) out.push(['an object', { value: valid }]);
  if (!allowed.has('null')) out.push(['null', null]);
  if (!allowed.has('boolean')) out.push(['a boolean', true]);
  return out;
}

interface Field {
  /** The dotted path a 400 names (`order.makerAmount`, `0.token_id`, `calls.0.to`). */
  path: string[];
  schema: Schema;
}

/**
 * Every typed field of a body schema with a place in the base body. A nested object or array that the
 * base body leaves out fails the test: its fields could not be exercised.
 */
function fieldsOf(schema: Schema, value: unknown, path: string[], route: string): Field[] {
  const out: Field[] = [];
  if (schema.properties || (typeof schema.additionalProperties === 'object' && value && typeof value === 'object')) {
    const obj = (value ?? {}) as Record<string, unknown>;
    const props: [string, Schema][] = Object.entries(schema.properties ?? {});
    if (typeof schema.additionalProperties === 'object') {
      const extra = Object.keys(obj).filter((k) => !(k in (schema.properties ?? {})));
      assert.ok(extra.length > 0, `${route}: the base body must give ${path.join('.') || 'the body'} one free-form key so its values are exercised`);
      for (const k of extra) props.push([k, schema.additionalProperties]);
    }
    for (const [name, sub] of props) {
      const p = [...path, name];
      if (allowedTypes(sub)) out.push({ path: p, schema: sub });
      const nested = hasFields(sub) || sub.items !== undefined;
      if (nested) {
        assert.ok(obj[name] !== undefined, `${route}: the base body must include ${p.join('.')} so its fields are exercised`);
        out.push(...fieldsOf(sub, obj[name], p, route));
      }
    }
  } else if (schema.items && Array.isArray(value)) {
    assert.ok(value.length > 0, `${route}: the base body must hold one entry in ${path.join('.') || 'the body array'}`);
    const p = [...path, '0'];
    if (allowedTypes(schema.items)) out.push({ path: p, schema: schema.items });
    out.push(...fieldsOf(schema.items, value[0], p, route));
  }
  return out;
}

/** A schema whose values have typed fields of their own (an object with properties or typed free-form values). */
function hasFields(s: Schema): boolean {
  return Object.keys(s.properties ?? {}).length > 0 || typeof s.additionalProperties === 'object';
}

function withField(base: unknown, path: string[], value: unknown): unknown {
  const body = structuredClone(base);
  let at = body as Record<string, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[path.at(-1)!] = value;
  return body;
}

describe('every body field of every route refuses every JSON type its schema does not allow', () => {
  const dir = mkdtempSync(join(tmpdir(), 'every-body-field-'));
  const clock = new ManualClock(Date.now());
  let engine: Engine;
  let market: Market;
  let port: number;
  let creds: { key: string; secret: string; passphrase: string };
  let order: Awaited<ReturnType<typeof signedBody>>;
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  before(async () => {
    engine = await createEngine({ dataDir: dir, chain: 'none', seedDemo: false, rateLimits: false, simulation: false, port: 0 }, { clock });
    port = Number(new URL((await engine.listen()).trading).port);
    market = await engine.ctx.markets.create({ question: 'Every field?', tickSize: 10_000n, minOrderSize: 5_000_000n }, { waitForChain: false });
    const res = await engine.app.inject({ method: 'POST', url: '/auth/api-key', headers: await createL1Headers(alice, engine.ctx.config.chainId, 0, nowSec()) });
    creds = res.json();
    await engine.ctx.orders.creditCollateral(alice.address, units(1000), 'every field test');
    order = await signedBody(alice, { market: { ...market, winner: null }, side: 'BUY', price: 500_000n, size: units(10) });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A body of the right shape per route, keyed `METHOD path` as in the OpenAPI document. It only has to
   * pass the body schema: every request below changes one field to a wrong type.
   */
  const baseBodies = (): Record<string, unknown> => {
    const token = market.tokenIds[0];
    return {
      'POST /order': order,
      'POST /orders': [order],
      'DELETE /order': { orderID: ORDER_ID },
      'DELETE /orders': [ORDER_ID],
      'DELETE /cancel-market-orders': { market: market.conditionId, asset_id: token },
      'POST /data/orders/lookup': [{ orderId: ORDER_ID }],
      'POST /redeem': { conditionId: market.conditionId },
      'POST /books': [{ token_id: token, side: 'BUY' }],
      'POST /prices': [{ token_id: token, side: 'BUY' }],
      'POST /midpoints': [{ token_id: token }],
      'POST /spreads': [{ token_id: token }],
      'POST /last-trades-prices': [{ token_id: token }],
      'POST /admin/markets': { question: 'Q?', tickSize: '0.01', minOrderSize: '5', outcomes: ['Yes', 'No'], feeSchedule: { rate: '0.01', exponent: 1, takerOnly: true, rebateRate: '0' } },
      'POST /admin/pause': { conditionId: market.conditionId },
      'POST /admin/resume': { conditionId: market.conditionId },
      'POST /admin/markets/{conditionId}/resolve': { winningOutcomeIndex: 0 },
      'PUT /admin/markets/{conditionId}/fee-rate': { feeRateBps: 100, feeSchedule: { rate: '0.01', exponent: 1, takerOnly: true, rebateRate: '0' } },
      'PUT /admin/markets/{conditionId}/tick-size': { tickSize: '0.001' },
      'POST /admin/faucet': { address: ADDRESS, amount: '1' },
      'POST /admin/agents': { name: 'bot', limits: { maxOrderNotional: '10', maxOpenOrders: 2, maxOrdersPerMinute: 3 } },
      'POST /orders-scoring': [ORDER_ID],
      'POST /v1/heartbeats': { heartbeat_id: '' },
      'PUT /admin/sim/markets/{conditionId}': { enabled: true, knobs: { halfSpreadTicks: 2 } },
      'POST /admin/scenarios': { name: 'calm' },
      'POST /admin/clock/advance': { seconds: 1, until: 0 },
      'POST /admin/tapes/recording': { enabled: false },
      'POST /admin/replays': { tape: 'no-such-tape', speed: 1 },
      'POST /admin/mirrors': { market: 'will-it-rain' },
      'POST /admin/bootstrap': { code: 'not-the-code' },
      'POST /rpc': { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      'POST /relayer/submit': { type: 'SAFE', from: alice.address, to: ADDRESS, data: '0x', signature: '0x', signatureParams: { operation: '0' } },
      'POST /relayer/operations/approve': { token: ADDRESS, spender: ADDRESS, amount: '1' },
      'POST /relayer/wallet/proxy': { owner: alice.address, calls: [{ type: 'CALL', to: ADDRESS, value: '0', data: '0x' }], nonce: '0', signature: '0x' },
      'POST /relayer/wallet/safe': { owner: alice.address, signature: '0x' },
    };
  };

  /** The body routes of the OpenAPI document, with their schemas. */
  async function bodyRoutes(): Promise<{ key: string; method: string; url: string; schema: Schema }[]> {
    const doc = (await engine.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
    };
    const out = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        out.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), url: path.replace('{conditionId}', market.conditionId), schema });
      }
    }
    return out;
  }

  /** Operator token and L2 headers on every request, so whatever auth a route checks first passes and the body is reached. */
  function headers(method: string, url: string, payload: string): Record<string, string> {
    const signed = url.startsWith(`${RELAYER_PREFIX}/`) ? url.slice(RELAYER_PREFIX.length) : url;
    return {
      'content-type': 'application/json',
      authorization: `Bearer ${engine.ctx.secrets.operatorToken}`,
      ...createL2Headers(creds, alice.address, { method, path: signed, body: payload, timestamp: nowSec() }),
    };
  }

  async function viaListener(method: string, url: string, payload: string): Promise<{ status: number; body: string }> {
    const w = await Wire.open(port);
    try {
      let head = `${method} ${url} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`;
      for (const [k, v] of Object.entries(headers(method, url, payload))) head += `${k}: ${v}\r\n`;
      w.write(`${head}content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      const [r] = await w.responses(1);
      return { status: r!.status, body: Buffer.from(r!.body, 'latin1').toString('utf8') };
    } finally {
      w.close();
    }
  }

  it('every route with a body schema has a base body, and every base body passes its schema', async () => {
    const routes = await bodyRoutes();
    const bases = baseBodies();
    assert.ok(routes.length >= 25, `body routes found: ${routes.map((r) => r.key).join(', ')}`);
    const missing = routes.filter((r) => !(r.key in bases)).map((r) => r.key);
    assert.deepEqual(missing, [], 'add a valid base body for each new body route to baseBodies()');
    const stale = Object.keys(bases).filter((k) => !routes.some((r) => r.key === k));
    assert.deepEqual(stale, [], 'base bodies of routes that no longer exist');
    for (const r of routes) {
      const validate = compileBodyValidator(r.schema as never);
      assert.ok(validate(bases[r.key]), `${r.key}: base body fails its schema: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('each wrong JSON type in each field is a 400 naming the field, through fastify and through the listener', async () => {
    const bases = baseBodies();
    const failures: string[] = [];
    let checked = 0;
    for (const r of await bodyRoutes()) {
      const base = bases[r.key];
      const root = allowedTypes(r.schema) ? [{ path: [], schema: r.schema }] : [];
      for (const field of [...root, ...fieldsOf(r.schema, base, [], r.key)]) {
        const name = field.path.join('.') || 'body';
        const valid = field.path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], base);
        for (const [what, wrong] of wrongValues(allowedTypes(field.schema)!, valid)) {
          const payload = JSON.stringify(field.path.length ? withField(base, field.path, wrong) : wrong);
          const injected = await engine.app.inject({ method: r.method, url: r.url, headers: headers(r.method, r.url, payload), payload });
          const wired = await viaListener(r.method, r.url, payload);
          for (const [how, status, text] of [['fastify', injected.statusCode, injected.body], ['listener', wired.status, wired.body]] as const) {
            checked++;
            let named = false;
            try {
              const b = JSON.parse(text) as { message?: string; details?: { field?: string } };
              named = b.details?.field === name || (b.message ?? '').includes(name);
            } catch {
              /* not JSON: reported below */
            }
            if (status !== 400 || !named) failures.push(`${r.key} ${name} as ${what} (${how}): ${status} ${text.slice(0, 200)}`);
          }
        }
      }
    }
    assert.ok(checked > 500, `requests checked: ${checked}`);
    console.log(`  ${checked} wrong-typed requests sent`);
    assert.deepEqual(failures, []);
  });
});
