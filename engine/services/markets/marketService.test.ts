import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { binaryTokenIds, conditionIdOf } from '../../protocol/ctfIds.js';
import { isApiError } from '../../protocol/errors.js';
import { openDatabase, type Db } from '../../store/database.js';
import { WriteBatcher } from '../../store/writeBatcher.js';
import { ManualClock } from '../clock.js';
import { MarketService, type MarketDeps } from './marketService.js';

const OPERATOR = '0x1111111111111111111111111111111111111111';
const COLLATERAL = '0x2222222222222222222222222222222222222222';
const dirs: string[] = [];
const dbs: Db[] = [];

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'markets-'));
  dirs.push(d);
  return d;
}

async function open(dir: string, clock = new ManualClock(1_700_000_000_000)) {
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  dbs.push(db);
  const cancelled: Array<{ conditionId: string; reason: string }> = [];
  const ctx = {
    clock,
    db,
    writes: new WriteBatcher(db),
    chain: { enabled: false, operatorAddress: OPERATOR, contracts: { collateral: COLLATERAL } },
  } as unknown as MarketDeps;
  const markets = new MarketService(ctx);
  // What the composition root subscribes (the order service's cancels), recorded.
  markets.onResolving.add(async (m) => cancelled.push({ conditionId: m.conditionId, reason: 'market resolved' }));
  await markets.init();
  return { markets, cancelled, db, clock };
}

const BASE = { question: 'Will the Sandbox token trade above 0.5 on 1 June?', tickSize: 10_000n, minOrderSize: 5_000_000n };

test('create derives CTF ids from the operator oracle and the collateral and gives a fresh event id', async () => {
  const { markets } = await open(tempDir());
  const a = await markets.create(BASE);
  const b = await markets.create({ ...BASE, question: 'Another question?' });
  assert.equal(a.conditionId, conditionIdOf(OPERATOR, a.questionId, 2));
  assert.deepEqual(a.tokenIds, binaryTokenIds(COLLATERAL, a.conditionId));
  assert.deepEqual(a.outcomes, ['Yes', 'No']);
  assert.equal(a.tickSize, 10_000n);
  assert.equal(a.minOrderSize, 5_000_000n);
  assert.equal(a.eventId, 1);
  assert.equal(b.eventId, 2);
  assert.equal(a.slug, 'will-the-sandbox-token-trade-above-0-5-on-1-june');
  assert.equal(markets.byToken(a.tokenIds[1])?.outcomeIndex, 1);
  assert.equal(markets.byToken(a.tokenIds[0])?.market.conditionId, a.conditionId);
  assert.equal(markets.byCondition(a.conditionId.toUpperCase().replace('0X', '0x'))?.conditionId, a.conditionId);
  assert.deepEqual(
    markets.list().map((m) => m.conditionId),
    [a.conditionId, b.conditionId],
  );
});

test('the same question twice gives two markets with distinct ids and slugs', async () => {
  const { markets } = await open(tempDir());
  const a = await markets.create(BASE);
  const b = await markets.create(BASE);
  assert.notEqual(a.conditionId, b.conditionId);
  assert.notEqual(a.tokenIds[0], b.tokenIds[0]);
  assert.equal(b.slug, `${a.slug}-2`);
});

test('an explicit eventId groups markets; neg-risk markets share the event neg-risk market id', async () => {
  const { markets } = await open(tempDir());
  const a = await markets.create({ ...BASE, negRisk: true, eventId: 7, outcomes: ['Alice', 'Not Alice'] });
  const b = await markets.create({ ...BASE, question: 'Bob?', negRisk: true, eventId: 7 });
  const c = await markets.create({ ...BASE, question: 'Fresh?' });
  assert.equal(a.negRiskMarketId, b.negRiskMarketId);
  assert.match(a.negRiskMarketId, /^0x[0-9a-f]{62}00$/);
  assert.equal(BigInt(a.questionId), BigInt(a.negRiskMarketId));
  assert.equal(BigInt(b.questionId), BigInt(a.negRiskMarketId) + 1n);
  assert.equal(c.eventId, 8, 'fresh event ids continue after the highest one in use');
  assert.equal(c.negRiskMarketId, '');
});

test('create rejects bad input with a field-naming 400', async () => {
  const { markets } = await open(tempDir());
  const bad: Array<[object, string]> = [
    [{ ...BASE, question: '  ' }, 'question'],
    [{ ...BASE, tickSize: 20_000n }, 'tickSize'],
    [{ ...BASE, minOrderSize: 0n }, 'minOrderSize'],
    [{ ...BASE, outcomes: ['Yes', 'yes'] }, 'outcomes'],
    [{ ...BASE, endDate: 'tomorrow' }, 'endDate'],
    [{ ...BASE, eventId: 0 }, 'eventId'],
  ];
  for (const [input, field] of bad) {
    await assert.rejects(markets.create(input as typeof BASE), (e) => isApiError(e) && e.status === 400 && e.message.includes(field));
  }
  assert.equal(markets.list().length, 0);
});

test('pause and resume drive the per-market and global breakers, global first', async () => {
  const { markets } = await open(tempDir());
  const m = await markets.create(BASE);
  assert.equal(markets.pauseState(m.conditionId), null);
  await markets.pause(m.conditionId);
  assert.equal(markets.pauseState(m.conditionId), 'condition_paused');
  await markets.pause();
  assert.equal(markets.pauseState(m.conditionId), 'system_paused');
  await markets.resume();
  assert.equal(markets.pauseState(m.conditionId), 'condition_paused');
  await markets.resume(m.conditionId);
  assert.equal(markets.pauseState(m.conditionId), null);
  await assert.rejects(markets.pause('0x' + 'ab'.repeat(32)), (e) => isApiError(e) && e.code === 'market_not_found');
});

test('resolve closes the market, cancels its orders and is final', async () => {
  const { markets, cancelled } = await open(tempDir());
  const m = await markets.create(BASE);
  await assert.rejects(markets.resolve(m.conditionId, 2), (e) => isApiError(e) && e.code === 'invalid_field');
  const r = await markets.resolve(m.conditionId, 1);
  assert.equal(r.winner, 1);
  assert.equal(r.closed, true);
  assert.equal(r.acceptingOrders, false);
  assert.equal(r.resolvedAt, 1_700_000_000_000);
  assert.deepEqual(cancelled, [{ conditionId: m.conditionId, reason: 'market resolved' }]);
  await assert.rejects(markets.resolve(m.conditionId, 0), (e) => isApiError(e) && e.code === 'market_resolved');
});

test('markets, pauses and resolutions survive a restart', async () => {
  const dir = tempDir();
  const first = await open(dir);
  const a = await first.markets.create({ ...BASE, endDate: '2030-01-01', description: 'Resolves YES if ...' });
  const b = await first.markets.create({ ...BASE, question: 'Second?', tickSize: 1_000n });
  await first.markets.pause(a.conditionId);
  await first.markets.pause();
  await first.markets.resolve(b.conditionId, 0);
  first.db.close();
  dbs.splice(dbs.indexOf(first.db), 1);

  const second = await open(dir);
  assert.deepEqual(second.markets.list(), first.markets.list());
  const a2 = second.markets.byCondition(a.conditionId)!;
  assert.equal(a2.endDate, '2030-01-01T00:00:00.000Z');
  assert.equal(a2.description, 'Resolves YES if ...');
  assert.equal(a2.paused, true);
  assert.equal(second.markets.isSystemPaused(), true);
  assert.equal(second.markets.byCondition(b.conditionId)!.winner, 0);
  assert.equal(second.markets.byCondition(b.conditionId)!.tickSize, 1_000n);
  const c = await second.markets.create({ ...BASE, question: 'Third?' });
  assert.equal(c.eventId, 3);
});

test('concurrent creations get distinct event ids, slugs and condition ids', async () => {
  const { markets } = await open(tempDir());
  const made = await Promise.all([markets.create(BASE), markets.create(BASE), markets.create(BASE)]);
  assert.deepEqual(made.map((m) => m.eventId), [1, 2, 3]);
  assert.equal(new Set(made.map((m) => m.slug)).size, 3);
  assert.equal(new Set(made.map((m) => m.conditionId)).size, 3);
  await assert.rejects(markets.create({ ...BASE, question: '' }));
  assert.equal((await markets.create({ ...BASE, question: 'After a failure?' })).eventId, 4, 'a failed creation does not block the next');
});

const PUBLIC_IDENTITY = {
  conditionId: '0x' + 'ab'.repeat(32),
  questionId: '0x' + 'cd'.repeat(32),
  question: 'Will it rain in Lisbon on 1 December?',
  description: 'Resolves Yes if it rains.',
  slug: 'will-it-rain-in-lisbon-on-1-december',
  outcomes: ['Yes', 'No'] as const,
  tokenIds: ['71321045679252212594626385532706912750332728571942532289631379312455583992563', '52114319501245915516055106046884209969926127482827954674443846427813813222426'] as const,
  tickSize: 1_000,
  minOrderSize: 5_000_000,
  negRisk: true,
  negRiskMarketId: '0x' + 'ef'.repeat(32),
  endDate: '2026-12-01T12:00:00Z',
  feeSchedule: { rate: 72_000n, exponent: 1, takerOnly: true, rebateRate: 250_000n },
  image: '',
  closed: false,
  acceptingOrders: true,
  winner: null,
};

test('createMirrored keeps the public identity, marks the source and survives a restart', async () => {
  const dir = tempDir();
  const { markets } = await open(dir);
  const local = await markets.create({ ...BASE, question: PUBLIC_IDENTITY.question });
  const m = await markets.createMirrored(PUBLIC_IDENTITY, 'public');
  assert.equal(m.conditionId, PUBLIC_IDENTITY.conditionId);
  assert.equal(m.questionId, PUBLIC_IDENTITY.questionId);
  assert.deepEqual(m.tokenIds, [...PUBLIC_IDENTITY.tokenIds]);
  assert.equal(m.tickSize, 1_000n);
  assert.equal(m.minOrderSize, 5_000_000n);
  assert.equal(m.negRisk, true);
  assert.equal(m.negRiskMarketId, PUBLIC_IDENTITY.negRiskMarketId);
  assert.equal(m.endDate, '2026-12-01T12:00:00.000Z');
  assert.equal(m.mirrorSource, 'public');
  assert.equal(m.mirrorFollowing, true);
  assert.equal(markets.byToken(PUBLIC_IDENTITY.tokenIds[1])?.market.conditionId, m.conditionId);
  // The public slug is kept unless a local market holds it already.
  assert.notEqual(m.slug, local.slug);
  assert.notEqual(local.conditionId, m.conditionId);
  assert.equal(local.mirrorSource, null);
  const identity = JSON.parse(m.mirrorIdentity!) as { feeSchedule: unknown };
  assert.deepEqual(identity.feeSchedule, { rate: '0.072', exponent: 1, takerOnly: true, rebateRate: '0.25' });

  await assert.rejects(markets.createMirrored(PUBLIC_IDENTITY, 'public'), (e) => isApiError(e) && /already on this exchange/.test(e.message));
  await markets.close(m.conditionId);
  await markets.setMirrorFollowing(m.conditionId, false);

  const again = await open(dir);
  const back = again.markets.byCondition(m.conditionId)!;
  assert.equal(back.mirrorSource, 'public');
  assert.equal(back.mirrorFollowing, false);
  assert.equal(back.closed, true);
  assert.equal(back.acceptingOrders, false);
  assert.equal(back.mirrorIdentity, m.mirrorIdentity);
});

test('a mirrored market resolves in the registry without chain steps (its oracle is not ours)', async () => {
  const { markets, cancelled } = await open(tempDir());
  const m = await markets.createMirrored(PUBLIC_IDENTITY, 'public');
  const r = await markets.resolve(m.conditionId, 1);
  assert.equal(r.winner, 1);
  assert.equal(r.chainReported, false);
  assert.deepEqual(cancelled, [{ conditionId: m.conditionId, reason: 'market resolved' }]);
});
